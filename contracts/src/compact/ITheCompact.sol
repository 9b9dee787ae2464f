// SPDX-License-Identifier: MIT
pragma solidity ^0.8.30;

import {
    AllocatedBatchTransfer,
    AllocatedTransfer,
    BatchClaim,
    BatchMultichainClaim,
    Claim,
    ExogenousBatchMultichainClaim,
    ExogenousMultichainClaim,
    MultichainClaim
} from "./CompactTypes.sol";

/// @notice The part of The Compact v1's interface our TheCompact implements.
interface ITheCompact {
    function depositNative(bytes12 lockTag, address recipient) external payable returns (uint256 id);
    function depositERC20(address token, bytes12 lockTag, uint256 amount, address recipient)
        external
        returns (uint256 id);
    function batchDeposit(uint256[2][] calldata idsAndAmounts, address recipient) external payable returns (bool);

    function allocatedTransfer(AllocatedTransfer calldata transfer) external returns (bool);
    function allocatedBatchTransfer(AllocatedBatchTransfer calldata transfer) external returns (bool);

    function claim(Claim calldata claimPayload) external returns (bytes32 claimHash);
    function batchClaim(BatchClaim calldata claimPayload) external returns (bytes32 claimHash);
    function multichainClaim(MultichainClaim calldata claimPayload) external returns (bytes32 claimHash);
    function exogenousClaim(ExogenousMultichainClaim calldata claimPayload) external returns (bytes32 claimHash);
    function batchMultichainClaim(BatchMultichainClaim calldata claimPayload) external returns (bytes32 claimHash);
    function exogenousBatchClaim(ExogenousBatchMultichainClaim calldata claimPayload)
        external
        returns (bytes32 claimHash);

    function register(bytes32 claimHash, bytes32 typehash) external returns (bool);
    function __registerAllocator(address allocator, bytes calldata proof) external returns (uint96 allocatorId);
    function enableForcedWithdrawal(uint256 id) external returns (uint256 withdrawableAt);
    function disableForcedWithdrawal(uint256 id) external returns (bool);
    function forcedWithdrawal(uint256 id, address recipient, uint256 amount) external returns (bool);
    function consume(uint256[] calldata nonces) external returns (bool);

    /// @notice Emissaries (see IEmissary): msg.sender is the sponsor; status 0 Disabled, 1 Enabled, 2 Scheduled.
    function scheduleEmissaryAssignment(bytes12 lockTag) external returns (uint256 assignableAt);
    function assignEmissary(bytes12 lockTag, address emissary) external returns (bool);
    function getEmissaryStatus(address sponsor, bytes12 lockTag)
        external
        view
        returns (uint8 status, uint256 assignableAt, address currentEmissary);

    function getLockDetails(uint256 id)
        external
        view
        returns (address token, address allocator, uint8 resetPeriod, uint8 scope, bytes12 lockTag);
    function hasConsumedAllocatorNonce(uint256 nonce, address allocator) external view returns (bool);
    function DOMAIN_SEPARATOR() external view returns (bytes32);
    function name() external pure returns (string memory);
    function balanceOf(address owner, uint256 id) external view returns (uint256);
}
