// SPDX-License-Identifier: MIT
pragma solidity ^0.8.30;

/// @notice Token transfers that accept tokens returning nothing (USDT) and revert on failure.
library SafeTransferLib {
    error TransferFailed(address token);
    error NativeTransferFailed(address to);

    function safeTransfer(address token, address to, uint256 amount) internal {
        _call(token, abi.encodeWithSelector(0xa9059cbb, to, amount));
    }

    function safeTransferFrom(address token, address from, address to, uint256 amount) internal {
        _call(token, abi.encodeWithSelector(0x23b872dd, from, to, amount));
    }

    function safeApprove(address token, address spender, uint256 amount) internal {
        _call(token, abi.encodeWithSelector(0x095ea7b3, spender, amount));
    }

    function safeTransferETH(address to, uint256 amount) internal {
        (bool ok,) = to.call{value: amount}("");
        if (!ok) revert NativeTransferFailed(to);
    }

    function _call(address token, bytes memory data) private {
        if (token.code.length == 0) revert TransferFailed(token);
        (bool ok, bytes memory out) = token.call(data);
        if (!ok && out.length != 0) {
            // Bubble the token's own revert so callers see why (e.g. a reentrancy guard).
            assembly ("memory-safe") {
                revert(add(out, 0x20), mload(out))
            }
        }
        if (!ok || (out.length != 0 && (out.length < 32 || abi.decode(out, (uint256)) != 1))) {
            revert TransferFailed(token);
        }
    }
}
