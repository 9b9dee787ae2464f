// SPDX-License-Identifier: MIT
pragma solidity ^0.8.30;

import {IERC7579Module, MODULE_TYPE_EXECUTOR, MODULE_TYPE_VALIDATOR} from "./IERC7579.sol";
import {SentinelList} from "./SentinelList.sol";

/// @title ModuleManager
/// @notice Module bookkeeping shared by NexusAccount and NexusBootstrap. The bootstrap runs by
/// delegatecall inside the account's proxy constructor, when the proxy has no runtime code yet
/// (so it cannot call the account's external functions): both contracts therefore inherit this
/// one storage layout (ERC-7201 namespace) and these internal functions.
abstract contract ModuleManager {
    using SentinelList for mapping(address => address);

    /// @notice The hardwired default validator (the OwnableValidator), as in the SDK's Nexus 1.2.0:
    /// a signature prefixed with the zero address is checked by it; it is never in the list.
    address internal constant DEFAULT_VALIDATOR = 0x000000000013fdB5234E4E3162a810F54d9f7E98;

    /// @notice Transient slot the Nexus proxy's constructor sets to 1 before it delegatecalls
    /// `initializeAccount` (read from the SDK's proxy creation code).
    bytes32 internal constant INITIALIZING_SLOT = 0x90b772c2cb8a51aa7a8a65fc23543c6d022d5b3f8e2b92eed79fba7eef829300;

    /// @dev keccak256(abi.encode(uint256(keccak256("intent-devnet.account.modules")) - 1)) & ~bytes32(uint256(0xff))
    bytes32 private constant STORAGE_SLOT = 0x94b3e6cfb1c1f37f9528e8ae87ef89132fa163b1c9563537ecf348cd4e98c000;

    /// @custom:storage-location erc7201:intent-devnet.account.modules
    struct AccountStorage {
        bool initialized;
        mapping(address => address) validators;
        mapping(address => address) executors;
    }

    event ModuleInstalled(uint256 moduleTypeId, address module);
    event ModuleUninstalled(uint256 moduleTypeId, address module);

    error UnsupportedModuleType(uint256 moduleTypeId);
    error DefaultValidatorAlreadyInstalled();
    error NotInitializing();
    error ModuleHasNoCode(address module);

    function _accountStorage() internal pure returns (AccountStorage storage $) {
        assembly ("memory-safe") {
            $.slot := STORAGE_SLOT
        }
    }

    /// @dev True only inside the proxy's constructor (the flag is transient, per address).
    function _isInitializing() internal view returns (bool flag) {
        assembly ("memory-safe") {
            flag := tload(INITIALIZING_SLOT)
        }
    }

    modifier onlyInitializing() {
        if (!_isInitializing()) revert NotInitializing();
        _;
    }

    function _installModule(uint256 moduleTypeId, address module, bytes memory initData) internal {
        if (module.code.length == 0) revert ModuleHasNoCode(module);
        AccountStorage storage $ = _accountStorage();
        if (moduleTypeId == MODULE_TYPE_VALIDATOR) {
            if (module == DEFAULT_VALIDATOR) revert DefaultValidatorAlreadyInstalled();
            $.validators.push(module);
        } else if (moduleTypeId == MODULE_TYPE_EXECUTOR) {
            $.executors.push(module);
        } else {
            revert UnsupportedModuleType(moduleTypeId);
        }
        IERC7579Module(module).onInstall(initData);
        emit ModuleInstalled(moduleTypeId, module);
    }

    function _uninstallModule(uint256 moduleTypeId, address module, bytes memory deInitData) internal {
        AccountStorage storage $ = _accountStorage();
        if (moduleTypeId == MODULE_TYPE_VALIDATOR) {
            $.validators.removeAnywhere(module);
        } else if (moduleTypeId == MODULE_TYPE_EXECUTOR) {
            $.executors.removeAnywhere(module);
        } else {
            revert UnsupportedModuleType(moduleTypeId);
        }
        // A module whose onUninstall reverts must still be removable, so its failure is ignored.
        try IERC7579Module(module).onUninstall(deInitData) {} catch {}
        emit ModuleUninstalled(moduleTypeId, module);
    }

    function _isValidatorInstalled(address module) internal view returns (bool) {
        return module == DEFAULT_VALIDATOR || _accountStorage().validators.contains(module);
    }

    function _isExecutorInstalled(address module) internal view returns (bool) {
        return _accountStorage().executors.contains(module);
    }
}
