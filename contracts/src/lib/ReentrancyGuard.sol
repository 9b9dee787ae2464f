// SPDX-License-Identifier: MIT
pragma solidity ^0.8.30;

/// @notice A reentrancy lock in transient storage (EIP-1153, Cancun): no constructor, no storage
/// slot to initialize, so it works in code placed with `anvil_setCode`.
abstract contract ReentrancyGuard {
    bool private transient _entered;

    error Reentrancy();

    modifier nonReentrant() {
        if (_entered) revert Reentrancy();
        _entered = true;
        _;
        _entered = false;
    }
}
