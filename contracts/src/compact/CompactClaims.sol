// SPDX-License-Identifier: MIT
pragma solidity ^0.8.30;

import {ECDSA} from "../lib/ECDSA.sol";
import {EIP712} from "../lib/EIP712.sol";
import {IERC1271} from "../lib/SignatureChecker.sol";
import {CompactHashLib} from "./CompactHashLib.sol";
import {CompactLedger} from "./CompactLedger.sol";
import {
    BatchClaim,
    BatchClaimComponent,
    BatchMultichainClaim,
    Claim as ClaimPayload,
    Component,
    ExogenousBatchMultichainClaim,
    ExogenousMultichainClaim,
    MultichainClaim
} from "./CompactTypes.sol";
import {IEmissary} from "./IEmissary.sol";

/// @dev v1's claim event (its name is also v1's `Claim` struct, imported here as ClaimPayload).
interface ITheCompactEvents {
    event Claim(
        address indexed sponsor, address indexed allocator, address indexed arbiter, bytes32 claimHash, uint256 nonce
    );
}

/// @title CompactClaims
/// @notice The claims an arbiter (msg.sender) makes (one of the parts TheCompact.sol is split
/// into): `claim`, `batchClaim`, `multichainClaim`, `exogenousClaim`, `batchMultichainClaim`,
/// `exogenousBatchClaim`. Each builds its claim hash with CompactHashLib, then shares one path:
/// expiry, sponsor authorization (a registration, else the sponsor's ECDSA or ERC-1271 signature
/// under this domain, then under the legacy domain, else the sponsor's emissary for the claim's
/// lock tag), the nonce, the allocator's `authorizeClaim`, v1's `Claim` event, and the payout of
/// each claimant (CompactLedger's `_distribute`).
abstract contract CompactClaims is CompactLedger {
    error InvalidSignature();
    error AllocatedAmountExceeded(uint256 allocatedAmount, uint256 claimedAmount);

    /// @dev The parts of a claim every claim function shares, so the core logic has one home.
    struct ClaimContext {
        address sponsor;
        uint256 nonce;
        uint256 expires;
        bytes32 claimHash;
        bytes32 typehash;
        uint256 domainChainId;
    }

    // ================================================================ claims (msg.sender = arbiter)

    function claim(ClaimPayload calldata c) external nonReentrant returns (bytes32 claimHash) {
        bytes32 typehash = CompactHashLib.witnessTypehash(
            CompactHashLib.COMPACT_TYPEHASH, CompactHashLib.COMPACT_WITNESS_PREFIX, c.witnessTypestring
        );
        claimHash = keccak256(CompactHashLib.compactEncoding(typehash, c, msg.sender));
        ClaimContext memory ctx = ClaimContext(c.sponsor, c.nonce, c.expires, claimHash, typehash, block.chainid);
        _processSingle(ctx, c.allocatorData, c.sponsorSignature, c.id, c.allocatedAmount, c.claimants, false);
    }

    function batchClaim(BatchClaim calldata c) external nonReentrant returns (bytes32 claimHash) {
        bytes32 typehash = CompactHashLib.witnessTypehash(
            CompactHashLib.BATCH_COMPACT_TYPEHASH, CompactHashLib.BATCH_WITNESS_PREFIX, c.witnessTypestring
        );
        bytes memory enc = abi.encode(
            typehash, msg.sender, c.sponsor, c.nonce, c.expires, CompactHashLib.commitmentsHash(c.claims, false)
        );
        if (bytes(c.witnessTypestring).length != 0) enc = abi.encodePacked(enc, c.witness);
        claimHash = keccak256(enc);
        ClaimContext memory ctx = ClaimContext(c.sponsor, c.nonce, c.expires, claimHash, typehash, block.chainid);
        _processBatch(ctx, c.allocatorData, c.sponsorSignature, c.claims);
    }

    function multichainClaim(MultichainClaim calldata c) external nonReentrant returns (bytes32 claimHash) {
        bytes32 element = CompactHashLib.elementHash(
            c.witnessTypestring, c.witness, CompactHashLib.singleCommitment(c.id, c.allocatedAmount), msg.sender
        );
        (claimHash,) = CompactHashLib.multichainHash(
            c.witnessTypestring, c.sponsor, c.nonce, c.expires, element, c.additionalChains, type(uint256).max
        );
        ClaimContext memory ctx = ClaimContext(
            c.sponsor, c.nonce, c.expires, claimHash, CompactHashLib.multichainTypehash(c.witnessTypestring), block.chainid
        );
        _processSingle(ctx, c.allocatorData, c.sponsorSignature, c.id, c.allocatedAmount, c.claimants, true);
    }

    function exogenousClaim(ExogenousMultichainClaim calldata c) external nonReentrant returns (bytes32 claimHash) {
        bytes32 element = CompactHashLib.elementHash(
            c.witnessTypestring, c.witness, CompactHashLib.singleCommitment(c.id, c.allocatedAmount), msg.sender
        );
        (claimHash,) = CompactHashLib.multichainHash(
            c.witnessTypestring, c.sponsor, c.nonce, c.expires, element, c.additionalChains, c.chainIndex
        );
        ClaimContext memory ctx = ClaimContext(
            c.sponsor,
            c.nonce,
            c.expires,
            claimHash,
            CompactHashLib.multichainTypehash(c.witnessTypestring),
            c.notarizedChainId
        );
        _processSingle(ctx, c.allocatorData, c.sponsorSignature, c.id, c.allocatedAmount, c.claimants, true);
    }

    function batchMultichainClaim(BatchMultichainClaim calldata c) external nonReentrant returns (bytes32 claimHash) {
        bytes32 element = CompactHashLib.elementHash(
            c.witnessTypestring, c.witness, CompactHashLib.commitmentsHash(c.claims, true), msg.sender
        );
        (claimHash,) = CompactHashLib.multichainHash(
            c.witnessTypestring, c.sponsor, c.nonce, c.expires, element, c.additionalChains, type(uint256).max
        );
        ClaimContext memory ctx = ClaimContext(
            c.sponsor, c.nonce, c.expires, claimHash, CompactHashLib.multichainTypehash(c.witnessTypestring), block.chainid
        );
        _processBatch(ctx, c.allocatorData, c.sponsorSignature, c.claims);
    }

    function exogenousBatchClaim(ExogenousBatchMultichainClaim calldata c)
        external
        nonReentrant
        returns (bytes32 claimHash)
    {
        bytes32 element = CompactHashLib.elementHash(
            c.witnessTypestring, c.witness, CompactHashLib.commitmentsHash(c.claims, true), msg.sender
        );
        (claimHash,) = CompactHashLib.multichainHash(
            c.witnessTypestring, c.sponsor, c.nonce, c.expires, element, c.additionalChains, c.chainIndex
        );
        ClaimContext memory ctx = ClaimContext(
            c.sponsor,
            c.nonce,
            c.expires,
            claimHash,
            CompactHashLib.multichainTypehash(c.witnessTypestring),
            c.notarizedChainId
        );
        _processBatch(ctx, c.allocatorData, c.sponsorSignature, c.claims);
    }

    // ================================================================ internals

    function _processSingle(
        ClaimContext memory ctx,
        bytes calldata allocatorData,
        bytes calldata sponsorSignature,
        uint256 id,
        uint256 allocatedAmount,
        Component[] calldata claimants,
        bool multichain
    ) internal {
        if (multichain && (id >> 255) != 0) revert CompactHashLib.InvalidScope(id);
        uint256 total = _sum(claimants);
        if (total > allocatedAmount) revert AllocatedAmountExceeded(allocatedAmount, total);
        uint256[2][] memory idsAndAmounts = new uint256[2][](1);
        idsAndAmounts[0] = [id, allocatedAmount];
        _verifyAndAuthorize(ctx, _allocatorOf(id), idsAndAmounts, allocatorData, sponsorSignature);
        _distribute(ctx.sponsor, id, claimants);
    }

    function _processBatch(
        ClaimContext memory ctx,
        bytes calldata allocatorData,
        bytes calldata sponsorSignature,
        BatchClaimComponent[] calldata claims
    ) internal {
        uint256 n = claims.length;
        if (n == 0) revert NoIds();
        address allocator = _allocatorOf(claims[0].id);
        uint256[2][] memory idsAndAmounts = new uint256[2][](n);
        for (uint256 i; i < n; ++i) {
            BatchClaimComponent calldata c = claims[i];
            if (_allocatorOf(c.id) != allocator) revert InconsistentAllocators();
            uint256 total = _sum(c.portions);
            if (total > c.allocatedAmount) revert AllocatedAmountExceeded(c.allocatedAmount, total);
            idsAndAmounts[i] = [c.id, c.allocatedAmount];
        }
        _verifyAndAuthorize(ctx, allocator, idsAndAmounts, allocatorData, sponsorSignature);
        for (uint256 i; i < n; ++i) {
            _distribute(ctx.sponsor, claims[i].id, claims[i].portions);
        }
    }

    /// @dev Expiry, sponsor authorization (registration or signature), nonce (consumed before the
    /// allocator is called, so it can never be used twice) and the allocator's authorization.
    function _verifyAndAuthorize(
        ClaimContext memory ctx,
        address allocator,
        uint256[2][] memory idsAndAmounts,
        bytes calldata allocatorData,
        bytes calldata sponsorSignature
    ) internal {
        if (ctx.expires <= block.timestamp) revert Expired(ctx.expires);
        if (!_registered[ctx.sponsor][ctx.claimHash][ctx.typehash]) {
            bytes32 digest = EIP712.digest(CompactHashLib.domainSeparator(ctx.domainChainId), ctx.claimHash);
            if (!_isValidSignature(ctx.sponsor, digest, sponsorSignature)) {
                // Devnet compatibility: the public SDK 1.x signs compacts for the older Compact
                // address; accept the same claim signed under that domain (see contracts/README.md).
                bytes32 legacy = EIP712.digest(CompactHashLib.legacyDomainSeparator(ctx.domainChainId), ctx.claimHash);
                if (
                    !_isValidSignature(ctx.sponsor, legacy, sponsorSignature)
                        && !_isVerifiedByEmissary(ctx, idsAndAmounts, digest, legacy, sponsorSignature)
                ) revert InvalidSignature();
            }
        }
        _authorize(allocator, ctx.claimHash, ctx.sponsor, ctx.nonce, ctx.expires, idsAndAmounts, allocatorData);
        emit ITheCompactEvents.Claim(ctx.sponsor, allocator, msg.sender, ctx.claimHash, ctx.nonce);
    }

    /// @dev The sponsor's emissary of the claim's locks vouches for the signature over `digest` (or,
    /// as for direct signatures, the legacy-domain digest). Every lock must have the same emissary;
    /// it is asked about the first lock's tag. A reverting or silent emissary means no.
    function _isVerifiedByEmissary(
        ClaimContext memory ctx,
        uint256[2][] memory idsAndAmounts,
        bytes32 digest,
        bytes32 legacy,
        bytes calldata signature
    ) internal view returns (bool) {
        bytes12 lockTag = bytes12(bytes32(idsAndAmounts[0][0]));
        address emissary = _emissaries[ctx.sponsor][lockTag];
        if (emissary == address(0)) return false;
        for (uint256 i = 1; i < idsAndAmounts.length; ++i) {
            if (_emissaries[ctx.sponsor][bytes12(bytes32(idsAndAmounts[i][0]))] != emissary) return false;
        }
        return _askEmissary(emissary, ctx.sponsor, digest, ctx.claimHash, signature, lockTag)
            || _askEmissary(emissary, ctx.sponsor, legacy, ctx.claimHash, signature, lockTag);
    }

    function _askEmissary(
        address emissary,
        address sponsor,
        bytes32 digest,
        bytes32 claimHash,
        bytes calldata signature,
        bytes12 lockTag
    ) internal view returns (bool) {
        if (emissary.code.length == 0) return false;
        (bool ok, bytes memory out) = emissary.staticcall(
            abi.encodeCall(IEmissary.verifyClaim, (sponsor, digest, claimHash, signature, lockTag))
        );
        return ok && out.length >= 32 && bytes4(abi.decode(out, (bytes32))) == IEmissary.verifyClaim.selector;
    }

    /// @dev ECDSA first (covers EOAs and EIP-7702 accounts), then ERC-1271 when the sponsor has code.
    function _isValidSignature(address signer, bytes32 digest, bytes calldata signature) internal view returns (bool) {
        if (signature.length != 0 && ECDSA.recover(digest, signature) == signer) return true;
        if (signer.code.length == 0) return false;
        (bool ok, bytes memory out) =
            signer.staticcall(abi.encodeCall(IERC1271.isValidSignature, (digest, signature)));
        return ok && out.length >= 32 && bytes4(abi.decode(out, (bytes32))) == IERC1271.isValidSignature.selector;
    }
}
