// SPDX-License-Identifier: MIT
pragma solidity ^0.8.30;

/// @notice What The Compact asks a sponsor's emissary when the sponsor's signature on a claim is
/// neither a valid ECDSA nor a valid ERC-1271 signature (The Compact v1's IEmissary).
interface IEmissary {
    /// @param sponsor the claim's sponsor, who assigned this emissary for `lockTag`.
    /// @param digest the EIP-712 digest the sponsor signed (The Compact's domain ‖ claimHash).
    /// @param claimHash the claim's struct hash.
    /// @param signature the claim's sponsorSignature.
    /// @param lockTag the lock tag of the claim's (first) lock.
    /// @return `IEmissary.verifyClaim.selector` when the signature authorizes the claim.
    function verifyClaim(address sponsor, bytes32 digest, bytes32 claimHash, bytes calldata signature, bytes12 lockTag)
        external
        view
        returns (bytes4);
}
