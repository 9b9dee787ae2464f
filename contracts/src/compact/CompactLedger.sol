// SPDX-License-Identifier: MIT
pragma solidity ^0.8.30;

import {ReentrancyGuard} from "../lib/ReentrancyGuard.sol";
import {SafeTransferLib} from "../lib/SafeTransferLib.sol";
import {Component} from "./CompactTypes.sol";
import {IAllocator} from "./IAllocator.sol";

/// @title CompactLedger
/// @notice The base every part of TheCompact builds on (TheCompact.sol is split into this ledger,
/// CompactAllocators, CompactDeposits, CompactTransfers, CompactClaims and CompactHashLib): all of
/// its storage, the events and errors more than one part uses, and the internals they share:
/// lock ids and their allocators, ERC-6909 balance moves, releasing the underlying token, nonces,
/// the allocator's authorization and how a claimant is paid.
///
/// Every state variable of TheCompact is declared here, in this order and nowhere else, so the
/// storage layout is the one of the single-file contract (saved devnet states stay readable);
/// the parts add functions, events and errors only.
abstract contract CompactLedger is ReentrancyGuard {
    bytes4 internal constant ATTEST_SELECTOR = 0x1a808f91;
    bytes4 internal constant AUTHORIZE_CLAIM_SELECTOR = 0x7bb023f7;

    // ---------------------------------------------------------------- state
    mapping(address owner => mapping(uint256 id => uint256)) public balanceOf;
    mapping(address owner => mapping(address spender => mapping(uint256 id => uint256))) public allowance;
    mapping(address owner => mapping(address spender => bool)) public isOperator;

    mapping(uint96 allocatorId => address) internal _allocators;
    mapping(address allocator => uint96) internal _allocatorIds;
    mapping(address allocator => mapping(uint256 nonce => bool)) internal _consumedNonces;
    mapping(address sponsor => mapping(bytes32 claimHash => mapping(bytes32 typehash => bool))) internal _registered;
    mapping(address account => mapping(uint256 id => uint256 withdrawableAt)) internal _forcedWithdrawals;
    mapping(address sponsor => mapping(bytes12 lockTag => address)) internal _emissaries;
    mapping(address sponsor => mapping(bytes12 lockTag => uint256 assignableAt)) internal _emissaryAssignableAt;

    // ---------------------------------------------------------------- shared events and errors
    event Transfer(address by, address indexed from, address indexed to, uint256 indexed id, uint256 amount);

    error InvalidLockTag(bytes12 lockTag);
    error UnregisteredAllocator(uint96 allocatorId);
    error Expired(uint256 expires);
    error InvalidNonce(address allocator, uint256 nonce);
    error InvalidAllocation(address allocator);
    error InsufficientBalance(address owner, uint256 id);
    error InconsistentAllocators();
    error NoIds();

    // ---------------------------------------------------------------- lock ids

    /// @dev The id of `lockTag` ‖ `token`; reverts unless the lock tag names a registered allocator.
    function _toId(bytes12 lockTag, address token) internal view returns (uint256 id) {
        id = uint256(bytes32(lockTag)) | uint256(uint160(token));
        uint96 allocatorId = uint96((id >> 160) & ((1 << 92) - 1));
        if (_allocators[allocatorId] == address(0)) revert UnregisteredAllocator(allocatorId);
    }

    function _allocatorOf(uint256 id) internal view returns (address allocator) {
        uint96 allocatorId = uint96((id >> 160) & ((1 << 92) - 1));
        allocator = _allocators[allocatorId];
        if (allocator == address(0)) revert UnregisteredAllocator(allocatorId);
    }

    /// @dev A reset period's index (bits 252..254 of an id) in seconds.
    function _resetPeriodSeconds(uint8 resetPeriod) internal pure returns (uint256) {
        if (resetPeriod == 0) return 1;
        if (resetPeriod == 1) return 15;
        if (resetPeriod == 2) return 60;
        if (resetPeriod == 3) return 600;
        if (resetPeriod == 4) return 3900;
        if (resetPeriod == 5) return 86400;
        if (resetPeriod == 6) return 612000;
        return 2592000;
    }

    // ---------------------------------------------------------------- nonces and the allocator

    function _consumeNonce(address allocator, uint256 nonce) internal {
        if (_consumedNonces[allocator][nonce]) revert InvalidNonce(allocator, nonce);
        _consumedNonces[allocator][nonce] = true;
    }

    /// @dev Expiry, then the nonce (consumed before the allocator is called, so it can never be
    /// used twice), then the allocator's `authorizeClaim` with each id and its allocated amount.
    function _authorize(
        address allocator,
        bytes32 claimHash,
        address sponsor,
        uint256 nonce,
        uint256 expires,
        uint256[2][] memory idsAndAmounts,
        bytes calldata allocatorData
    ) internal {
        if (expires <= block.timestamp) revert Expired(expires);
        _consumeNonce(allocator, nonce);
        bytes4 result = IAllocator(allocator).authorizeClaim(
            claimHash, msg.sender, sponsor, nonce, expires, idsAndAmounts, allocatorData
        );
        if (result != AUTHORIZE_CLAIM_SELECTOR) revert InvalidAllocation(allocator);
    }

    // ---------------------------------------------------------------- balances

    function _sum(Component[] calldata components) internal pure returns (uint256 total) {
        for (uint256 i; i < components.length; ++i) total += components[i].amount;
    }

    /// @dev Pays each portion of `from`'s lock `id`. A claimant is lockTag << 160 | recipient: the
    /// same lock tag moves the ERC-6909 balance, lock tag 0 withdraws the underlying token, any
    /// other (registered) lock tag converts the balance to that lock.
    function _distribute(address from, uint256 id, Component[] calldata portions) internal {
        bytes12 lockTag = bytes12(bytes32(id));
        address token = address(uint160(id));
        for (uint256 i; i < portions.length; ++i) {
            uint256 claimant = portions[i].claimant;
            uint256 amount = portions[i].amount;
            address recipient = address(uint160(claimant));
            bytes12 tag = bytes12(bytes32(claimant));
            if (tag == lockTag) {
                _move(from, recipient, id, amount);
            } else if (tag == bytes12(0)) {
                _burn(from, id, amount);
                _release(id, recipient, amount);
            } else {
                uint256 newId = _toId(tag, token);
                _burn(from, id, amount);
                _mint(recipient, newId, amount);
            }
        }
    }

    /// @dev Sends the underlying token of `id` (ether for the zero token).
    function _release(uint256 id, address to, uint256 amount) internal {
        address token = address(uint160(id));
        if (token == address(0)) SafeTransferLib.safeTransferETH(to, amount);
        else SafeTransferLib.safeTransfer(token, to, amount);
    }

    function _mint(address to, uint256 id, uint256 amount) internal {
        balanceOf[to][id] += amount;
        emit Transfer(msg.sender, address(0), to, id, amount);
    }

    function _burn(address from, uint256 id, uint256 amount) internal {
        uint256 balance = balanceOf[from][id];
        if (balance < amount) revert InsufficientBalance(from, id);
        unchecked {
            balanceOf[from][id] = balance - amount;
        }
        emit Transfer(msg.sender, from, address(0), id, amount);
    }

    function _move(address from, address to, uint256 id, uint256 amount) internal {
        uint256 balance = balanceOf[from][id];
        if (balance < amount) revert InsufficientBalance(from, id);
        unchecked {
            balanceOf[from][id] = balance - amount;
        }
        balanceOf[to][id] += amount;
        emit Transfer(msg.sender, from, to, id, amount);
    }
}
