// SPDX-License-Identifier: MIT
pragma solidity ^0.8.27;

import {SingleChainOps} from "../executor/ExecutorTypes.sol";
import {OriginAuthorization} from "../executor/OriginAuthorization.sol";
import {Token, Target, Mandate, MandateLib} from "./MandateLib.sol";
import {SafeTransferLib} from "../lib/SafeTransferLib.sol";

interface IIntentExecutor {
    function executeSingleChainOps(SingleChainOps calldata ops, bytes calldata signature)
        external
        returns (bytes32 digest);

    function executeMandateOps(
        address sponsor,
        uint256 nonce,
        Mandate calldata mandate,
        OriginAuthorization calldata auth,
        bytes calldata signature
    ) external returns (bytes32 digest);
}

/// Destination operations to run after delivery: the account's `SingleChainOps` and its signature,
/// through one of the two IntentExecutor addresses. `executor == address(0)` means none.
struct DestinationExecution {
    address executor;
    SingleChainOps ops;
    bytes signature;
}

/// Destination operations authorized by the sponsor's origin signature (what the public SDK 1.x
/// sends as its destination signature): the Mandate's `destOps` run through the IntentExecutor,
/// which rebuilds the origin digest from `authorization` and the Mandate and verifies `signature`.
struct MandateExecution {
    address executor;
    OriginAuthorization authorization;
    bytes signature;
}

/// @title IntentFiller
/// @notice The destination side of an intent: the relayer delivers the Mandate's `Target.tokenOut`
///         to `Target.recipient` from its own funds, optionally has the account run its destination
///         operations through the IntentExecutor, and the fill is recorded once under its fill id
///         `keccak256(abi.encode(sponsor, nonce, hashStruct(Target)))`.
/// @dev Trust model: in the devnet there is no cross-chain messaging. The `Filled` event and
///      `getFill` are what the relayer reads to attest, on each origin chain, that the fill
///      happened; the origin arbiter trusts the relayer's word. Filling is permissionless (the
///      filler pays); only the relayer can claim on the origin, so a third party's fill only costs it.
///      Placed with `anvil_setCode`: no constructor, no immutables, no state to initialize.
contract IntentFiller {
    address internal constant EXECUTOR = 0x00000000005aD9ce1f5035FD62CA96CEf16AdAAF;
    address internal constant EXECUTOR_DEV = 0xbF9b5b917a83f8adaC17B0752846D41D8D7b7E17;

    struct FillRecord {
        address relayer;
        uint64 timestamp;
        uint64 blockNumber;
    }

    mapping(bytes32 => FillRecord) internal _fills;

    /// Everything the origin claims need to tie back to this fill (with the IntentOp the relayer holds).
    event Filled(
        bytes32 indexed fillId,
        address indexed sponsor,
        uint256 indexed nonce,
        address relayer,
        address recipient,
        Token[] tokenOut,
        uint256 fillExpiry,
        bytes32 destinationOpsDigest
    );

    error FillExpired(uint256 fillExpiry, uint256 timestamp);
    error WrongTargetChain(uint256 targetChain, uint256 chainId);
    error AlreadyFilled(bytes32 fillId);
    error NativeValueMismatch(uint256 expected, uint256 received);
    error UnknownExecutor(address executor);
    error InsufficientGas(uint256 minGas, uint256 gasLeft);
    /// The IntentExecutor reverted; `reason` is its revert data (e.g. ExecutionFailed, InvalidSignature).
    error DestinationOpsFailed(bytes reason);

    /// @notice Delivers `target.tokenOut` from the caller to `target.recipient` (ERC-20s by
    ///         `transferFrom` with a prior approval to this contract; the zero address as token
    ///         means native value, sent with the call), then runs `destination` if any.
    /// @param minGas The Mandate's `minGas`: gas that must remain when the destination ops start.
    /// @return fillId `keccak256(abi.encode(sponsor, nonce, hashStruct(target)))`.
    function fill(
        address sponsor,
        uint256 nonce,
        Target calldata target,
        uint128 minGas,
        DestinationExecution calldata destination
    ) external payable returns (bytes32 fillId) {
        fillId = _deliver(sponsor, nonce, target, target.recipient);
        bytes32 digest;
        if (destination.executor != address(0)) {
            _checkExecutor(destination.executor, minGas);
            // A failing op (or a bad signature, or a used nonce) reverts the whole fill.
            try IIntentExecutor(destination.executor).executeSingleChainOps(destination.ops, destination.signature)
            returns (bytes32 d) {
                digest = d;
            } catch (bytes memory reason) {
                revert DestinationOpsFailed(reason);
            }
        }
        emit Filled(fillId, sponsor, nonce, msg.sender, target.recipient, target.tokenOut, target.fillExpiry, digest);
    }

    /// @notice Delivers `mandate.target` as `fill` does, then has the IntentExecutor run
    ///         `mandate.destOps` from `sponsor` on the strength of the sponsor's origin signature
    ///         over that Mandate (`destination.authorization` says which typed data it signed).
    ///         With no destination ops, nothing is verified here (the origin claims verify it).
    /// @return fillId As `fill`: the Target is `mandate.target`.
    function fillMandate(address sponsor, uint256 nonce, Mandate calldata mandate, MandateExecution calldata destination)
        external
        payable
        returns (bytes32 fillId)
    {
        Target calldata target = mandate.target;
        bool withOps = mandate.destOps.ops.length > 0;
        // A sponsor without code cannot run calls: the executor makes them with the tokens.
        address to = withOps && sponsor.code.length == 0 ? destination.executor : target.recipient;
        if (withOps) _checkExecutor(destination.executor, mandate.minGas);
        fillId = _deliver(sponsor, nonce, target, to);
        bytes32 digest;
        if (withOps) {
            try IIntentExecutor(destination.executor).executeMandateOps(
                sponsor, nonce, mandate, destination.authorization, destination.signature
            ) returns (bytes32 d) {
                digest = d;
            } catch (bytes memory reason) {
                revert DestinationOpsFailed(reason);
            }
        }
        emit Filled(fillId, sponsor, nonce, msg.sender, target.recipient, target.tokenOut, target.fillExpiry, digest);
    }

    /// Checks and records the fill, then delivers its tokens to `to` (the recipient, or the executor
    /// that makes a codeless sponsor's calls). The record comes before any external call: a token
    /// or an op calling back cannot fill twice.
    function _deliver(address sponsor, uint256 nonce, Target calldata target, address to)
        internal
        returns (bytes32 fillId)
    {
        if (block.timestamp > target.fillExpiry) revert FillExpired(target.fillExpiry, block.timestamp);
        if (target.targetChain != block.chainid) revert WrongTargetChain(target.targetChain, block.chainid);
        fillId = MandateLib.fillId(sponsor, nonce, target);
        if (_fills[fillId].relayer != address(0)) revert AlreadyFilled(fillId);
        _fills[fillId] = FillRecord(msg.sender, uint64(block.timestamp), uint64(block.number));

        uint256 native;
        for (uint256 i = 0; i < target.tokenOut.length; ++i) {
            Token calldata t = target.tokenOut[i];
            if (t.token == address(0)) native += t.amount;
            else SafeTransferLib.safeTransferFrom(t.token, msg.sender, to, t.amount);
        }
        if (native != msg.value) revert NativeValueMismatch(native, msg.value);
        if (native > 0) SafeTransferLib.safeTransferETH(to, native);
    }

    function _checkExecutor(address executor, uint128 minGas) internal view {
        if (executor != EXECUTOR && executor != EXECUTOR_DEV) revert UnknownExecutor(executor);
        if (gasleft() < minGas) revert InsufficientGas(minGas, gasleft());
    }

    /// @notice The fill id of an intent's Target, as `fill` computes it.
    function getFillId(address sponsor, uint256 nonce, Target calldata target) external pure returns (bytes32) {
        return MandateLib.fillId(sponsor, nonce, target);
    }

    /// @notice Who filled `fillId`, and when (all zero if not filled).
    function getFill(bytes32 fillId) external view returns (address relayer, uint64 timestamp, uint64 blockNumber) {
        FillRecord memory r = _fills[fillId];
        return (r.relayer, r.timestamp, r.blockNumber);
    }

    function isFilled(bytes32 fillId) external view returns (bool) {
        return _fills[fillId].relayer != address(0);
    }
}
