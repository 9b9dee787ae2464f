// SPDX-License-Identifier: MIT
pragma solidity ^0.8.30;

import {EIP712} from "./lib/EIP712.sol";
import {SafeTransferLib} from "./lib/SafeTransferLib.sol";
import {SignatureChecker} from "./lib/SignatureChecker.sol";

/// @title Permit2
/// @notice A Permit2-compatible signature-transfer contract for the devnet, written from Permit2's
/// public interface and placed with `anvil_setCode` at 0x000000000022D473030F116dDEE9F6B43aC78BA3.
/// It implements the SignatureTransfer half: `permitTransferFrom` and `permitWitnessTransferFrom`
/// (single and batch), the unordered nonce bitmap (`nonceBitmap`, `invalidateUnorderedNonces`)
/// and `DOMAIN_SEPARATOR()` ({name 'Permit2', chainId, verifyingContract}, no version), computed
/// at call time. Owners approve this contract on the token first. Signatures: ECDSA (65 or
/// 64 bytes) or, for an owner with code, ERC-1271.
/// Deviations: no AllowanceTransfer half (approve/permit/transferFrom with allowances), no
/// lockdown; an ECDSA signature by an owner with code is also accepted (EIP-7702 accounts).
contract Permit2 {
    struct TokenPermissions {
        address token;
        uint256 amount;
    }

    struct PermitTransferFrom {
        TokenPermissions permitted;
        uint256 nonce;
        uint256 deadline;
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

    bytes32 internal constant TOKEN_PERMISSIONS_TYPEHASH = keccak256("TokenPermissions(address token,uint256 amount)");
    bytes32 internal constant PERMIT_TRANSFER_FROM_TYPEHASH = keccak256(
        "PermitTransferFrom(TokenPermissions permitted,address spender,uint256 nonce,uint256 deadline)TokenPermissions(address token,uint256 amount)"
    );
    bytes32 internal constant PERMIT_BATCH_TRANSFER_FROM_TYPEHASH = keccak256(
        "PermitBatchTransferFrom(TokenPermissions[] permitted,address spender,uint256 nonce,uint256 deadline)TokenPermissions(address token,uint256 amount)"
    );
    /// @dev The witness type string completes these: e.g. "Mandate mandate)Mandate(...)TokenPermissions(address token,uint256 amount)".
    string internal constant PERMIT_WITNESS_STUB =
        "PermitWitnessTransferFrom(TokenPermissions permitted,address spender,uint256 nonce,uint256 deadline,";
    string internal constant PERMIT_BATCH_WITNESS_STUB =
        "PermitBatchWitnessTransferFrom(TokenPermissions[] permitted,address spender,uint256 nonce,uint256 deadline,";

    mapping(address owner => mapping(uint256 wordPos => uint256 bitmap)) public nonceBitmap;

    event UnorderedNonceInvalidation(address indexed owner, uint256 word, uint256 mask);

    error SignatureExpired(uint256 signatureDeadline);
    error InvalidAmount(uint256 maxAmount);
    error LengthMismatch();
    error InvalidNonce();
    error InvalidSigner();

    function DOMAIN_SEPARATOR() public view returns (bytes32) {
        return EIP712.domainSeparatorNoVersion(keccak256("Permit2"));
    }

    function invalidateUnorderedNonces(uint256 wordPos, uint256 mask) external {
        nonceBitmap[msg.sender][wordPos] |= mask;
        emit UnorderedNonceInvalidation(msg.sender, wordPos, mask);
    }

    function permitTransferFrom(
        PermitTransferFrom calldata permit,
        SignatureTransferDetails calldata transferDetails,
        address owner,
        bytes calldata signature
    ) external {
        _useSingle(permit, transferDetails, owner);
        _verify(owner, _singleHash(PERMIT_TRANSFER_FROM_TYPEHASH, permit, 0, false), signature);
        SafeTransferLib.safeTransferFrom(
            permit.permitted.token, owner, transferDetails.to, transferDetails.requestedAmount
        );
    }

    function permitWitnessTransferFrom(
        PermitTransferFrom calldata permit,
        SignatureTransferDetails calldata transferDetails,
        address owner,
        bytes32 witness,
        string calldata witnessTypeString,
        bytes calldata signature
    ) external {
        _useSingle(permit, transferDetails, owner);
        bytes32 typehash = keccak256(abi.encodePacked(PERMIT_WITNESS_STUB, witnessTypeString));
        _verify(owner, _singleHash(typehash, permit, witness, true), signature);
        SafeTransferLib.safeTransferFrom(
            permit.permitted.token, owner, transferDetails.to, transferDetails.requestedAmount
        );
    }

    function permitTransferFrom(
        PermitBatchTransferFrom calldata permit,
        SignatureTransferDetails[] calldata transferDetails,
        address owner,
        bytes calldata signature
    ) external {
        _useBatch(permit, transferDetails.length, owner);
        _verify(owner, _batchHash(PERMIT_BATCH_TRANSFER_FROM_TYPEHASH, permit, 0, false), signature);
        _transferBatch(permit, transferDetails, owner);
    }

    function permitWitnessTransferFrom(
        PermitBatchTransferFrom calldata permit,
        SignatureTransferDetails[] calldata transferDetails,
        address owner,
        bytes32 witness,
        string calldata witnessTypeString,
        bytes calldata signature
    ) external {
        _useBatch(permit, transferDetails.length, owner);
        _verify(owner, _batchHash(_batchWitnessTypehash(witnessTypeString), permit, witness, true), signature);
        _transferBatch(permit, transferDetails, owner);
    }

    function _batchWitnessTypehash(string calldata witnessTypeString) internal pure returns (bytes32) {
        return keccak256(abi.encodePacked(PERMIT_BATCH_WITNESS_STUB, witnessTypeString));
    }

    function _singleHash(bytes32 typehash, PermitTransferFrom calldata permit, bytes32 witness, bool hasWitness)
        internal
        view
        returns (bytes32)
    {
        bytes32 permitted =
            keccak256(abi.encode(TOKEN_PERMISSIONS_TYPEHASH, permit.permitted.token, permit.permitted.amount));
        bytes memory enc = abi.encode(typehash, permitted, msg.sender, permit.nonce, permit.deadline);
        return keccak256(hasWitness ? abi.encodePacked(enc, witness) : enc);
    }

    function _batchHash(bytes32 typehash, PermitBatchTransferFrom calldata permit, bytes32 witness, bool hasWitness)
        internal
        view
        returns (bytes32)
    {
        bytes32[] memory hashes = new bytes32[](permit.permitted.length);
        for (uint256 i; i < hashes.length; ++i) {
            hashes[i] = keccak256(
                abi.encode(TOKEN_PERMISSIONS_TYPEHASH, permit.permitted[i].token, permit.permitted[i].amount)
            );
        }
        bytes memory enc =
            abi.encode(typehash, keccak256(abi.encodePacked(hashes)), msg.sender, permit.nonce, permit.deadline);
        return keccak256(hasWitness ? abi.encodePacked(enc, witness) : enc);
    }

    function _useSingle(PermitTransferFrom calldata permit, SignatureTransferDetails calldata details, address owner)
        internal
    {
        if (block.timestamp > permit.deadline) revert SignatureExpired(permit.deadline);
        if (details.requestedAmount > permit.permitted.amount) revert InvalidAmount(permit.permitted.amount);
        _useNonce(owner, permit.nonce);
    }

    function _useBatch(PermitBatchTransferFrom calldata permit, uint256 detailsLength, address owner) internal {
        if (block.timestamp > permit.deadline) revert SignatureExpired(permit.deadline);
        if (detailsLength != permit.permitted.length) revert LengthMismatch();
        _useNonce(owner, permit.nonce);
    }

    function _transferBatch(
        PermitBatchTransferFrom calldata permit,
        SignatureTransferDetails[] calldata details,
        address owner
    ) internal {
        for (uint256 i; i < details.length; ++i) {
            uint256 amount = details[i].requestedAmount;
            if (amount > permit.permitted[i].amount) revert InvalidAmount(permit.permitted[i].amount);
            if (amount != 0) {
                SafeTransferLib.safeTransferFrom(permit.permitted[i].token, owner, details[i].to, amount);
            }
        }
    }

    function _verify(address owner, bytes32 structHash, bytes calldata signature) internal view {
        bytes32 digest = EIP712.digest(DOMAIN_SEPARATOR(), structHash);
        if (!SignatureChecker.isValidSignatureNow(owner, digest, signature)) revert InvalidSigner();
    }

    /// @dev Unordered nonces: word = nonce >> 8, bit = nonce & 0xff; a set bit is a used nonce.
    function _useNonce(address owner, uint256 nonce) internal {
        uint256 bit = 1 << (nonce & 0xff);
        uint256 flipped = nonceBitmap[owner][nonce >> 8] ^= bit;
        if (flipped & bit == 0) revert InvalidNonce();
    }
}
