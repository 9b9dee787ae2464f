// SPDX-License-Identifier: MIT
pragma solidity ^0.8.30;

import {CompactAllocators} from "./CompactAllocators.sol";
import {CompactClaims} from "./CompactClaims.sol";
import {CompactDeposits} from "./CompactDeposits.sol";
import {CompactHashLib} from "./CompactHashLib.sol";
import {CompactTransfers} from "./CompactTransfers.sol";

/// @title TheCompact
/// @notice A Compact-compatible resource lock (ERC-6909), written for the devnet from The Compact
/// v1's public interface and placed with `anvil_setCode` at 0x00000000000000171ede64904551eeDF3C6C9788.
///
/// Lock ids: id = lockTag (12 bytes) ‖ token (20 bytes, zero = native), with
/// lockTag = scope << 255 | resetPeriod << 252 | allocatorId << 160 (bits of the id) and
/// allocatorId (uint96) = compactFlag (4 bits) << 88 | low 88 bits of the allocator address.
/// compactFlag counts the allocator address's leading zero nibbles z: 0 if z < 4, 15 if z >= 18,
/// else z - 3.
///
/// Claim hashes (EIP-712 struct hashes; the digest signed by the sponsor is
/// keccak256(0x1901 ‖ domainSeparator ‖ claimHash), domain {name 'The Compact', version '1',
/// chainId, verifyingContract: this}). Without a witness (empty witnessTypestring) the plain v1
/// types are used; with one, `,Mandate mandate)` closes the compact's own struct (the Element of a
/// multichain compact) and `Mandate(` ‖ witnessTypestring ‖ `)` follows the Lock type; the
/// witness hash is the struct's last member.
///
/// Multichain element ordering (what a settlement must reproduce): the sponsor signs
/// MultichainCompact{sponsor, nonce, expires, elements[]}; elements[] is hashed as
/// keccak256(elementHash[0] ‖ elementHash[1] ‖ ...), each elementHash =
/// keccak256(abi.encode(ELEMENT_TYPEHASH, arbiter, chainId, keccak256(lockHashes...), witness)).
/// - multichainClaim / batchMultichainClaim are made on the chain of elements[0] (the notarized
///   chain): the element list is [this chain's element, ...additionalChains], so additionalChains =
///   the hashes of elements[1..] in signed order. The signature domain uses block.chainid.
/// - exogenousClaim / exogenousBatchClaim are made on any other chain: additionalChains = the
///   hashes of every other element in signed order (elements[0] first), and this chain's element
///   is inserted AFTER additionalChains[chainIndex], i.e. it sits at elements[chainIndex + 1]. The
///   signature domain uses notarizedChainId (the chain id of elements[0]) instead of block.chainid.
///
/// Sponsor authorization of a claim: a registration, else the sponsor's signature over the digest
/// (ECDSA, then ERC-1271; under this domain, then under the legacy domain), else the sponsor's
/// emissary for the claim's lock tag (`IEmissary.verifyClaim` returning its selector). Every lock of
/// a batch claim must have that same emissary. A sponsor assigns an emissary per lock tag with
/// `assignEmissary`: the first assignment is immediate; replacing or removing one needs
/// `scheduleEmissaryAssignment` and the lock tag's reset period to pass (so an allocator can rely on
/// an emissary for as long as it could rely on the lock).
///
/// Deviations from v1 (devnet): no constructor or immutables (the domain separator is computed at
/// call time); no Permit2 deposits, no qualification or batch registrations;
/// `__registerAllocator` of an already registered allocator returns its id instead of reverting;
/// a multichain claim requires Multichain-scoped locks; every id of a batch shares one allocator.
///
/// Composition: the contract is split by concern (no file over 400 lines, issue 27) into abstract
/// bases over one ledger, composed here, each in the file of its name; the deployed code's ABI,
/// storage layout and behaviour are those of the former single file.
/// - CompactLedger: all storage (declared there only, in the original order),
///   shared events and errors, lock ids, balances, nonces, the allocator's authorization, payouts.
/// - CompactAllocators: allocator registration and nonces, registered compacts, emissaries.
/// - CompactDeposits: deposits and forced withdrawals.
/// - CompactTransfers: ERC-6909 transfers, approvals, operators, allocated transfers.
/// - CompactClaims: the six claims and the sponsor authorization they share.
/// - CompactHashLib (a library of internal functions): type strings, domains and claim hashes.
/// What is left here is the identity of the contract: its name, domain separator, interfaces and
/// the decoding of a lock id.
contract TheCompact is CompactAllocators, CompactDeposits, CompactTransfers, CompactClaims {
    function name() external pure returns (string memory) {
        return "The Compact";
    }

    /// @notice The EIP-712 domain separator for the current chain and this address.
    function DOMAIN_SEPARATOR() public view returns (bytes32) {
        return CompactHashLib.domainSeparator(block.chainid);
    }

    function supportsInterface(bytes4 interfaceId) external pure returns (bool) {
        // ERC-165 and ERC-6909.
        return interfaceId == 0x01ffc9a7 || interfaceId == 0x0f632fb3;
    }

    /// @notice The parts of a lock id. resetPeriod: 0..7 = 1 s, 15 s, 1 min, 10 min, 1 h 5 min,
    /// 1 day, 7 days 1 h, 30 days. scope: 0 Multichain, 1 ChainSpecific.
    function getLockDetails(uint256 id)
        external
        view
        returns (address token, address allocator, uint8 resetPeriod, uint8 scope, bytes12 lockTag)
    {
        token = address(uint160(id));
        allocator = _allocatorOf(id);
        resetPeriod = uint8((id >> 252) & 7);
        scope = uint8(id >> 255);
        lockTag = bytes12(bytes32(id));
    }
}
