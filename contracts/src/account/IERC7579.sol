// SPDX-License-Identifier: MIT
pragma solidity ^0.8.30;

// ERC-7579 module type ids.
uint256 constant MODULE_TYPE_VALIDATOR = 1;
uint256 constant MODULE_TYPE_EXECUTOR = 2;
uint256 constant MODULE_TYPE_FALLBACK = 3;
uint256 constant MODULE_TYPE_HOOK = 4;

/// @notice What every ERC-7579 module exposes to the account that installs it.
interface IERC7579Module {
    function onInstall(bytes calldata data) external;
    function onUninstall(bytes calldata data) external;
    function isModuleType(uint256 moduleTypeId) external view returns (bool);
}

/// @notice The part of an ERC-7579 validator the devnet account uses (ERC-1271 forwarding).
interface IERC7579Validator is IERC7579Module {
    function isValidSignatureWithSender(address sender, bytes32 hash, bytes calldata data)
        external
        view
        returns (bytes4);
}

/// @notice The initializer the Nexus proxy's constructor delegatecalls (selector 0x4b6a1419).
interface INexusInitializer {
    function initializeAccount(bytes calldata initData) external payable;
}

/// @notice The ERC-7579 execution interface executor modules call.
interface IERC7579Execution {
    function execute(bytes32 mode, bytes calldata executionCalldata) external payable;
    function executeFromExecutor(bytes32 mode, bytes calldata executionCalldata)
        external
        payable
        returns (bytes[] memory returnData);
}

/// @notice One call of a batch (ERC-7579 batch execution calldata is `abi.encode(Execution[])`).
struct Execution {
    address target;
    uint256 value;
    bytes callData;
}
