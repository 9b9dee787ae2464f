// SPDX-License-Identifier: MIT
pragma solidity ^0.8.30;

import {IEmissary} from "../compact/IEmissary.sol";
import {ECDSA} from "../lib/ECDSA.sol";
import {EIP712} from "../lib/EIP712.sol";
import {IERC1271} from "../lib/SignatureChecker.sol";

/// @dev What the emissary asks a configured validator (our OwnableValidator's stateless check of an
/// account's installed owners).
interface ISignatureValidator {
    function checkSignature(address account, bytes32 hash, bytes calldata data) external view returns (bool);
}

/// @dev The allocator's signing key (our Allocator's `signer()`).
interface IAllocatorSigner {
    function signer() external view returns (address);
}

/// @dev The part of The Compact the emissary reads: which allocator a lock tag names.
interface ICompactLocks {
    function getLockDetails(uint256 id)
        external
        view
        returns (address token, address allocator, uint8 resetPeriod, uint8 scope, bytes12 lockTag);
}

/// @title IntentEmissary
/// @notice The devnet's Compact emissary, placed with `anvil_setCode` at the same address on every
/// chain (contracts/addresses.ts `emissary`). Per (account, lockTag) it keeps a config
/// `{validator, allocator}`, set by `enable` when BOTH the lock's allocator and the account sign the
/// EIP-712 `EmissaryEnable(address account,bytes12 lockTag,address validator,address allocator,uint256 nonce,uint256 expires)`
/// under the domain `{name 'IntentEmissary', version '1', verifyingContract: this}`. The domain has
/// no chainId on purpose: the config a quote hands out (`signedMetadata.account.emissaryConfig`) is
/// one per account, and the emissary sits at one address on every chain, so one pair of signatures
/// enables it on each chain the account uses. Each nonce enables once per chain.
///
/// Once the account has assigned this emissary for the lock tag on The Compact, a claim whose
/// sponsor signature is neither ECDSA- nor ERC-1271-valid is accepted when the configured validator
/// says `signature` is valid for `digest` for that account (`checkSignature`).
///
/// There is no `disable`: a config only changes through another `enable` (which the allocator
/// signs too), and the emissary stops applying only when the account replaces or removes it on
/// The Compact, after the lock tag's reset period; so an allocator can rely on it meanwhile.
contract IntentEmissary is IEmissary {
    address public constant COMPACT = 0x00000000000000171ede64904551eeDF3C6C9788;
    bytes32 internal constant DOMAIN_TYPEHASH_NO_CHAIN_ID =
        keccak256("EIP712Domain(string name,string version,address verifyingContract)");
    bytes32 public constant EMISSARY_ENABLE_TYPEHASH = keccak256(
        "EmissaryEnable(address account,bytes12 lockTag,address validator,address allocator,uint256 nonce,uint256 expires)"
    );
    bytes4 internal constant ERC1271_MAGIC = 0x1626ba7e;
    bytes4 internal constant NOT_VERIFIED = 0xffffffff;

    /// @notice The signed message of `enable`.
    struct EmissaryEnable {
        address account;
        bytes12 lockTag;
        address validator;
        address allocator;
        uint256 nonce;
        uint256 expires;
    }

    struct Config {
        address validator;
        address allocator;
    }

    mapping(address account => mapping(bytes12 lockTag => Config)) internal _configs;
    mapping(address account => mapping(uint256 nonce => bool)) internal _usedNonces;

    event EmissaryEnabled(
        address indexed account, bytes12 indexed lockTag, address validator, address allocator, uint256 nonce
    );

    error EnableExpired(uint256 expires);
    error NonceAlreadyUsed(address account, uint256 nonce);
    error ZeroValidator();
    error AllocatorMismatch(bytes12 lockTag, address allocator);
    error InvalidAllocatorSignature();
    error InvalidUserSignature();

    /// @notice keccak256(EIP712Domain(name 'IntentEmissary', version '1', verifyingContract: this)).
    function DOMAIN_SEPARATOR() public view returns (bytes32) {
        return keccak256(
            abi.encode(DOMAIN_TYPEHASH_NO_CHAIN_ID, keccak256("IntentEmissary"), keccak256("1"), address(this))
        );
    }

    /// @notice The EIP-712 digest both `allocatorSig` and `userSig` sign.
    function hashEnable(EmissaryEnable calldata e) public view returns (bytes32) {
        bytes32 structHash = keccak256(
            abi.encode(
                EMISSARY_ENABLE_TYPEHASH, e.account, e.lockTag, e.validator, e.allocator, e.nonce, e.expires
            )
        );
        return EIP712.digest(DOMAIN_SEPARATOR(), structHash);
    }

    /// @notice Sets `e.account`'s config for `e.lockTag`. Anyone may send it: the signatures
    /// authorize it. `allocatorSig`: ECDSA by the allocator's `signer()`, or ERC-1271 of the
    /// allocator, and the allocator must be the one the lock tag names on The Compact. `userSig`:
    /// ECDSA by the account, or the account's ERC-1271.
    function enable(EmissaryEnable calldata e, bytes calldata allocatorSig, bytes calldata userSig)
        external
        returns (bool)
    {
        if (e.expires <= block.timestamp) revert EnableExpired(e.expires);
        if (e.validator == address(0)) revert ZeroValidator();
        if (_usedNonces[e.account][e.nonce]) revert NonceAlreadyUsed(e.account, e.nonce);
        if (_lockAllocator(e.lockTag) != e.allocator) revert AllocatorMismatch(e.lockTag, e.allocator);
        bytes32 digest = hashEnable(e);
        if (!_isAllocatorSignature(e.allocator, digest, allocatorSig)) revert InvalidAllocatorSignature();
        if (!_isValidSignature(e.account, digest, userSig)) revert InvalidUserSignature();
        _usedNonces[e.account][e.nonce] = true;
        _configs[e.account][e.lockTag] = Config({validator: e.validator, allocator: e.allocator});
        emit EmissaryEnabled(e.account, e.lockTag, e.validator, e.allocator, e.nonce);
        return true;
    }

    /// @notice The config of `account` for `lockTag` (zero addresses when never enabled).
    function getConfig(address account, bytes12 lockTag) external view returns (address validator, address allocator) {
        Config memory config = _configs[account][lockTag];
        return (config.validator, config.allocator);
    }

    function isNonceUsed(address account, uint256 nonce) external view returns (bool) {
        return _usedNonces[account][nonce];
    }

    /// @inheritdoc IEmissary
    function verifyClaim(address sponsor, bytes32 digest, bytes32, bytes calldata signature, bytes12 lockTag)
        external
        view
        returns (bytes4)
    {
        address validator = _configs[sponsor][lockTag].validator;
        if (validator == address(0) || validator.code.length == 0) return NOT_VERIFIED;
        (bool ok, bytes memory out) = validator.staticcall(
            abi.encodeCall(ISignatureValidator.checkSignature, (sponsor, digest, signature))
        );
        if (!ok || out.length < 32 || abi.decode(out, (uint256)) != 1) return NOT_VERIFIED;
        return IEmissary.verifyClaim.selector;
    }

    function _lockAllocator(bytes12 lockTag) internal view returns (address allocator) {
        try ICompactLocks(COMPACT).getLockDetails(uint256(bytes32(lockTag))) returns (
            address, address lockAllocator, uint8, uint8, bytes12
        ) {
            return lockAllocator;
        } catch {
            return address(0);
        }
    }

    function _isAllocatorSignature(address allocator, bytes32 digest, bytes calldata signature)
        internal
        view
        returns (bool)
    {
        (bool ok, bytes memory out) = allocator.staticcall(abi.encodeCall(IAllocatorSigner.signer, ()));
        if (ok && out.length >= 32) {
            address signer = abi.decode(out, (address));
            if (signer != address(0) && ECDSA.recover(digest, signature) == signer) return true;
        }
        return _isErc1271(allocator, digest, signature);
    }

    /// @dev ECDSA first (EOAs and EIP-7702 accounts), then ERC-1271 when the signer has code.
    function _isValidSignature(address signer, bytes32 digest, bytes calldata signature) internal view returns (bool) {
        if (signer == address(0)) return false;
        if (ECDSA.recover(digest, signature) == signer) return true;
        return _isErc1271(signer, digest, signature);
    }

    function _isErc1271(address signer, bytes32 digest, bytes calldata signature) internal view returns (bool) {
        if (signer.code.length == 0) return false;
        (bool ok, bytes memory out) =
            signer.staticcall(abi.encodeCall(IERC1271.isValidSignature, (digest, signature)));
        return ok && out.length >= 32 && bytes4(abi.decode(out, (bytes32))) == ERC1271_MAGIC;
    }
}
