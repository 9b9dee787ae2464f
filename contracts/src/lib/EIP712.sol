// SPDX-License-Identifier: MIT
pragma solidity ^0.8.30;

/// @notice EIP-712 helpers for code placed with `anvil_setCode`: the domain separator is computed
/// at call time from `address(this)` and `block.chainid` (no constructor, no immutables).
library EIP712 {
    bytes32 internal constant DOMAIN_TYPEHASH =
        keccak256("EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)");
    bytes32 internal constant DOMAIN_TYPEHASH_NO_VERSION =
        keccak256("EIP712Domain(string name,uint256 chainId,address verifyingContract)");

    /// @notice Domain separator of `{name, version, chainId: block.chainid, verifyingContract: this}`.
    function domainSeparator(bytes32 nameHash, bytes32 versionHash) internal view returns (bytes32) {
        return keccak256(abi.encode(DOMAIN_TYPEHASH, nameHash, versionHash, block.chainid, address(this)));
    }

    /// @notice Domain separator of `{name, chainId: block.chainid, verifyingContract: this}` (Permit2's shape).
    function domainSeparatorNoVersion(bytes32 nameHash) internal view returns (bytes32) {
        return keccak256(abi.encode(DOMAIN_TYPEHASH_NO_VERSION, nameHash, block.chainid, address(this)));
    }

    /// @notice keccak256(0x1901 ‖ domainSeparator ‖ structHash).
    function digest(bytes32 separator, bytes32 structHash) internal pure returns (bytes32) {
        return keccak256(abi.encodePacked(hex"1901", separator, structHash));
    }
}
