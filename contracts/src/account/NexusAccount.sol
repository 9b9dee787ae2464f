// SPDX-License-Identifier: MIT
pragma solidity ^0.8.30;

import {Execution, IERC7579Validator, MODULE_TYPE_EXECUTOR, MODULE_TYPE_VALIDATOR} from "./IERC7579.sol";
import {ModuleManager} from "./ModuleManager.sol";
import {SentinelList} from "./SentinelList.sol";
import {ECDSA} from "../lib/ECDSA.sol";

/// @title NexusAccount
/// @notice A minimal ERC-7579 smart account, placed at the SDK's Nexus 1.2.0 implementation
/// address and reached through the SDK's own ERC-1967 proxy (deployed by NexusAccountFactory).
/// It executes single and batch calls (`execute` for the EntryPoint v0.7 or the account itself,
/// `executeFromExecutor` for installed executor modules), installs validator and executor
/// modules, and answers ERC-1271 by forwarding to the validator named in the signature's first
/// 20 bytes (zero = the default validator, the OwnableValidator).
/// @dev No constructor and no immutables: the code is placed with `anvil_setCode`. Not
/// supported (revert): delegatecall and static call types, fallback and hook modules,
/// ERC-4337 `validateUserOp` (the devnet has no bundler). EIP-7702: an EOA delegated to this
/// code is initialised by anyone holding the EOA's `Initialize` signature (as the SDK makes it).
contract NexusAccount is ModuleManager {
    using SentinelList for mapping(address => address);

    /// @notice ERC-4337 EntryPoint v0.7, the address the SDK's viem smart account uses.
    address internal constant ENTRY_POINT = 0x0000000071727De22E5E9d8BAf0edAc6f37da032;

    bytes1 internal constant CALLTYPE_SINGLE = 0x00;
    bytes1 internal constant CALLTYPE_BATCH = 0x01;
    bytes1 internal constant EXECTYPE_DEFAULT = 0x00;
    bytes1 internal constant EXECTYPE_TRY = 0x01;

    bytes4 internal constant ERC1271_MAGIC_VALUE = 0x1626ba7e;
    bytes4 internal constant ERC1271_INVALID = 0xffffffff;

    /// @notice A call in TRY mode failed; the batch went on (index within the batch, revert data).
    event TryExecuteUnsuccessful(uint256 batchExecutionIndex, bytes result);

    /// @notice The SDK's EIP-7702 init signature: `Initialize(address nexus,uint256[] chainIds,bytes initData)`
    /// under the domain `{name: 'Nexus', version: '1.2.0'}` (no chain id, no verifying contract).
    bytes32 internal constant INITIALIZE_TYPEHASH = keccak256("Initialize(address nexus,uint256[] chainIds,bytes initData)");
    bytes32 internal constant NEXUS_DOMAIN_SEPARATOR = keccak256(
        abi.encode(keccak256("EIP712Domain(string name,string version)"), keccak256("Nexus"), keccak256("1.2.0"))
    );

    error AccountAlreadyInitialized();
    error Invalid7702InitData();
    error Invalid7702InitSignature();
    error BootstrapHasNoCode(address bootstrap);
    error UnauthorizedCaller(address caller);
    error ExecutorNotInstalled(address caller);
    error UnsupportedCallType(bytes1 callType);
    error UnsupportedExecType(bytes1 execType);
    error InvalidSingleExecutionCalldata();

    modifier onlyEntryPointOrSelf() {
        if (msg.sender != ENTRY_POINT && msg.sender != address(this)) revert UnauthorizedCaller(msg.sender);
        _;
    }

    modifier onlyExecutorModule() {
        if (!_isExecutorInstalled(msg.sender)) revert ExecutorNotInstalled(msg.sender);
        _;
    }

    // ----------------------------------------------------------------------------------------
    // Initialisation
    // ----------------------------------------------------------------------------------------

    /// @notice Called once, by the proxy's constructor: `initData` is `abi.encode(address bootstrap,
    /// bytes bootstrapCall)`; the bootstrap is delegatecalled with `bootstrapCall`.
    ///
    /// For an EOA delegated here with EIP-7702 (no proxy constructor runs), anyone may call it with
    /// `initData` = the EOA's 65-byte `Initialize` signature ‖ chainIdIndex ‖ chainIds.length ‖
    /// chainIds ‖ the same `abi.encode(bootstrap, bootstrapCall)` (the SDK's `getEip7702InitCall`);
    /// `chainIds[chainIdIndex]` must be 0 (any chain) or this chain.
    function initializeAccount(bytes calldata initData) external payable {
        if (_isInitializing()) return _initialize(initData);
        address nexus = _delegate();
        if (nexus == address(0)) revert NotInitializing();
        if (initData.length < 129) revert Invalid7702InitData();
        uint256 index = uint256(bytes32(initData[65:97]));
        uint256 length = uint256(bytes32(initData[97:129]));
        uint256 end = 129 + length * 32;
        if (index >= length || initData.length < end) revert Invalid7702InitData();
        uint256[] memory chainIds = new uint256[](length);
        for (uint256 i = 0; i < length; ++i) {
            chainIds[i] = uint256(bytes32(initData[129 + i * 32:161 + i * 32]));
        }
        if (chainIds[index] != 0 && chainIds[index] != block.chainid) revert Invalid7702InitData();
        bytes calldata accountInit = initData[end:];
        bytes32 structHash = keccak256(
            abi.encode(INITIALIZE_TYPEHASH, nexus, keccak256(abi.encodePacked(chainIds)), keccak256(accountInit))
        );
        bytes32 digest = keccak256(abi.encodePacked(hex"1901", NEXUS_DOMAIN_SEPARATOR, structHash));
        if (ECDSA.recover(digest, initData[0:65]) != address(this)) revert Invalid7702InitSignature();
        // The bootstrap runs only while initialising (the proxy's constructor sets this flag).
        assembly ("memory-safe") {
            tstore(INITIALIZING_SLOT, 1)
        }
        _initialize(accountInit);
        assembly ("memory-safe") {
            tstore(INITIALIZING_SLOT, 0)
        }
    }

    /// The implementation an EIP-7702 delegated EOA points to (its code is 0xef0100 ‖ address), else zero.
    function _delegate() internal view returns (address) {
        bytes memory code = address(this).code;
        if (code.length != 23 || code[0] != 0xef || code[1] != 0x01 || code[2] != 0x00) return address(0);
        address delegate;
        assembly ("memory-safe") {
            delegate := shr(96, mload(add(code, 35)))
        }
        return delegate;
    }

    function _initialize(bytes calldata initData) internal {
        AccountStorage storage $ = _accountStorage();
        if ($.initialized) revert AccountAlreadyInitialized();
        $.initialized = true;
        (address bootstrap, bytes memory bootstrapCall) = abi.decode(initData, (address, bytes));
        // A delegatecall to an address without code succeeds and would leave the account bare.
        if (bootstrap.code.length == 0) revert BootstrapHasNoCode(bootstrap);
        (bool ok, bytes memory result) = bootstrap.delegatecall(bootstrapCall);
        if (!ok) _bubble(result);
    }

    // ----------------------------------------------------------------------------------------
    // Execution
    // ----------------------------------------------------------------------------------------

    /// @notice Runs `executionCalldata` in `mode` (ERC-7579). Only the EntryPoint or the account
    /// itself (for example a batch entry, or an executor's call to the account) may call it.
    function execute(bytes32 mode, bytes calldata executionCalldata) external payable onlyEntryPointOrSelf {
        _execute(mode, executionCalldata);
    }

    /// @notice Runs `executionCalldata` in `mode` for an installed executor module and returns
    /// each call's return data (empty for a failed call in TRY mode).
    function executeFromExecutor(bytes32 mode, bytes calldata executionCalldata)
        external
        payable
        onlyExecutorModule
        returns (bytes[] memory returnData)
    {
        return _execute(mode, executionCalldata);
    }

    function _execute(bytes32 mode, bytes calldata executionCalldata) internal returns (bytes[] memory results) {
        bytes1 callType = mode[0];
        bytes1 execType = mode[1];
        if (execType != EXECTYPE_DEFAULT && execType != EXECTYPE_TRY) revert UnsupportedExecType(execType);
        bool tryMode = execType == EXECTYPE_TRY;
        if (callType == CALLTYPE_SINGLE) {
            // abi.encodePacked(address target, uint256 value, bytes callData)
            if (executionCalldata.length < 52) revert InvalidSingleExecutionCalldata();
            results = new bytes[](1);
            results[0] = _call(
                0,
                address(bytes20(executionCalldata[0:20])),
                uint256(bytes32(executionCalldata[20:52])),
                executionCalldata[52:],
                tryMode
            );
        } else if (callType == CALLTYPE_BATCH) {
            Execution[] memory executions = abi.decode(executionCalldata, (Execution[]));
            results = new bytes[](executions.length);
            for (uint256 i; i < executions.length; i++) {
                results[i] = _call(i, executions[i].target, executions[i].value, executions[i].callData, tryMode);
            }
        } else {
            revert UnsupportedCallType(callType);
        }
    }

    function _call(uint256 index, address target, uint256 value, bytes memory data, bool tryMode)
        internal
        returns (bytes memory result)
    {
        bool ok;
        (ok, result) = target.call{value: value}(data);
        if (!ok) {
            if (!tryMode) _bubble(result);
            emit TryExecuteUnsuccessful(index, result);
        }
    }

    function _bubble(bytes memory revertData) internal pure {
        assembly ("memory-safe") {
            revert(add(revertData, 0x20), mload(revertData))
        }
    }

    /// @notice True for single and batch calls in default or try mode (the rest of the mode is ignored).
    function supportsExecutionMode(bytes32 mode) external pure returns (bool) {
        bytes1 callType = mode[0];
        bytes1 execType = mode[1];
        return (callType == CALLTYPE_SINGLE || callType == CALLTYPE_BATCH)
            && (execType == EXECTYPE_DEFAULT || execType == EXECTYPE_TRY);
    }

    // ----------------------------------------------------------------------------------------
    // Modules
    // ----------------------------------------------------------------------------------------

    /// @notice Installs a validator (type 1) or executor (type 2) and calls its onInstall.
    function installModule(uint256 moduleTypeId, address module, bytes calldata initData)
        external
        payable
        onlyEntryPointOrSelf
    {
        _installModule(moduleTypeId, module, initData);
    }

    /// @notice Removes a validator or executor and calls its onUninstall (its failure is ignored).
    function uninstallModule(uint256 moduleTypeId, address module, bytes calldata deInitData)
        external
        payable
        onlyEntryPointOrSelf
    {
        _uninstallModule(moduleTypeId, module, deInitData);
    }

    /// @notice Whether `module` is installed as `moduleTypeId`; the default validator always is.
    function isModuleInstalled(uint256 moduleTypeId, address module, bytes calldata)
        external
        view
        returns (bool)
    {
        if (moduleTypeId == MODULE_TYPE_VALIDATOR) return _isValidatorInstalled(module);
        if (moduleTypeId == MODULE_TYPE_EXECUTOR) return _isExecutorInstalled(module);
        return false;
    }

    function supportsModule(uint256 moduleTypeId) external pure returns (bool) {
        return moduleTypeId == MODULE_TYPE_VALIDATOR || moduleTypeId == MODULE_TYPE_EXECUTOR;
    }

    /// @notice Installed validators (without the default validator), from `cursor` (SENTINEL = start).
    function getValidatorsPaginated(address cursor, uint256 pageSize)
        external
        view
        returns (address[] memory array, address next)
    {
        return _accountStorage().validators.page(cursor, pageSize);
    }

    /// @notice Installed executors, from `cursor` (SENTINEL = start).
    function getExecutorsPaginated(address cursor, uint256 pageSize)
        external
        view
        returns (address[] memory array, address next)
    {
        return _accountStorage().executors.page(cursor, pageSize);
    }

    // ----------------------------------------------------------------------------------------
    // ERC-1271, identity
    // ----------------------------------------------------------------------------------------

    /// @notice ERC-1271: `signature` = validator address (20 bytes; zero for the default validator)
    /// ‖ the validator's signature data. Returns 0x1626ba7e when the validator accepts it, and
    /// 0xffffffff otherwise (including an uninstalled validator or a reverting one).
    function isValidSignature(bytes32 hash, bytes calldata signature) external view returns (bytes4) {
        if (signature.length < 20) return ERC1271_INVALID;
        address validator = address(bytes20(signature[0:20]));
        if (validator == address(0)) validator = DEFAULT_VALIDATOR;
        else if (!_accountStorage().validators.contains(validator)) return ERC1271_INVALID;
        if (validator.code.length == 0) return ERC1271_INVALID;
        try IERC7579Validator(validator).isValidSignatureWithSender(msg.sender, hash, signature[20:]) returns (
            bytes4 result
        ) {
            return result == ERC1271_MAGIC_VALUE ? ERC1271_MAGIC_VALUE : ERC1271_INVALID;
        } catch {
            return ERC1271_INVALID;
        }
    }

    /// @notice ERC-7579 account id: vendor.name.version.
    function accountId() external pure returns (string memory) {
        return "intent-devnet.nexus-compatible.1.2.0";
    }

    /// @notice The ERC-4337 EntryPoint this account trusts to call `execute` and `installModule`.
    function entryPoint() external pure returns (address) {
        return ENTRY_POINT;
    }
}
