// SPDX-License-Identifier: MIT
pragma solidity ^0.8.27;

// The slices of The Compact v1 and Permit2 the arbiter calls, written from their public interfaces.
// The Compact's argument structs are shared with our Compact (contracts/src/compact/CompactTypes.sol).

import {BatchMultichainClaim, ExogenousBatchMultichainClaim} from "../compact/CompactTypes.sol";

interface ICompactClaims {
    function batchMultichainClaim(BatchMultichainClaim calldata claimPayload) external returns (bytes32 claimHash);
    function exogenousBatchClaim(ExogenousBatchMultichainClaim calldata claimPayload)
        external
        returns (bytes32 claimHash);
}

struct TokenPermissions {
    address token;
    uint256 amount;
}

struct PermitBatchTransferFrom {
    TokenPermissions[] permitted;
    uint256 nonce;
    uint256 deadline;
}

struct SignatureTransferDetails {
    address to;
    uint256 requestedAmount;
}

interface IPermit2WitnessTransfer {
    function permitWitnessTransferFrom(
        PermitBatchTransferFrom calldata permit,
        SignatureTransferDetails[] calldata transferDetails,
        address owner,
        bytes32 witness,
        string calldata witnessTypeString,
        bytes calldata signature
    ) external;
}
