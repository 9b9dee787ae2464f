// SPDX-License-Identifier: MIT
pragma solidity ^0.8.30;

import {MODULE_TYPE_VALIDATOR} from "./IERC7579.sol";
import {SentinelList} from "./SentinelList.sol";

/// @title OwnableValidator
/// @notice The devnet's ERC-7579 validator at the SDK's OwnableValidator address (the Nexus
/// default validator): each account has a set of ECDSA owners and a threshold, set by
/// `onInstall(abi.encode(uint256 threshold, address[] owners))` called by the account.
/// Signature data is N concatenated 65-byte signatures (r ‖ s ‖ v), in any order; a signature
/// with v = 27/28 is checked against the hash itself (what the SDK sends for typed data), one with
/// v = 31/32 against its eth-signed-message form with v - 4 (what the SDK's signMessage sends).
/// The hash is valid when at least `threshold` distinct owners signed it.
/// @dev Not supported: contract owners (v = 0, ERC-1271 owners) and ERC-4337 `validateUserOp`.
contract OwnableValidator {
    using SentinelList for mapping(address => address);

    bytes4 internal constant ERC1271_MAGIC_VALUE = 0x1626ba7e;
    bytes4 internal constant ERC1271_INVALID = 0xffffffff;
    /// @dev secp256k1n / 2: a larger s is the malleable twin of a valid signature.
    uint256 internal constant HALF_N = 0x7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0;

    mapping(address account => mapping(address => address)) internal _owners;
    mapping(address account => uint256) internal _ownerCount;
    mapping(address account => uint256) public threshold;

    event ModuleInitialized(address indexed account);
    event ModuleUninitialized(address indexed account);
    event OwnerAdded(address indexed account, address owner);
    event OwnerRemoved(address indexed account, address owner);
    event ThresholdSet(address indexed account, uint256 threshold);

    error ModuleAlreadyInitialized(address account);
    error NotInitialized(address account);
    error InvalidThreshold();
    error InvalidOwner(address owner);

    /// @notice Sets the caller's owners and threshold: `data` = abi.encode(uint256, address[]).
    function onInstall(bytes calldata data) external {
        if (threshold[msg.sender] != 0) revert ModuleAlreadyInitialized(msg.sender);
        (uint256 newThreshold, address[] memory owners) = abi.decode(data, (uint256, address[]));
        if (newThreshold == 0 || newThreshold > owners.length) revert InvalidThreshold();
        for (uint256 i; i < owners.length; i++) {
            _addOwner(msg.sender, owners[i]);
        }
        threshold[msg.sender] = newThreshold;
        emit ModuleInitialized(msg.sender);
        emit ThresholdSet(msg.sender, newThreshold);
    }

    /// @notice Clears the caller's owners and threshold.
    function onUninstall(bytes calldata) external {
        _owners[msg.sender].clear();
        delete _ownerCount[msg.sender];
        delete threshold[msg.sender];
        emit ModuleUninitialized(msg.sender);
    }

    function isInitialized(address smartAccount) public view returns (bool) {
        return threshold[smartAccount] != 0;
    }

    function isModuleType(uint256 moduleTypeId) external pure returns (bool) {
        return moduleTypeId == MODULE_TYPE_VALIDATOR;
    }

    /// @notice Adds an owner to the caller's set.
    function addOwner(address owner) external {
        if (!isInitialized(msg.sender)) revert NotInitialized(msg.sender);
        _addOwner(msg.sender, owner);
    }

    /// @notice Removes `owner`, whose predecessor in `getOwners` order is `prevOwner`
    /// (0x…01 for the first), keeping at least `threshold` owners.
    function removeOwner(address prevOwner, address owner) external {
        if (!isInitialized(msg.sender)) revert NotInitialized(msg.sender);
        if (_ownerCount[msg.sender] <= threshold[msg.sender]) revert InvalidThreshold();
        _owners[msg.sender].remove(prevOwner, owner);
        _ownerCount[msg.sender]--;
        emit OwnerRemoved(msg.sender, owner);
    }

    /// @notice Changes the caller's threshold (1 ≤ threshold ≤ number of owners).
    function setThreshold(uint256 newThreshold) external {
        if (!isInitialized(msg.sender)) revert NotInitialized(msg.sender);
        if (newThreshold == 0 || newThreshold > _ownerCount[msg.sender]) revert InvalidThreshold();
        threshold[msg.sender] = newThreshold;
        emit ThresholdSet(msg.sender, newThreshold);
    }

    function getOwners(address account) external view returns (address[] memory) {
        return _owners[account].all();
    }

    /// @notice ERC-7579 ERC-1271 forwarding: the calling account asks whether `data` signs `hash`.
    function isValidSignatureWithSender(address, bytes32 hash, bytes calldata data) external view returns (bytes4) {
        return _isValid(msg.sender, hash, data) ? ERC1271_MAGIC_VALUE : ERC1271_INVALID;
    }

    /// @notice The same check for any account, for off-chain callers.
    function checkSignature(address account, bytes32 hash, bytes calldata data) external view returns (bool) {
        return _isValid(account, hash, data);
    }

    function _addOwner(address account, address owner) internal {
        if (owner == address(0) || owner == SentinelList.SENTINEL) revert InvalidOwner(owner);
        if (_owners[account].contains(owner)) revert InvalidOwner(owner);
        _owners[account].push(owner);
        _ownerCount[account]++;
        emit OwnerAdded(account, owner);
    }

    function _isValid(address account, bytes32 hash, bytes calldata data) internal view returns (bool) {
        uint256 required = threshold[account];
        if (required == 0 || data.length == 0 || data.length % 65 != 0) return false;
        uint256 count = data.length / 65;
        if (count < required) return false;
        address[] memory counted = new address[](count);
        uint256 valid;
        for (uint256 i; i < count; i++) {
            address signer = _recover(hash, data[i * 65:(i + 1) * 65]);
            if (signer == address(0) || !_owners[account].contains(signer)) continue;
            bool duplicate;
            for (uint256 j; j < valid; j++) {
                if (counted[j] == signer) duplicate = true;
            }
            if (duplicate) continue;
            counted[valid++] = signer;
            if (valid >= required) return true;
        }
        return false;
    }

    function _recover(bytes32 hash, bytes calldata signature) internal pure returns (address) {
        bytes32 r = bytes32(signature[0:32]);
        bytes32 s = bytes32(signature[32:64]);
        uint8 v = uint8(signature[64]);
        bytes32 digest = hash;
        if (v > 30) {
            digest = keccak256(abi.encodePacked("\x19Ethereum Signed Message:\n32", hash));
            v -= 4;
        }
        if ((v != 27 && v != 28) || uint256(s) > HALF_N) return address(0);
        return ecrecover(digest, v, r, s);
    }
}
