// SPDX-License-Identifier: MIT
pragma solidity ^0.8.30;

import {SafeTransferLib} from "../lib/SafeTransferLib.sol";
import {CompactLedger} from "./CompactLedger.sol";

/// @title CompactDeposits
/// @notice A depositor's own way into and out of a lock (one of the parts TheCompact.sol is split
/// into): deposits (`depositNative`, `depositERC20`, `batchDeposit`) mint ERC-6909 balances of
/// the lock ids; forced withdrawal (`enableForcedWithdrawal`, `disableForcedWithdrawal`,
/// `forcedWithdrawal`, `getForcedWithdrawalStatus`) releases the underlying token without the
/// allocator once the lock's reset period has passed. ERC-20 deposits mint what actually arrived.
abstract contract CompactDeposits is CompactLedger {
    event ForcedWithdrawalStatusUpdated(
        address indexed account, uint256 indexed id, bool activating, uint256 withdrawableAt
    );

    error InvalidToken(address token);
    error InvalidDepositBalanceChange();
    error InconsistentNativeValue();
    error PrematureWithdrawal(uint256 id);
    error ForcedWithdrawalAlreadyDisabled(address account, uint256 id);

    // ================================================================ deposits

    function depositNative(bytes12 lockTag, address recipient) external payable nonReentrant returns (uint256 id) {
        id = _toId(lockTag, address(0));
        _mint(_recipientOrCaller(recipient), id, msg.value);
    }

    function depositERC20(address token, bytes12 lockTag, uint256 amount, address recipient)
        external
        nonReentrant
        returns (uint256 id)
    {
        if (token == address(0)) revert InvalidToken(token);
        id = _toId(lockTag, token);
        _mint(_recipientOrCaller(recipient), id, _pull(token, amount));
    }

    /// @notice Deposits several locks at once; a native id's amount must equal msg.value.
    function batchDeposit(uint256[2][] calldata idsAndAmounts, address recipient)
        external
        payable
        nonReentrant
        returns (bool)
    {
        address to = _recipientOrCaller(recipient);
        uint256 nativeSeen;
        for (uint256 i; i < idsAndAmounts.length; ++i) {
            uint256 id = idsAndAmounts[i][0];
            uint256 amount = idsAndAmounts[i][1];
            address token = address(uint160(id));
            _toId(bytes12(bytes32(id)), token); // validates the lock tag's allocator
            if (token == address(0)) {
                nativeSeen += amount;
                _mint(to, id, amount);
            } else {
                _mint(to, id, _pull(token, amount));
            }
        }
        if (nativeSeen != msg.value) revert InconsistentNativeValue();
        return true;
    }

    // ================================================================ forced withdrawal

    /// @notice Starts the caller's forced withdrawal of `id`; usable after the lock's reset period.
    function enableForcedWithdrawal(uint256 id) external returns (uint256 withdrawableAt) {
        withdrawableAt = block.timestamp + _resetPeriodSeconds(uint8((id >> 252) & 7));
        _forcedWithdrawals[msg.sender][id] = withdrawableAt;
        emit ForcedWithdrawalStatusUpdated(msg.sender, id, true, withdrawableAt);
    }

    function disableForcedWithdrawal(uint256 id) external returns (bool) {
        if (_forcedWithdrawals[msg.sender][id] == 0) revert ForcedWithdrawalAlreadyDisabled(msg.sender, id);
        delete _forcedWithdrawals[msg.sender][id];
        emit ForcedWithdrawalStatusUpdated(msg.sender, id, false, 0);
        return true;
    }

    /// @notice Withdraws the caller's underlying tokens without the allocator, once the reset
    /// period since `enableForcedWithdrawal` has passed.
    function forcedWithdrawal(uint256 id, address recipient, uint256 amount) external nonReentrant returns (bool) {
        uint256 withdrawableAt = _forcedWithdrawals[msg.sender][id];
        if (withdrawableAt == 0 || block.timestamp < withdrawableAt) revert PrematureWithdrawal(id);
        _burn(msg.sender, id, amount);
        _release(id, _recipientOrCaller(recipient), amount);
        return true;
    }

    /// @return status 0 disabled, 1 pending, 2 enabled; withdrawableAt the time it becomes usable.
    function getForcedWithdrawalStatus(address account, uint256 id)
        external
        view
        returns (uint8 status, uint256 withdrawableAt)
    {
        withdrawableAt = _forcedWithdrawals[account][id];
        if (withdrawableAt == 0) return (0, 0);
        status = block.timestamp < withdrawableAt ? 1 : 2;
    }

    // ================================================================ internals

    function _recipientOrCaller(address recipient) internal view returns (address) {
        return recipient == address(0) ? msg.sender : recipient;
    }

    /// @dev Pulls an ERC-20 and returns what actually arrived (fee-on-transfer safe).
    function _pull(address token, uint256 amount) internal returns (uint256 received) {
        uint256 before = _balanceOfSelf(token);
        SafeTransferLib.safeTransferFrom(token, msg.sender, address(this), amount);
        uint256 after_ = _balanceOfSelf(token);
        if (after_ < before) revert InvalidDepositBalanceChange();
        received = after_ - before;
    }

    function _balanceOfSelf(address token) internal view returns (uint256) {
        (bool ok, bytes memory out) = token.staticcall(abi.encodeWithSelector(0x70a08231, address(this)));
        if (!ok || out.length < 32) revert InvalidToken(token);
        return abi.decode(out, (uint256));
    }
}
