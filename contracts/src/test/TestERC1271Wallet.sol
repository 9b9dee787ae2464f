// SPDX-License-Identifier: MIT
pragma solidity ^0.8.30;

import {ECDSA} from "../lib/ECDSA.sol";

/// @notice TEST ONLY: a contract wallet whose ERC-1271 `isValidSignature` accepts an ECDSA
/// signature by its owner over the hash as given. Can approve tokens and call out, so tests can
/// make it a Compact sponsor or a Permit2 owner.
contract TestERC1271Wallet {
    address public owner;

    error AlreadyInitialized();
    error NotOwner();

    function initialize(address owner_) external {
        if (owner != address(0)) revert AlreadyInitialized();
        owner = owner_;
    }

    function isValidSignature(bytes32 hash, bytes calldata signature) external view returns (bytes4) {
        return ECDSA.recover(hash, signature) == owner ? bytes4(0x1626ba7e) : bytes4(0xffffffff);
    }

    function execute(address target, uint256 value, bytes calldata data) external returns (bytes memory) {
        if (msg.sender != owner) revert NotOwner();
        (bool ok, bytes memory out) = target.call{value: value}(data);
        if (!ok) {
            assembly ("memory-safe") {
                revert(add(out, 0x20), mload(out))
            }
        }
        return out;
    }

    receive() external payable {}
}
