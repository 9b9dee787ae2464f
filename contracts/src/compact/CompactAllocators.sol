// SPDX-License-Identifier: MIT
pragma solidity ^0.8.30;

import {CompactLedger} from "./CompactLedger.sol";

/// @title CompactAllocators
/// @notice TheCompact's registrations (one of the parts TheCompact.sol is split into): allocators
/// (`__registerAllocator`, `toAllocatorId`), allocator nonces (`consume`,
/// `hasConsumedAllocatorNonce`), compacts a sponsor registers instead of signing (`register`,
/// `isRegistered`), and the sponsor's emissary per lock tag (`getEmissaryStatus`,
/// `scheduleEmissaryAssignment`, `assignEmissary`). How a claim consults a registration or an
/// emissary is in CompactClaims.
abstract contract CompactAllocators is CompactLedger {
    /// @dev getEmissaryStatus's statuses (v1's EmissaryStatus enum).
    uint8 internal constant EMISSARY_DISABLED = 0;
    uint8 internal constant EMISSARY_ENABLED = 1;
    uint8 internal constant EMISSARY_SCHEDULED = 2;

    event AllocatorRegistered(uint96 allocatorId, address allocator);
    event CompactRegistered(address indexed sponsor, bytes32 claimHash, bytes32 typehash);
    event NonceConsumedDirectly(address indexed allocator, uint256 nonce);
    event EmissaryAssigned(address indexed sponsor, bytes12 indexed lockTag, address indexed emissary);
    event EmissaryAssignmentScheduled(address indexed sponsor, bytes12 indexed lockTag, uint256 assignableAt);

    error InvalidAllocatorRegistration(address allocator);
    error AllocatorIdCollision(uint96 allocatorId, address existing);
    error EmissaryAssignmentUnavailable(uint256 assignableAt);

    // ================================================================ allocators and nonces

    /// @notice Registers an allocator. Allowed when the caller is the allocator, the allocator has
    /// code, or `proof` is the 85-byte CREATE2 preimage (0xff ‖ deployer ‖ salt ‖ initCodeHash) of
    /// its address. Idempotent: a registered allocator gets its id back.
    function __registerAllocator(address allocator, bytes calldata proof) external returns (uint96 allocatorId) {
        allocatorId = toAllocatorId(allocator);
        if (_allocatorIds[allocator] != 0) return allocatorId;
        bool allowed = msg.sender == allocator || allocator.code.length > 0
            || (proof.length == 85 && proof[0] == 0xff && address(uint160(uint256(keccak256(proof)))) == allocator);
        if (!allowed || allocator == address(0)) revert InvalidAllocatorRegistration(allocator);
        address existing = _allocators[allocatorId];
        if (existing != address(0)) revert AllocatorIdCollision(allocatorId, existing);
        _allocators[allocatorId] = allocator;
        _allocatorIds[allocator] = allocatorId;
        emit AllocatorRegistered(allocatorId, allocator);
    }

    /// @notice The allocator id an allocator address gets (registered or not).
    function toAllocatorId(address allocator) public pure returns (uint96) {
        return uint96((uint256(_compactFlag(allocator)) << 88) | (uint256(uint160(allocator)) & ((1 << 88) - 1)));
    }

    /// @notice Lets an allocator (the caller) burn its own nonces, so they can never be claimed.
    function consume(uint256[] calldata nonces) external returns (bool) {
        if (_allocatorIds[msg.sender] == 0) revert UnregisteredAllocator(toAllocatorId(msg.sender));
        for (uint256 i; i < nonces.length; ++i) {
            _consumeNonce(msg.sender, nonces[i]);
            emit NonceConsumedDirectly(msg.sender, nonces[i]);
        }
        return true;
    }

    function hasConsumedAllocatorNonce(uint256 nonce, address allocator) external view returns (bool) {
        return _consumedNonces[allocator][nonce];
    }

    /// @dev The allocator address's leading zero nibbles z: 0 if z < 4, 15 if z >= 18, else z - 3.
    function _compactFlag(address allocator) internal pure returns (uint8) {
        uint256 value = uint160(allocator);
        uint256 zeros;
        while (zeros < 18 && (value >> (156 - 4 * zeros)) & 0xf == 0) ++zeros;
        if (zeros < 4) return 0;
        return uint8(zeros - 3);
    }

    // ================================================================ registered compacts

    /// @notice Registers a compact for the caller as sponsor: a claim with this claim hash and
    /// typehash needs no sponsor signature.
    function register(bytes32 claimHash, bytes32 typehash) external returns (bool) {
        _registered[msg.sender][claimHash][typehash] = true;
        emit CompactRegistered(msg.sender, claimHash, typehash);
        return true;
    }

    function isRegistered(address sponsor, bytes32 claimHash, bytes32 typehash) external view returns (bool) {
        return _registered[sponsor][claimHash][typehash];
    }

    // ================================================================ emissaries

    /// @notice The sponsor's emissary for `lockTag`: status 0 Disabled (none), 1 Enabled (one is
    /// assigned, no change scheduled), 2 Scheduled (a change may be made from `assignableAt`).
    function getEmissaryStatus(address sponsor, bytes12 lockTag)
        external
        view
        returns (uint8 status, uint256 assignableAt, address currentEmissary)
    {
        currentEmissary = _emissaries[sponsor][lockTag];
        assignableAt = _emissaryAssignableAt[sponsor][lockTag];
        if (assignableAt != 0) status = EMISSARY_SCHEDULED;
        else if (currentEmissary != address(0)) status = EMISSARY_ENABLED;
        else status = EMISSARY_DISABLED;
    }

    /// @notice Starts the wait before the caller may replace or remove its emissary for `lockTag`:
    /// the lock tag's reset period from now.
    function scheduleEmissaryAssignment(bytes12 lockTag) external returns (uint256 assignableAt) {
        _allocatorOf(uint256(bytes32(lockTag))); // a lock tag of a registered allocator
        assignableAt = block.timestamp + _resetPeriodSeconds(uint8((uint96(lockTag) >> 92) & 7));
        _emissaryAssignableAt[msg.sender][lockTag] = assignableAt;
        emit EmissaryAssignmentScheduled(msg.sender, lockTag, assignableAt);
    }

    /// @notice Assigns (or, with the zero address, removes) the caller's emissary for `lockTag`.
    /// Immediate when none is assigned; otherwise only once a scheduled assignment is due.
    function assignEmissary(bytes12 lockTag, address emissary) external returns (bool) {
        _allocatorOf(uint256(bytes32(lockTag)));
        if (_emissaries[msg.sender][lockTag] != address(0)) {
            uint256 assignableAt = _emissaryAssignableAt[msg.sender][lockTag];
            if (assignableAt == 0 || block.timestamp < assignableAt) {
                revert EmissaryAssignmentUnavailable(assignableAt);
            }
        }
        _emissaries[msg.sender][lockTag] = emissary;
        delete _emissaryAssignableAt[msg.sender][lockTag];
        emit EmissaryAssigned(msg.sender, lockTag, emissary);
        return true;
    }
}
