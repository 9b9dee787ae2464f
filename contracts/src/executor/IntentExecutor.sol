// SPDX-License-Identifier: MIT
pragma solidity ^0.8.27;

import {Ops, Op, GasRefund, SingleChainOps, ExecutorTypesLib} from "./ExecutorTypes.sol";
import {OriginAuthorization, OriginAuthorizationLib} from "./OriginAuthorization.sol";
import {Mandate, Token} from "../settlement/MandateLib.sol";
import {SafeTransferLib} from "../lib/SafeTransferLib.sol";

interface IERC20Balance {
    function balanceOf(address owner) external view returns (uint256);
}

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
///
///      A second entry point, `executeMandateOps`, runs a Mandate's `destOps` on the strength of
///      the sponsor's ORIGIN signature (MultichainCompact or Permit2 batch witness, whose Mandate
///      witness commits to `destOps`): what the public SDK 1.x sends as its destination signature.
///      Only the IntentFiller may call it, in the same transaction that delivers the Mandate's
///      Target, so the ops never run before (or without) the tokens they were signed to follow.
///      A sponsor without code (a plain EOA) cannot be called back: the filler then delivers the
///      Target's tokens to this contract, which makes the calls itself and sends whatever of those
///      tokens is left to the recipient (a multicall handler; it holds nothing between fills).
contract IntentExecutor {
    /// ERC-7579 mode: call type batch (0x01), exec type default (0x00), no selector or payload.
    bytes32 internal constant BATCH_MODE = bytes32(uint256(0x01) << 248);
    bytes32 internal constant DOMAIN_TYPEHASH =
        keccak256("EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)");
    bytes32 internal constant NAME_HASH = keccak256("IntentExecutor");
    bytes32 internal constant VERSION_HASH = keccak256("v0.0.1");
    uint256 internal constant MODULE_TYPE_EXECUTOR = 2;
    /// The IntentFiller (docs/settlement.md): the only caller of `executeMandateOps`.
    address internal constant FILLER = 0x00000000000000000000000000000000F111E400;
    /// The IntentArbiter (docs/settlement.md): the only caller of `executeOriginOps`.
    address internal constant ARBITER = 0x00000000000000000000000000000000a4b17E40;
    /// secp256k1n / 2: larger `s` values are malleable and refused.
    uint256 internal constant HALF_N = 0x7FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF5D576E7357A4501DDFE92F46681B20A0;

    /// account => nonce => consumed.
    mapping(address => mapping(uint256 => bool)) internal _nonceUsed;
    /// ERC-7579 accounts that installed this executor.
    mapping(address => bool) internal _installed;

    event OpsExecuted(
        address indexed account, uint256 indexed nonce, bytes32 digest, uint256 opCount, GasRefund gasRefund
    );
    event MandateOpsExecuted(address indexed account, uint256 indexed nonce, bytes32 digest, uint256 opCount);
    event OriginOpsExecuted(address indexed account, uint256 opCount);
    event ModuleInstalled(address indexed account);
    event ModuleUninstalled(address indexed account);

    error NonceAlreadyUsed(address account, uint256 nonce);
    error InvalidSignature(address account);
    error AccountHasNoCode(address account);
    error ExecutionFailed(address account, bytes reason);
    error NotFiller(address caller);
    error NotArbiter(address caller);
    error WrongTargetChain(uint256 targetChain, uint256 chainId);

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
        _execute(account, ops.op.ops);
        emit OpsExecuted(account, ops.nonce, digest, count, ops.gasRefund);
    }

    /// @notice Runs `mandate.destOps` from `sponsor` after verifying `signature`, the sponsor's
    ///         origin signature over the typed data `auth` describes with `mandate` as its witness
    ///         (ECDSA for an account without code or a 7702-delegated EOA, else ERC-1271). Consumes
    ///         the nonce `nonce` of `sponsor` (the same space as `executeSingleChainOps`, so an
    ///         intent's ops run once whichever signature authorizes them). Only the IntentFiller.
    /// @return digest The origin digest that was verified.
    function executeMandateOps(
        address sponsor,
        uint256 nonce,
        Mandate calldata mandate,
        OriginAuthorization calldata auth,
        bytes calldata signature
    ) external returns (bytes32 digest) {
        if (msg.sender != FILLER) revert NotFiller(msg.sender);
        if (mandate.target.targetChain != block.chainid) {
            revert WrongTargetChain(mandate.target.targetChain, block.chainid);
        }
        if (_nonceUsed[sponsor][nonce]) revert NonceAlreadyUsed(sponsor, nonce);
        _nonceUsed[sponsor][nonce] = true;
        bytes32 second;
        (digest, second) = OriginAuthorizationLib.digests(sponsor, nonce, mandate, auth);
        if (!_isValidSignature(sponsor, digest, signature)) {
            if (second == bytes32(0) || !_isValidSignature(sponsor, second, signature)) revert InvalidSignature(sponsor);
            digest = second;
        }
        if (sponsor.code.length == 0) _executeAsHandler(mandate);
        else _execute(sponsor, mandate.destOps.ops);
        emit MandateOpsExecuted(sponsor, nonce, digest, mandate.destOps.ops.length);
    }

    /// @notice Runs a Mandate's `originOps` (the IntentOp's `preClaimOps`) from `sponsor` on an
    ///         origin chain, before its claim. Only the IntentArbiter, in the transaction of the
    ///         claim that verifies the sponsor's signature over that Mandate (which commits to
    ///         these ops): a claim that does not verify reverts the ops with it. No nonce is
    ///         consumed (the claim's own nonce stops a replay). A sponsor with code runs them
    ///         through `executeFromExecutor`; for one without code (a plain EOA) this contract
    ///         makes the calls itself (`msg.sender` is the executor; it holds no value for them).
    function executeOriginOps(address sponsor, Op calldata originOps) external {
        if (msg.sender != ARBITER) revert NotArbiter(msg.sender);
        Ops[] calldata ops = originOps.ops;
        if (sponsor.code.length == 0) {
            for (uint256 i = 0; i < ops.length; ++i) {
                (bool ok, bytes memory ret) = ops[i].to.call{value: ops[i].value}(ops[i].data);
                if (!ok) revert ExecutionFailed(ops[i].to, ret);
            }
        } else {
            _execute(sponsor, ops);
        }
        emit OriginOpsExecuted(sponsor, ops.length);
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

    /// Accepts the native value a fill for a sponsor without code delivers here.
    receive() external payable {}

    // ---- internals ----

    /// The calls of a sponsor without code, made by this contract with the tokens the fill
    /// delivered here; what is left of them goes to the recipient.
    function _executeAsHandler(Mandate calldata mandate) internal {
        Ops[] calldata ops = mandate.destOps.ops;
        for (uint256 i = 0; i < ops.length; ++i) {
            (bool ok, bytes memory ret) = ops[i].to.call{value: ops[i].value}(ops[i].data);
            if (!ok) revert ExecutionFailed(ops[i].to, ret);
        }
        Token[] calldata tokens = mandate.target.tokenOut;
        address recipient = mandate.target.recipient;
        for (uint256 i = 0; i < tokens.length; ++i) {
            address token = tokens[i].token;
            if (token == address(0)) {
                if (address(this).balance > 0) SafeTransferLib.safeTransferETH(recipient, address(this).balance);
            } else {
                uint256 left = IERC20Balance(token).balanceOf(address(this));
                if (left > 0) SafeTransferLib.safeTransfer(token, recipient, left);
            }
        }
    }

    /// Has `account` run `ops` as one ERC-7579 batch (nothing for an empty list).
    function _execute(address account, Ops[] calldata ops) internal {
        if (ops.length == 0) return;
        if (account.code.length == 0) revert AccountHasNoCode(account);
        (bool ok, bytes memory ret) =
            account.call(abi.encodeCall(IERC7579Execution.executeFromExecutor, (BATCH_MODE, abi.encode(ops))));
        if (!ok) revert ExecutionFailed(account, ret);
    }

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
