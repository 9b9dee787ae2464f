// SPDX-License-Identifier: MIT
pragma solidity ^0.8.30;

interface IERC20BalanceOf {
    function balanceOf(address owner) external view returns (uint256);
}

/// @notice TEST ONLY: records every call it receives (caller, value, calldata) and, for
/// `note(owner)`, the owner's balance of the token given at deployment at that moment. The
/// conformance packs deploy it with an ordinary transaction (it has a constructor: it is never
/// placed with `anvil_setCode`) and read back what a target's calls did, e.g. that a pre-claim
/// call ran on its origin chain before the claim took the sponsor's tokens.
contract CallRecorder {
    struct Call {
        address caller;
        uint256 value;
        bytes data;
        uint256 balance;
    }

    address public token;
    Call[] internal _calls;

    event Recorded(uint256 indexed index, address indexed caller, uint256 value, bytes data, uint256 balance);

    constructor(address token_) {
        token = token_;
    }

    /// @notice Records the call with `owner`'s balance of `token` now.
    function note(address owner) external payable {
        _record(IERC20BalanceOf(token).balanceOf(owner));
    }

    /// Any other call (or plain value) is recorded too, with balance 0.
    fallback() external payable {
        _record(0);
    }

    receive() external payable {
        _record(0);
    }

    function callCount() external view returns (uint256) {
        return _calls.length;
    }

    function callerAt(uint256 i) external view returns (address) {
        return _calls[i].caller;
    }

    function valueAt(uint256 i) external view returns (uint256) {
        return _calls[i].value;
    }

    function dataAt(uint256 i) external view returns (bytes memory) {
        return _calls[i].data;
    }

    function balanceAt(uint256 i) external view returns (uint256) {
        return _calls[i].balance;
    }

    function _record(uint256 balance) internal {
        _calls.push(Call(msg.sender, msg.value, msg.data, balance));
        emit Recorded(_calls.length - 1, msg.sender, msg.value, msg.data, balance);
    }
}
