// SPDX-License-Identifier: MIT
pragma solidity ^0.8.27;

import {Ops, Op, GasRefund, SingleChainOps, ExecutorTypesLib} from "./ExecutorTypes.sol";

/// The slice of an ERC-7579 account the executor calls.
interface IERC7579Execution {
    function executeFromExecutor(bytes32 mode, bytes calldata executionCalldata)
        external
        payable
        returns (bytes[] memory returnData);
}

interface IERC1271 {
    function isValidSignature(bytes32 hash, bytes calldata signature) external view returns (bytes4);
}

/// @title IntentExecutor
/// @notice Runs a batch of calls from an account that signed them as EIP-712 `SingleChainOps`
///         (domain name 'IntentExecutor', version 'v0.0.1', chainId, this address).
/// @dev Placed with `anvil_setCode` at 0x00000000005aD9ce1f5035FD62CA96CEf16AdAAF and at the dev
///      address 0xbf9b5b917a83f8adac17b0752846d41d8d7b7e17: no constructor, no immutables, the
///      domain separator is computed from address(this) and block.chainid at call time.
///
///      The account must accept `executeFromExecutor` from this contract: a smart account installs
///      it as an ERC-7579 executor module (module type 2; `onInstall` below), an EOA delegates with
///      EIP-7702 to code that does. An account without code can only sign an empty batch (which
///      just consumes its nonce).
///
///      Signatures: an account without code signs with ECDSA (65 bytes). An account with an
///      EIP-7702 delegation may sign with its own key (ECDSA) or through its delegate's ERC-1271.
///      Any other contract answers ERC-1271 `isValidSignature(digest, signature)`; the signature
///      is passed through untouched (an ERC-7579 account's starts with its 20-byte validator).
///
///      `gasRefund` is bound by the signature and emitted; the devnet charges no refund.
contract IntentExecutor {
    /// ERC-7579 mode: call type batch (0x01), exec type default (0x00), no selector or payload.
    bytes32 internal constant BATCH_MODE = bytes32(uint256(0x01) << 248);
    bytes32 internal constant DOMAIN_TYPEHASH =
        keccak256("EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)");
    bytes32 internal constant NAME_HASH = keccak256("IntentExecutor");
    bytes32 internal constant VERSION_HASH = keccak256("v0.0.1");
    uint256 internal constant MODULE_TYPE_EXECUTOR = 2;
    /// secp256k1n / 2: larger `s` values are malleable and refused.
    uint256 internal constant HALF_N = 0x7FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF5D576E7357A4501DDFE92F46681B20A0;

    /// account => nonce => consumed.
    mapping(address => mapping(uint256 => bool)) internal _nonceUsed;
    /// ERC-7579 accounts that installed this executor.
    mapping(address => bool) internal _installed;

    event OpsExecuted(
        address indexed account, uint256 indexed nonce, bytes32 digest, uint256 opCount, GasRefund gasRefund
    );
    event ModuleInstalled(address indexed account);
    event ModuleUninstalled(address indexed account);

    error NonceAlreadyUsed(address account, uint256 nonce);
    error InvalidSignature(address account);
    error AccountHasNoCode(address account);
    error ExecutionFailed(address account, bytes reason);

    /// @notice Verifies `signature` over `ops` from `ops.account`, consumes the nonce and has the
    ///         account run `ops.op.ops` as one ERC-7579 batch. Anyone may submit.
    /// @return digest The EIP-712 digest that was signed.
    function executeSingleChainOps(SingleChainOps calldata ops, bytes calldata signature)
        external
        returns (bytes32 digest)
    {
        address account = ops.account;
        // Consume first: a reentrant call (through ERC-1271 or the ops) with the same nonce fails.
        if (_nonceUsed[account][ops.nonce]) revert NonceAlreadyUsed(account, ops.nonce);
        _nonceUsed[account][ops.nonce] = true;

        digest = _hashTypedData(ExecutorTypesLib.hashSingleChainOps(ops));
        if (!_isValidSignature(account, digest, signature)) revert InvalidSignature(account);

        uint256 count = ops.op.ops.length;
        if (count > 0) {
            if (account.code.length == 0) revert AccountHasNoCode(account);
            (bool ok, bytes memory ret) = account.call(
                abi.encodeCall(IERC7579Execution.executeFromExecutor, (BATCH_MODE, abi.encode(ops.op.ops)))
            );
            if (!ok) revert ExecutionFailed(account, ret);
        }
        emit OpsExecuted(account, ops.nonce, digest, count, ops.gasRefund);
    }

    /// @notice The EIP-712 digest an account signs for `ops` on this chain and at this address.
    function getSingleChainOpsDigest(SingleChainOps calldata ops) external view returns (bytes32) {
        return _hashTypedData(ExecutorTypesLib.hashSingleChainOps(ops));
    }

    /// @notice Whether `nonce` of `account` has been consumed.
    function isNonceUsed(address account, uint256 nonce) external view returns (bool) {
        return _nonceUsed[account][nonce];
    }

    function DOMAIN_SEPARATOR() public view returns (bytes32) {
        return keccak256(abi.encode(DOMAIN_TYPEHASH, NAME_HASH, VERSION_HASH, block.chainid, address(this)));
    }

    /// @notice ERC-5267.
    function eip712Domain()
        external
        view
        returns (
            bytes1 fields,
            string memory name,
            string memory version,
            uint256 chainId,
            address verifyingContract,
            bytes32 salt,
            uint256[] memory extensions
        )
    {
        return (hex"0f", "IntentExecutor", "v0.0.1", block.chainid, address(this), bytes32(0), new uint256[](0));
    }

    // ---- ERC-7579 module interface (executor, type 2) ----

    function onInstall(bytes calldata) external {
        _installed[msg.sender] = true;
        emit ModuleInstalled(msg.sender);
    }

    function onUninstall(bytes calldata) external {
        _installed[msg.sender] = false;
        emit ModuleUninstalled(msg.sender);
    }

    function isModuleType(uint256 moduleTypeId) external pure returns (bool) {
        return moduleTypeId == MODULE_TYPE_EXECUTOR;
    }

    function isInitialized(address smartAccount) external view returns (bool) {
        return _installed[smartAccount];
    }

    // ---- internals ----

    function _hashTypedData(bytes32 structHash) internal view returns (bytes32) {
        return keccak256(abi.encodePacked(hex"1901", DOMAIN_SEPARATOR(), structHash));
    }

    function _isValidSignature(address account, bytes32 digest, bytes calldata signature)
        internal
        view
        returns (bool)
    {
        bytes memory code = account.code;
        if (code.length == 0) return _recover(digest, signature) == account;
        // An EIP-7702 delegated EOA (code 0xef0100 ‖ delegate) still owns its key.
        if (code.length == 23 && code[0] == 0xef && code[1] == 0x01 && code[2] == 0x00) {
            if (signature.length == 65 && _recover(digest, signature) == account) return true;
        }
        (bool ok, bytes memory ret) =
            account.staticcall(abi.encodeCall(IERC1271.isValidSignature, (digest, signature)));
        return ok && ret.length >= 32 && abi.decode(ret, (bytes4)) == IERC1271.isValidSignature.selector;
    }

    /// ECDSA recovery of a 65-byte (r, s, v) signature; address(0) when malformed.
    function _recover(bytes32 digest, bytes calldata signature) internal pure returns (address) {
        if (signature.length != 65) return address(0);
        bytes32 r = bytes32(signature[0:32]);
        bytes32 s = bytes32(signature[32:64]);
        uint8 v = uint8(signature[64]);
        if (v < 27) v += 27;
        if (uint256(s) > HALF_N) return address(0);
        return ecrecover(digest, v, r, s);
    }
}
