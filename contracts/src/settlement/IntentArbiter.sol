// SPDX-License-Identifier: MIT
pragma solidity ^0.8.27;

import {Mandate, MandateLib} from "./MandateLib.sol";
import {Op} from "../executor/ExecutorTypes.sol";
import {
    Component,
    BatchClaimComponent,
    BatchMultichainClaim,
    ExogenousBatchMultichainClaim
} from "../compact/CompactTypes.sol";
import {
    ICompactClaims,
    TokenPermissions,
    PermitBatchTransferFrom,
    SignatureTransferDetails,
    IPermit2WitnessTransfer
} from "./SettlementInterfaces.sol";

/// The slice of the IntentExecutor the arbiter calls.
interface IOriginOpsExecutor {
    function executeOriginOps(address sponsor, Op calldata originOps) external;
}

/// One origin element's claim against The Compact (the sponsor signed a `MultichainCompact`).
struct CompactClaimParams {
    address sponsor;
    uint256 nonce;
    uint256 expires;
    /// This element's `idsAndAmounts` (lock ids and amounts), all paid to the relayer.
    uint256[2][] idsAndAmounts;
    /// This element's Mandate (the witness).
    Mandate mandate;
    /// Index of this element in `intentOp.elements`; 0 is the notarized chain.
    uint256 elementIndex;
    /// `block.chainid` of `elements[0]` (only read for an exogenous claim).
    uint256 notarizedChainId;
    /// EIP-712 hashes of the other elements, in order, without this one.
    bytes32[] additionalChains;
    bytes sponsorSignature;
    bytes allocatorData;
}

/// One origin element's claim through Permit2 (the sponsor signed `PermitBatchWitnessTransferFrom`).
struct Permit2ClaimParams {
    address sponsor;
    /// The intent nonce: the Permit2 nonce.
    uint256 nonce;
    /// The intent's `expires`: the Permit2 deadline.
    uint256 expires;
    /// This element's `idsAndAmounts`; the token is the low 160 bits of each id.
    uint256[2][] idsAndAmounts;
    Mandate mandate;
    bytes signature;
}

/// @title IntentArbiter
/// @notice The origin side of an intent: after the relayer has filled on the destination, it calls
///         this arbiter to claim the sponsor's funds for that fill, from The Compact or through
///         Permit2, paid to the relayer.
/// @dev TRUST MODEL. The devnet has no cross-chain messaging: the relayer attests fills across
///      chains. This arbiter cannot see the destination chain, so it trusts the relayer's word
///      that the fill happened, and only the relayer may call it. The sponsor is protected by
///      its own signature (the claim pays exactly what it signed, for the Mandate it signed) and
///      by the allocator's authorization; a dishonest relayer could claim without filling, which
///      a production arbiter prevents with a fill proof. Each fill id is claimed at most once here.
///
///      Compact claims pay with claimant = `uint160(relayer)` (lock tag 0): the relayer receives
///      the underlying token, not an ERC-6909 balance.
///      PRE-CLAIM OPS. Before each claim the Mandate's `originOps` (the IntentOp's
///      `preClaimOps` for this chain) run from the sponsor through the IntentExecutor, in the same
///      transaction: the claim then verifies the sponsor's signature over that Mandate, so ops
///      the sponsor did not sign revert with it.
///      Placed with `anvil_setCode`: state is set once by `initialize(relayer)`.
contract IntentArbiter {
    address internal constant COMPACT = 0x00000000000000171ede64904551eeDF3C6C9788;
    address internal constant PERMIT2 = 0x000000000022D473030F116dDEE9F6B43aC78BA3;
    address internal constant EXECUTOR = 0x00000000005aD9ce1f5035FD62CA96CEf16AdAAF;

    address internal _relayer;
    mapping(bytes32 => bool) internal _claimed;

    event Claimed(
        bytes32 indexed fillId,
        address indexed sponsor,
        uint256 indexed nonce,
        address relayer,
        bool viaPermit2,
        bytes32 claimHash
    );
    event Initialized(address relayer);

    error AlreadyInitialized();
    error ZeroRelayer();
    error NotRelayer(address caller);
    error AlreadyClaimed(bytes32 fillId);
    /// The IntentExecutor reverted running the pre-claim ops; `reason` is its revert data.
    error PreClaimOpsFailed(bytes reason);

    modifier onlyRelayer() {
        if (msg.sender != _relayer || msg.sender == address(0)) revert NotRelayer(msg.sender);
        _;
    }

    /// @notice Sets the relayer, once.
    function initialize(address relayer_) external {
        if (_relayer != address(0)) revert AlreadyInitialized();
        if (relayer_ == address(0)) revert ZeroRelayer();
        _relayer = relayer_;
        emit Initialized(relayer_);
    }

    function relayer() external view returns (address) {
        return _relayer;
    }

    /// @notice Claims one element of a MultichainCompact for the relayer: `batchMultichainClaim`
    ///         on the notarized chain (element 0), `exogenousBatchClaim` on the others.
    /// @return claimHash What The Compact returns.
    function claimCompact(CompactClaimParams calldata p) external onlyRelayer returns (bytes32 claimHash) {
        bytes32 fillId = _markClaimed(p.sponsor, p.nonce, p.mandate);
        _runOriginOps(p.sponsor, p.mandate.originOps);
        BatchClaimComponent[] memory claims = new BatchClaimComponent[](p.idsAndAmounts.length);
        for (uint256 i = 0; i < claims.length; ++i) {
            Component[] memory portions = new Component[](1);
            portions[0] = Component(uint256(uint160(msg.sender)), p.idsAndAmounts[i][1]);
            claims[i] = BatchClaimComponent(p.idsAndAmounts[i][0], p.idsAndAmounts[i][1], portions);
        }
        bytes32 witness = MandateLib.hash(p.mandate);
        if (p.elementIndex == 0) {
            claimHash = ICompactClaims(COMPACT).batchMultichainClaim(
                BatchMultichainClaim({
                    allocatorData: p.allocatorData,
                    sponsorSignature: p.sponsorSignature,
                    sponsor: p.sponsor,
                    nonce: p.nonce,
                    expires: p.expires,
                    witness: witness,
                    witnessTypestring: MandateLib.COMPACT_WITNESS_TYPESTRING,
                    claims: claims,
                    additionalChains: p.additionalChains
                })
            );
        } else {
            claimHash = ICompactClaims(COMPACT).exogenousBatchClaim(
                ExogenousBatchMultichainClaim({
                    allocatorData: p.allocatorData,
                    sponsorSignature: p.sponsorSignature,
                    sponsor: p.sponsor,
                    nonce: p.nonce,
                    expires: p.expires,
                    witness: witness,
                    witnessTypestring: MandateLib.COMPACT_WITNESS_TYPESTRING,
                    claims: claims,
                    additionalChains: p.additionalChains,
                    chainIndex: p.elementIndex - 1,
                    notarizedChainId: p.notarizedChainId
                })
            );
        }
        emit Claimed(fillId, p.sponsor, p.nonce, msg.sender, false, claimHash);
    }

    /// @notice Claims one element funded through Permit2: `permitWitnessTransferFrom` with the
    ///         Mandate witness (spender = this arbiter), every amount paid to the relayer.
    function claimPermit2(Permit2ClaimParams calldata p) external onlyRelayer {
        bytes32 fillId = _markClaimed(p.sponsor, p.nonce, p.mandate);
        _runOriginOps(p.sponsor, p.mandate.originOps);
        uint256 n = p.idsAndAmounts.length;
        TokenPermissions[] memory permitted = new TokenPermissions[](n);
        SignatureTransferDetails[] memory details = new SignatureTransferDetails[](n);
        for (uint256 i = 0; i < n; ++i) {
            permitted[i] = TokenPermissions(address(uint160(p.idsAndAmounts[i][0])), p.idsAndAmounts[i][1]);
            details[i] = SignatureTransferDetails(msg.sender, p.idsAndAmounts[i][1]);
        }
        IPermit2WitnessTransfer(PERMIT2).permitWitnessTransferFrom(
            PermitBatchTransferFrom(permitted, p.nonce, p.expires),
            details,
            p.sponsor,
            MandateLib.hash(p.mandate),
            MandateLib.PERMIT2_WITNESS_TYPESTRING,
            p.signature
        );
        emit Claimed(fillId, p.sponsor, p.nonce, msg.sender, true, bytes32(0));
    }

    /// @notice Whether the fill id has been claimed through this arbiter.
    function isClaimed(bytes32 fillId) external view returns (bool) {
        return _claimed[fillId];
    }

    /// @notice The Mandate's EIP-712 struct hash (the witness), for off-chain cross-checks.
    function hashMandate(Mandate calldata mandate) external pure returns (bytes32) {
        return MandateLib.hash(mandate);
    }

    /// @notice The type string fragments this arbiter passes to The Compact and Permit2.
    function witnessTypestrings() external pure returns (string memory compact, string memory permit2) {
        return (MandateLib.COMPACT_WITNESS_TYPESTRING, MandateLib.PERMIT2_WITNESS_TYPESTRING);
    }

    /// The pre-claim ops, before the claim (which verifies the signature that covers them).
    function _runOriginOps(address sponsor, Op calldata originOps) internal {
        if (originOps.ops.length == 0) return;
        try IOriginOpsExecutor(EXECUTOR).executeOriginOps(sponsor, originOps) {}
        catch (bytes memory reason) {
            revert PreClaimOpsFailed(reason);
        }
    }

    function _markClaimed(address sponsor, uint256 nonce, Mandate calldata mandate) internal returns (bytes32 fillId) {
        fillId = MandateLib.fillId(sponsor, nonce, mandate.target);
        if (_claimed[fillId]) revert AlreadyClaimed(fillId);
        _claimed[fillId] = true;
    }
}
