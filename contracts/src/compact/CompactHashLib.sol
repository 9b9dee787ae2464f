// SPDX-License-Identifier: MIT
pragma solidity ^0.8.30;

import {EIP712} from "../lib/EIP712.sol";
import {BatchClaimComponent, Claim as ClaimPayload} from "./CompactTypes.sol";

/// @title CompactHashLib
/// @notice TheCompact's EIP-712 part (one of the files TheCompact.sol is split into): the type
/// strings of v1's compacts, the two signing domains (this address, and the legacy address the
/// public SDK 1.x signs for) and the struct hashes a claim or allocated transfer is checked
/// against. Internal functions only, so they are inlined into TheCompact (no linking, no
/// DELEGATECALL); `domainSeparator` reads `address(this)`, i.e. The Compact's own address.
///
/// Without a witness (empty witnessTypestring) the plain v1 types are used; with one,
/// `,Mandate mandate)` closes the compact's own struct (the Element of a multichain compact) and
/// `Mandate(` ‖ witnessTypestring ‖ `)` follows the Lock type; the witness hash is the struct's
/// last member. How a multichain compact's elements are ordered is stated at the top of
/// TheCompact.sol and implemented by `multichainHash`.
library CompactHashLib {
    // ---------------------------------------------------------------- EIP-712 type strings
    bytes32 internal constant COMPACT_TYPEHASH = keccak256(
        "Compact(address arbiter,address sponsor,uint256 nonce,uint256 expires,bytes12 lockTag,address token,uint256 amount)"
    );
    bytes32 internal constant BATCH_COMPACT_TYPEHASH = keccak256(
        "BatchCompact(address arbiter,address sponsor,uint256 nonce,uint256 expires,Lock[] commitments)Lock(bytes12 lockTag,address token,uint256 amount)"
    );
    bytes32 internal constant MULTICHAIN_COMPACT_TYPEHASH = keccak256(
        "MultichainCompact(address sponsor,uint256 nonce,uint256 expires,Element[] elements)Element(address arbiter,uint256 chainId,Lock[] commitments)Lock(bytes12 lockTag,address token,uint256 amount)"
    );
    bytes32 internal constant ELEMENT_TYPEHASH = keccak256(
        "Element(address arbiter,uint256 chainId,Lock[] commitments)Lock(bytes12 lockTag,address token,uint256 amount)"
    );
    bytes32 internal constant LOCK_TYPEHASH = keccak256("Lock(bytes12 lockTag,address token,uint256 amount)");

    string internal constant COMPACT_WITNESS_PREFIX =
        "Compact(address arbiter,address sponsor,uint256 nonce,uint256 expires,bytes12 lockTag,address token,uint256 amount,Mandate mandate)Mandate(";
    string internal constant BATCH_WITNESS_PREFIX =
        "BatchCompact(address arbiter,address sponsor,uint256 nonce,uint256 expires,Lock[] commitments,Mandate mandate)Lock(bytes12 lockTag,address token,uint256 amount)Mandate(";
    string internal constant MULTICHAIN_WITNESS_PREFIX =
        "MultichainCompact(address sponsor,uint256 nonce,uint256 expires,Element[] elements)Element(address arbiter,uint256 chainId,Lock[] commitments,Mandate mandate)Lock(bytes12 lockTag,address token,uint256 amount)Mandate(";
    string internal constant ELEMENT_WITNESS_PREFIX =
        "Element(address arbiter,uint256 chainId,Lock[] commitments,Mandate mandate)Lock(bytes12 lockTag,address token,uint256 amount)Mandate(";

    /// @dev The older Compact address the public SDK 1.x puts in its signing domain.
    address internal constant LEGACY_VERIFYING_CONTRACT = 0x73d2Dc0c21fca4EC1601895d50Df7f5624f07D3F;

    /// @dev A multichain claim's lock is not Multichain-scoped (scope bit set).
    error InvalidScope(uint256 id);
    /// @dev An exogenous claim's chainIndex is past the end of additionalChains.
    error InvalidChainIndex();

    // ---------------------------------------------------------------- domains

    /// @dev {name 'The Compact', version '1', chainId, verifyingContract: this}.
    function domainSeparator(uint256 chainId) internal view returns (bytes32) {
        return keccak256(
            abi.encode(EIP712.DOMAIN_TYPEHASH, keccak256("The Compact"), keccak256("1"), chainId, address(this))
        );
    }

    /// @dev The same domain with verifyingContract = LEGACY_VERIFYING_CONTRACT (see contracts/README.md).
    function legacyDomainSeparator(uint256 chainId) internal pure returns (bytes32) {
        return keccak256(
            abi.encode(
                EIP712.DOMAIN_TYPEHASH, keccak256("The Compact"), keccak256("1"), chainId, LEGACY_VERIFYING_CONTRACT
            )
        );
    }

    // ---------------------------------------------------------------- typehashes

    /// @dev `plain` without a witness; otherwise keccak256(prefix ‖ witnessTypestring ‖ ")").
    function witnessTypehash(bytes32 plain, string memory prefix, string calldata witnessTypestring)
        internal
        pure
        returns (bytes32)
    {
        if (bytes(witnessTypestring).length == 0) return plain;
        return keccak256(abi.encodePacked(prefix, witnessTypestring, ")"));
    }

    function multichainTypehash(string calldata witnessTypestring) internal pure returns (bytes32) {
        return witnessTypehash(MULTICHAIN_COMPACT_TYPEHASH, MULTICHAIN_WITNESS_PREFIX, witnessTypestring);
    }

    // ---------------------------------------------------------------- struct hashes

    /// @dev The ABI encoding of a single-lock Compact (hashed into its claim hash), the witness
    /// appended when there is one.
    function compactEncoding(bytes32 typehash, ClaimPayload calldata c, address arbiter)
        internal
        pure
        returns (bytes memory enc)
    {
        enc = abi.encode(
            typehash,
            arbiter,
            c.sponsor,
            c.nonce,
            c.expires,
            bytes12(bytes32(c.id)),
            address(uint160(c.id)),
            c.allocatedAmount
        );
        if (bytes(c.witnessTypestring).length != 0) enc = abi.encodePacked(enc, c.witness);
    }

    function lockHash(uint256 id, uint256 amount) internal pure returns (bytes32) {
        return keccak256(abi.encode(LOCK_TYPEHASH, bytes12(bytes32(id)), address(uint160(id)), amount));
    }

    /// @dev Lock[] of one lock: keccak256 of that one lock hash. The lock must be Multichain-scoped.
    function singleCommitment(uint256 id, uint256 amount) internal pure returns (bytes32) {
        if ((id >> 255) != 0) revert InvalidScope(id);
        return keccak256(abi.encodePacked(lockHash(id, amount)));
    }

    /// @dev Lock[] of a batch claim's ids with their allocated amounts; `multichain` requires
    /// every lock to be Multichain-scoped.
    function commitmentsHash(BatchClaimComponent[] calldata claims, bool multichain) internal pure returns (bytes32) {
        bytes32[] memory hashes = new bytes32[](claims.length);
        for (uint256 i; i < claims.length; ++i) {
            if (multichain && (claims[i].id >> 255) != 0) revert InvalidScope(claims[i].id);
            hashes[i] = lockHash(claims[i].id, claims[i].allocatedAmount);
        }
        return keccak256(abi.encodePacked(hashes));
    }

    /// @dev The element of this chain: the given arbiter (the claim's caller), chainId = block.chainid.
    function elementHash(string calldata witnessTypestring, bytes32 witness, bytes32 commitments, address arbiter)
        internal
        view
        returns (bytes32)
    {
        bool hasWitness = bytes(witnessTypestring).length != 0;
        bytes32 typehash = witnessTypehash(ELEMENT_TYPEHASH, ELEMENT_WITNESS_PREFIX, witnessTypestring);
        bytes memory enc = abi.encode(typehash, arbiter, block.chainid, commitments);
        if (hasWitness) enc = abi.encodePacked(enc, witness);
        return keccak256(enc);
    }

    /// @dev chainIndex == type(uint256).max: this chain's element goes first (the notarized
    /// chain); otherwise it is inserted after additionalChains[chainIndex].
    function multichainHash(
        string calldata witnessTypestring,
        address sponsor,
        uint256 nonce,
        uint256 expires,
        bytes32 element,
        bytes32[] calldata additionalChains,
        uint256 chainIndex
    ) internal pure returns (bytes32 claimHash, bytes32 elementsHash) {
        uint256 n = additionalChains.length;
        bytes32[] memory elements = new bytes32[](n + 1);
        uint256 position = chainIndex == type(uint256).max ? 0 : chainIndex + 1;
        if (chainIndex != type(uint256).max && chainIndex >= n) revert InvalidChainIndex();
        for (uint256 i; i <= n; ++i) {
            if (i < position) elements[i] = additionalChains[i];
            else if (i == position) elements[i] = element;
            else elements[i] = additionalChains[i - 1];
        }
        elementsHash = keccak256(abi.encodePacked(elements));
        claimHash = keccak256(abi.encode(multichainTypehash(witnessTypestring), sponsor, nonce, expires, elementsHash));
    }
}
