// SPDX-License-Identifier: MIT
pragma solidity ^0.8.30;

/// @notice The allocator interface The Compact v1 calls.
interface IAllocator {
    /// @notice Called on every ERC-6909 transfer; must return its own selector (0x1a808f91).
    function attest(address operator, address from, address to, uint256 id, uint256 amount)
        external
        returns (bytes4);

    /// @notice Called by the Compact on every claim and allocated transfer; must return 0x7bb023f7.
    function authorizeClaim(
        bytes32 claimHash,
        address arbiter,
        address sponsor,
        uint256 nonce,
        uint256 expires,
        uint256[2][] calldata idsAndAmounts,
        bytes calldata allocatorData
    ) external returns (bytes4);

    function isClaimAuthorized(
        bytes32 claimHash,
        address arbiter,
        address sponsor,
        uint256 nonce,
        uint256 expires,
        uint256[2][] calldata idsAndAmounts,
        bytes calldata allocatorData
    ) external view returns (bool);
}
