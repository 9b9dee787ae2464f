// SPDX-License-Identifier: MIT
pragma solidity ^0.8.30;

/// @notice Argument structs of The Compact v1, field for field (so a caller built for v1 encodes
/// the same calldata). Shared by TheCompact and anyone who calls it (the settlement arbiter).

/// @dev claimant = lockTag << 160 | recipient. Same lockTag as the claimed lock: the ERC-6909
/// balance moves to the recipient; another non-zero lockTag: the balance converts to that lock
/// (same token); lockTag 0: the underlying token is withdrawn to the recipient.
struct Component {
    uint256 claimant;
    uint256 amount;
}

struct ComponentsById {
    uint256 id;
    Component[] portions;
}

struct BatchClaimComponent {
    uint256 id; // The ERC-6909 lock id.
    uint256 allocatedAmount; // The amount the sponsor committed (the signed Lock amount).
    Component[] portions; // Who gets what; the sum must not exceed allocatedAmount.
}

struct AllocatedTransfer {
    bytes allocatorData;
    uint256 nonce;
    uint256 expires;
    uint256 id;
    Component[] recipients;
}

struct AllocatedBatchTransfer {
    bytes allocatorData;
    uint256 nonce;
    uint256 expires;
    ComponentsById[] transfers;
}

struct Claim {
    bytes allocatorData;
    bytes sponsorSignature;
    address sponsor;
    uint256 nonce;
    uint256 expires;
    bytes32 witness;
    string witnessTypestring;
    uint256 id;
    uint256 allocatedAmount;
    Component[] claimants;
}

struct BatchClaim {
    bytes allocatorData;
    bytes sponsorSignature;
    address sponsor;
    uint256 nonce;
    uint256 expires;
    bytes32 witness;
    string witnessTypestring;
    BatchClaimComponent[] claims;
}

struct MultichainClaim {
    bytes allocatorData;
    bytes sponsorSignature;
    address sponsor;
    uint256 nonce;
    uint256 expires;
    bytes32 witness;
    string witnessTypestring;
    bytes32[] additionalChains;
    uint256 id;
    uint256 allocatedAmount;
    Component[] claimants;
}

struct ExogenousMultichainClaim {
    bytes allocatorData;
    bytes sponsorSignature;
    address sponsor;
    uint256 nonce;
    uint256 expires;
    bytes32 witness;
    string witnessTypestring;
    bytes32[] additionalChains;
    uint256 chainIndex;
    uint256 notarizedChainId;
    uint256 id;
    uint256 allocatedAmount;
    Component[] claimants;
}

struct BatchMultichainClaim {
    bytes allocatorData;
    bytes sponsorSignature;
    address sponsor;
    uint256 nonce;
    uint256 expires;
    bytes32 witness;
    string witnessTypestring;
    bytes32[] additionalChains;
    BatchClaimComponent[] claims;
}

struct ExogenousBatchMultichainClaim {
    bytes allocatorData;
    bytes sponsorSignature;
    address sponsor;
    uint256 nonce;
    uint256 expires;
    bytes32 witness;
    string witnessTypestring;
    bytes32[] additionalChains;
    uint256 chainIndex;
    uint256 notarizedChainId;
    BatchClaimComponent[] claims;
}
