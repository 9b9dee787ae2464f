// SPDX-License-Identifier: MIT
pragma solidity ^0.8.30;

import {CompactHashLib} from "./CompactHashLib.sol";
import {CompactLedger} from "./CompactLedger.sol";
import {AllocatedBatchTransfer, AllocatedTransfer, ComponentsById} from "./CompactTypes.sol";
import {IAllocator} from "./IAllocator.sol";

/// @title CompactTransfers
/// @notice Moving locked balances (one of the parts TheCompact.sol is split into): the ERC-6909
/// surface (`transfer`, `transferFrom`, `approve`, `setOperator`; a transfer needs the lock's
/// allocator's `attest`) and the allocated transfers (`allocatedTransfer`,
/// `allocatedBatchTransfer`), where the caller is both arbiter and sponsor of a compact its
/// allocator authorizes, and each portion is paid as a claim's would be.
abstract contract CompactTransfers is CompactLedger {
    event Approval(address indexed owner, address indexed spender, uint256 indexed id, uint256 amount);
    event OperatorSet(address indexed owner, address indexed spender, bool approved);

    error InsufficientAllowance(address owner, address spender, uint256 id);
    error UnallocatedTransfer(address operator, address from, address to, uint256 id, uint256 amount);

    // ================================================================ ERC-6909

    function transfer(address to, uint256 id, uint256 amount) external nonReentrant returns (bool) {
        _attest(msg.sender, msg.sender, to, id, amount);
        _move(msg.sender, to, id, amount);
        return true;
    }

    function transferFrom(address from, address to, uint256 id, uint256 amount) external nonReentrant returns (bool) {
        if (msg.sender != from && !isOperator[from][msg.sender]) {
            uint256 allowed = allowance[from][msg.sender][id];
            if (allowed != type(uint256).max) {
                if (allowed < amount) revert InsufficientAllowance(from, msg.sender, id);
                allowance[from][msg.sender][id] = allowed - amount;
            }
        }
        _attest(msg.sender, from, to, id, amount);
        _move(from, to, id, amount);
        return true;
    }

    function approve(address spender, uint256 id, uint256 amount) external returns (bool) {
        allowance[msg.sender][spender][id] = amount;
        emit Approval(msg.sender, spender, id, amount);
        return true;
    }

    function setOperator(address spender, bool approved) external returns (bool) {
        isOperator[msg.sender][spender] = approved;
        emit OperatorSet(msg.sender, spender, approved);
        return true;
    }

    // ================================================================ allocated transfers

    /// @notice Moves the caller's locked balance as its allocator authorizes: the claim hash is the
    /// Compact typehash over (arbiter = sponsor = caller, nonce, expires, lockTag, token, summed amount).
    function allocatedTransfer(AllocatedTransfer calldata t) external nonReentrant returns (bool) {
        uint256 total = _sum(t.recipients);
        bytes32 claimHash = keccak256(
            abi.encode(
                CompactHashLib.COMPACT_TYPEHASH,
                msg.sender,
                msg.sender,
                t.nonce,
                t.expires,
                bytes12(bytes32(t.id)),
                address(uint160(t.id)),
                total
            )
        );
        uint256[2][] memory idsAndAmounts = new uint256[2][](1);
        idsAndAmounts[0] = [t.id, total];
        _authorize(_allocatorOf(t.id), claimHash, msg.sender, t.nonce, t.expires, idsAndAmounts, t.allocatorData);
        _distribute(msg.sender, t.id, t.recipients);
        return true;
    }

    /// @notice The batch form: the claim hash is the BatchCompact typehash over (caller, caller,
    /// nonce, expires, Lock[] of each id with its summed amount). All ids share one allocator.
    function allocatedBatchTransfer(AllocatedBatchTransfer calldata t) external nonReentrant returns (bool) {
        uint256 n = t.transfers.length;
        if (n == 0) revert NoIds();
        uint256[2][] memory idsAndAmounts = new uint256[2][](n);
        bytes32[] memory lockHashes = new bytes32[](n);
        address allocator = _allocatorOf(t.transfers[0].id);
        for (uint256 i; i < n; ++i) {
            ComponentsById calldata c = t.transfers[i];
            if (_allocatorOf(c.id) != allocator) revert InconsistentAllocators();
            uint256 total = _sum(c.portions);
            idsAndAmounts[i] = [c.id, total];
            lockHashes[i] = CompactHashLib.lockHash(c.id, total);
        }
        bytes32 claimHash = keccak256(
            abi.encode(
                CompactHashLib.BATCH_COMPACT_TYPEHASH,
                msg.sender,
                msg.sender,
                t.nonce,
                t.expires,
                keccak256(abi.encodePacked(lockHashes))
            )
        );
        _authorize(allocator, claimHash, msg.sender, t.nonce, t.expires, idsAndAmounts, t.allocatorData);
        for (uint256 i; i < n; ++i) {
            _distribute(msg.sender, t.transfers[i].id, t.transfers[i].portions);
        }
        return true;
    }

    // ================================================================ internals

    /// @dev The lock's allocator must return its `attest` selector for a plain ERC-6909 transfer.
    function _attest(address operator, address from, address to, uint256 id, uint256 amount) internal {
        address allocator = _allocatorOf(id);
        bytes4 result = IAllocator(allocator).attest(operator, from, to, id, amount);
        if (result != ATTEST_SELECTOR) revert UnallocatedTransfer(operator, from, to, id, amount);
    }
}
