// SPDX-License-Identifier: MIT
pragma solidity ^0.8.30;

import {IERC7579Module, MODULE_TYPE_EXECUTOR, MODULE_TYPE_FALLBACK, MODULE_TYPE_HOOK, MODULE_TYPE_VALIDATOR} from "./IERC7579.sol";
import {ModuleManager} from "./ModuleManager.sol";

/// @notice A module and the data its onInstall receives (the SDK's `BootstrapConfig`).
struct BootstrapConfig {
    address module;
    bytes initData;
}

/// @notice A pre-validation hook (the SDK always sends an empty list).
struct BootstrapPreValidationHookConfig {
    uint256 hookType;
    address module;
    bytes data;
}

/// @title NexusBootstrap
/// @notice The devnet's bootstrap at the SDK's Nexus bootstrap address. The account's
/// `initializeAccount(abi.encode(bootstrap, call))` delegatecalls one of these functions while the
/// proxy is being constructed; they install the modules the SDK asks for. Validators and
/// executors are supported; a non-zero hook, fallbacks or pre-validation hooks revert with
/// `UnsupportedModuleType` rather than being silently skipped.
/// @dev Runs only by delegatecall from an account under construction (`onlyInitializing`).
contract NexusBootstrap is ModuleManager {
    /// @notice Initialises the default validator (calls its onInstall with `defaultValidatorInitData`,
    /// e.g. `abi.encode(uint256 threshold, address[] owners)`), then installs the other modules.
    function initNexusWithDefaultValidatorAndOtherModulesNoRegistry(
        bytes calldata defaultValidatorInitData,
        BootstrapConfig[] calldata validators,
        BootstrapConfig[] calldata executors,
        BootstrapConfig calldata hook,
        BootstrapConfig[] calldata fallbacks,
        BootstrapPreValidationHookConfig[] calldata preValidationHooks
    ) external payable onlyInitializing {
        IERC7579Module(DEFAULT_VALIDATOR).onInstall(defaultValidatorInitData);
        _installAll(validators, executors, hook, fallbacks, preValidationHooks);
    }

    /// @notice Installs the given modules without touching the default validator.
    function initNexusNoRegistry(
        BootstrapConfig[] calldata validators,
        BootstrapConfig[] calldata executors,
        BootstrapConfig calldata hook,
        BootstrapConfig[] calldata fallbacks,
        BootstrapPreValidationHookConfig[] calldata preValidationHooks
    ) external payable onlyInitializing {
        _installAll(validators, executors, hook, fallbacks, preValidationHooks);
    }

    function _installAll(
        BootstrapConfig[] calldata validators,
        BootstrapConfig[] calldata executors,
        BootstrapConfig calldata hook,
        BootstrapConfig[] calldata fallbacks,
        BootstrapPreValidationHookConfig[] calldata preValidationHooks
    ) private {
        for (uint256 i; i < validators.length; i++) {
            _installModule(MODULE_TYPE_VALIDATOR, validators[i].module, validators[i].initData);
        }
        for (uint256 i; i < executors.length; i++) {
            _installModule(MODULE_TYPE_EXECUTOR, executors[i].module, executors[i].initData);
        }
        if (hook.module != address(0)) revert UnsupportedModuleType(MODULE_TYPE_HOOK);
        if (fallbacks.length != 0) revert UnsupportedModuleType(MODULE_TYPE_FALLBACK);
        if (preValidationHooks.length != 0) revert UnsupportedModuleType(preValidationHooks[0].hookType);
    }
}
