// SPDX-License-Identifier: MIT
pragma solidity ^0.8.30;

import {Mandate, MandateLib} from "../settlement/MandateLib.sol";
import {EIP712} from "../lib/EIP712.sol";

/// What a sponsor signed on an origin chain, as far as the destination needs it to recompute the
/// digest: the public SDK 1.x sends that origin signature as its destination signature, and the
/// `Mandate` witness inside it commits to `destOps` (docs/settlement.md, "Which signature covers what").
/// The Mandate itself is passed beside it (the fill delivers its Target and runs its destOps).
struct OriginAuthorization {
    /// 0: `MultichainCompact` under The Compact's domain; 1: `PermitBatchWitnessTransferFrom` under Permit2's.
    uint8 kind;
    /// The domain's chainId: `elements[0].chainId` (kind 0), the element's chain (kind 1).
    uint256 domainChainId;
    /// `intentOp.expires` (the compact's `expires`, Permit2's `deadline`).
    uint256 expires;
    /// The element's arbiter (`Element.arbiter`, Permit2's `spender`).
    address arbiter;
    /// The element's chain (`Element.chainId`; kind 1 ignores it: the domain carries the chain).
    uint256 elementChainId;
    /// The element's `idsAndAmounts` (lock tag = top 12 bytes, token = low 20 bytes).
    uint256[2][] idsAndAmounts;
    /// kind 0: the element's index in `elements`.
    uint256 elementIndex;
    /// kind 0: `hashStruct(Element)` of every other element, in signed order.
    bytes32[] otherElements;
}

/// EIP-712 digests of the origin typed data the public SDK 1.x signs (`getCompactTypedData`,
/// `permit2.getTypedData`), rebuilt on the destination from an {OriginAuthorization} and the Mandate.
/// A compact is accepted under The Compact v1's domain and under the legacy address the SDK 1.x
/// puts in its domain (as our Compact accepts both); Permit2's domain is Permit2's.
library OriginAuthorizationLib {
    uint8 internal constant KIND_COMPACT = 0;
    uint8 internal constant KIND_PERMIT2 = 1;
    address internal constant COMPACT = 0x00000000000000171ede64904551eeDF3C6C9788;
    address internal constant COMPACT_LEGACY = 0x73d2Dc0c21fca4EC1601895d50Df7f5624f07D3F;
    address internal constant PERMIT2 = 0x000000000022D473030F116dDEE9F6B43aC78BA3;

    bytes32 internal constant LOCK_TYPEHASH = keccak256("Lock(bytes12 lockTag,address token,uint256 amount)");
    bytes32 internal constant TOKEN_PERMISSIONS_TYPEHASH = keccak256("TokenPermissions(address token,uint256 amount)");
    bytes32 internal constant ELEMENT_TYPEHASH = keccak256(
        abi.encodePacked(
            "Element(address arbiter,uint256 chainId,Lock[] commitments,Mandate mandate)Lock(bytes12 lockTag,address token,uint256 amount)Mandate(",
            MandateLib.COMPACT_WITNESS_TYPESTRING,
            ")"
        )
    );
    bytes32 internal constant MULTICHAIN_COMPACT_TYPEHASH = keccak256(
        abi.encodePacked(
            "MultichainCompact(address sponsor,uint256 nonce,uint256 expires,Element[] elements)Element(address arbiter,uint256 chainId,Lock[] commitments,Mandate mandate)Lock(bytes12 lockTag,address token,uint256 amount)Mandate(",
            MandateLib.COMPACT_WITNESS_TYPESTRING,
            ")"
        )
    );
    bytes32 internal constant PERMIT_BATCH_WITNESS_TYPEHASH = keccak256(
        abi.encodePacked(
            "PermitBatchWitnessTransferFrom(TokenPermissions[] permitted,address spender,uint256 nonce,uint256 deadline,",
            MandateLib.PERMIT2_WITNESS_TYPESTRING
        )
    );

    error UnknownOriginKind(uint8 kind);
    error ElementIndexOutOfRange(uint256 elementIndex, uint256 elements);

    /// @notice The digests the sponsor may have signed for `auth` with `mandate` as the element's
    ///         witness: a compact under The Compact v1's domain and under the legacy one; a Permit2
    ///         batch witness under Permit2's (`second` is zero).
    function digests(address sponsor, uint256 nonce, Mandate calldata mandate, OriginAuthorization calldata auth)
        internal
        pure
        returns (bytes32 first, bytes32 second)
    {
        bytes32 mandateHash = MandateLib.hash(mandate);
        if (auth.kind == KIND_COMPACT) {
            bytes32 structHash = _multichainCompactHash(sponsor, nonce, mandateHash, auth);
            return (
                EIP712.digest(_compactDomain(auth.domainChainId, COMPACT), structHash),
                EIP712.digest(_compactDomain(auth.domainChainId, COMPACT_LEGACY), structHash)
            );
        }
        if (auth.kind == KIND_PERMIT2) {
            bytes32 separator = keccak256(
                abi.encode(EIP712.DOMAIN_TYPEHASH_NO_VERSION, keccak256("Permit2"), auth.domainChainId, PERMIT2)
            );
            return (EIP712.digest(separator, _permitBatchWitnessHash(nonce, mandateHash, auth)), bytes32(0));
        }
        revert UnknownOriginKind(auth.kind);
    }

    function _compactDomain(uint256 chainId, address verifyingContract) private pure returns (bytes32) {
        return keccak256(
            abi.encode(EIP712.DOMAIN_TYPEHASH, keccak256("The Compact"), keccak256("1"), chainId, verifyingContract)
        );
    }

    function _multichainCompactHash(
        address sponsor,
        uint256 nonce,
        bytes32 mandateHash,
        OriginAuthorization calldata auth
    ) private pure returns (bytes32) {
        uint256 others = auth.otherElements.length;
        if (auth.elementIndex > others) revert ElementIndexOutOfRange(auth.elementIndex, others + 1);
        uint256 n = auth.idsAndAmounts.length;
        bytes32[] memory locks = new bytes32[](n);
        for (uint256 i = 0; i < n; ++i) {
            uint256 id = auth.idsAndAmounts[i][0];
            locks[i] = keccak256(
                abi.encode(LOCK_TYPEHASH, bytes12(bytes32(id)), address(uint160(id)), auth.idsAndAmounts[i][1])
            );
        }
        bytes32 element = keccak256(
            abi.encode(
                ELEMENT_TYPEHASH,
                auth.arbiter,
                auth.elementChainId,
                keccak256(abi.encodePacked(locks)),
                mandateHash
            )
        );
        bytes32[] memory elements = new bytes32[](others + 1);
        for (uint256 i = 0; i <= others; ++i) {
            if (i < auth.elementIndex) elements[i] = auth.otherElements[i];
            else if (i == auth.elementIndex) elements[i] = element;
            else elements[i] = auth.otherElements[i - 1];
        }
        return keccak256(
            abi.encode(MULTICHAIN_COMPACT_TYPEHASH, sponsor, nonce, auth.expires, keccak256(abi.encodePacked(elements)))
        );
    }

    function _permitBatchWitnessHash(uint256 nonce, bytes32 mandateHash, OriginAuthorization calldata auth)
        private
        pure
        returns (bytes32)
    {
        uint256 n = auth.idsAndAmounts.length;
        bytes32[] memory permitted = new bytes32[](n);
        for (uint256 i = 0; i < n; ++i) {
            permitted[i] = keccak256(
                abi.encode(
                    TOKEN_PERMISSIONS_TYPEHASH, address(uint160(auth.idsAndAmounts[i][0])), auth.idsAndAmounts[i][1]
                )
            );
        }
        return keccak256(
            abi.encode(
                PERMIT_BATCH_WITNESS_TYPEHASH,
                keccak256(abi.encodePacked(permitted)),
                auth.arbiter,
                nonce,
                auth.expires,
                mandateHash
            )
        );
    }
}
