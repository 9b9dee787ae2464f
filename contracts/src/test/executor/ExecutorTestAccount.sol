// SPDX-License-Identifier: MIT
pragma solidity ^0.8.27;

/// TEST ONLY. A stand-in ERC-7579 account for the IntentExecutor tests: one ECDSA owner,
/// `executeFromExecutor` (batch mode) from installed executors, and ERC-1271 on signatures
/// prefixed with a 20-byte validator address (ignored here, like the default validator).
contract ExecutorTestAccount {
    struct Execution {
        address target;
        uint256 value;
        bytes callData;
    }

    address public owner;
    mapping(address => bool) public isExecutor;

    error AlreadyInitialized();
    error InstallFailed();
    error NotExecutor(address caller);
    error UnsupportedMode(bytes32 mode);
    error CallFailed(uint256 index, bytes reason);

    function initialize(address owner_, address executor) external {
        if (owner != address(0)) revert AlreadyInitialized();
        owner = owner_;
        isExecutor[executor] = true;
        // Tell the executor module it was installed, as an ERC-7579 account does.
        (bool ok,) = executor.call(abi.encodeWithSignature("onInstall(bytes)", bytes("")));
        if (!ok) revert InstallFailed();
    }

    function executeFromExecutor(bytes32 mode, bytes calldata executionCalldata)
        external
        payable
        returns (bytes[] memory results)
    {
        if (!isExecutor[msg.sender]) revert NotExecutor(msg.sender);
        if (mode != bytes32(uint256(0x01) << 248)) revert UnsupportedMode(mode);
        Execution[] memory executions = abi.decode(executionCalldata, (Execution[]));
        results = new bytes[](executions.length);
        for (uint256 i = 0; i < executions.length; ++i) {
            (bool ok, bytes memory ret) = executions[i].target.call{value: executions[i].value}(executions[i].callData);
            if (!ok) revert CallFailed(i, ret);
            results[i] = ret;
        }
    }

    function isValidSignature(bytes32 hash, bytes calldata signature) external view returns (bytes4) {
        if (signature.length != 85) return 0xffffffff;
        bytes calldata sig = signature[20:];
        uint8 v = uint8(sig[64]);
        address signer = ecrecover(hash, v < 27 ? v + 27 : v, bytes32(sig[0:32]), bytes32(sig[32:64]));
        return signer != address(0) && signer == owner ? bytes4(0x1626ba7e) : bytes4(0xffffffff);
    }

    receive() external payable {}
}
