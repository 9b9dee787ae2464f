// SPDX-License-Identifier: MIT
pragma solidity ^0.8.30;

import {ECDSA} from "../lib/ECDSA.sol";
import {IAllocator} from "./IAllocator.sol";

interface ICompactDomain {
    function DOMAIN_SEPARATOR() external view returns (bytes32);
}

/// @title Allocator
/// @notice The devnet's allocator for TheCompact, placed with `anvil_setCode` at
/// 0x00000000000000000000000000000000a110cA70 (many leading zero nibbles, so its compact flag is 15
/// and lock ids never have a zero top byte). It authorizes a claim or allocated transfer when
/// allocatorData is a 65-byte (or 64-byte compact) ECDSA signature by its signer over
/// keccak256(0x1901 ‖ TheCompact.DOMAIN_SEPARATOR() ‖ claimHash): the simulator's allocator key
/// signs every claim it allows. Nonces are consumed by TheCompact before `authorizeClaim` runs,
/// so none is ever reusable. Plain ERC-6909 transfers are always attested (this devnet allocator
/// keeps no balance ledger; the simulator decides what it signs).
contract Allocator is IAllocator {
    address public constant COMPACT = 0x00000000000000171ede64904551eeDF3C6C9788;
    bytes4 internal constant AUTHORIZE_CLAIM_SELECTOR = 0x7bb023f7;

    address public signer;

    event SignerSet(address signer);

    error AlreadyInitialized();
    error InvalidSigner();
    error OnlyCompact(address caller);
    error InvalidAllocatorSignature();

    /// @notice Sets the signer once (placed code has no constructor).
    function initialize(address signer_) external {
        if (signer != address(0)) revert AlreadyInitialized();
        if (signer_ == address(0)) revert InvalidSigner();
        signer = signer_;
        emit SignerSet(signer_);
    }

    function attest(address, address, address, uint256, uint256) external pure returns (bytes4) {
        return IAllocator.attest.selector;
    }

    function authorizeClaim(
        bytes32 claimHash,
        address,
        address,
        uint256,
        uint256,
        uint256[2][] calldata,
        bytes calldata allocatorData
    ) external view returns (bytes4) {
        if (msg.sender != COMPACT) revert OnlyCompact(msg.sender);
        if (!_isSignedBySigner(claimHash, allocatorData)) revert InvalidAllocatorSignature();
        return AUTHORIZE_CLAIM_SELECTOR;
    }

    function isClaimAuthorized(
        bytes32 claimHash,
        address,
        address,
        uint256,
        uint256,
        uint256[2][] calldata,
        bytes calldata allocatorData
    ) external view returns (bool) {
        return _isSignedBySigner(claimHash, allocatorData);
    }

    function _isSignedBySigner(bytes32 claimHash, bytes calldata allocatorData) internal view returns (bool) {
        address expected = signer;
        if (expected == address(0)) return false;
        bytes32 digest =
            keccak256(abi.encodePacked(hex"1901", ICompactDomain(COMPACT).DOMAIN_SEPARATOR(), claimHash));
        return ECDSA.recover(digest, allocatorData) == expected;
    }
}
