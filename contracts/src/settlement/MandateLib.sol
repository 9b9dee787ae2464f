// SPDX-License-Identifier: MIT
pragma solidity ^0.8.27;

import {Ops, Op, ExecutorTypesLib} from "../executor/ExecutorTypes.sol";

/// `Token(address token,uint256 amount)`: one output token (the SDK takes the low 160 bits of
/// the IntentOp's `tokenOut[i][0]` id).
struct Token {
    address token;
    uint256 amount;
}

/// `Target(address recipient,Token[] tokenOut,uint256 targetChain,uint256 fillExpiry)`.
struct Target {
    address recipient;
    Token[] tokenOut;
    uint256 targetChain;
    uint256 fillExpiry;
}

/// The witness a sponsor signs: `Mandate(Target target,uint128 minGas,Op originOps,Op destOps,bytes32 q)`,
/// with `q = keccak256(qualifier.encodedVal)`.
struct Mandate {
    Target target;
    uint128 minGas;
    Op originOps;
    Op destOps;
    bytes32 q;
}

/// EIP-712 hashing of the Mandate witness and the type strings The Compact and Permit2 expect.
library MandateLib {
    /// The Mandate's referenced types, alphabetically, as EIP-712 `encodeType` appends them.
    string internal constant MANDATE_REFERENCED_TYPES =
        "Op(bytes32 vt,Ops[] ops)Ops(address to,uint256 value,bytes data)Target(address recipient,Token[] tokenOut,uint256 targetChain,uint256 fillExpiry)Token(address token,uint256 amount)";

    bytes32 internal constant TOKEN_TYPEHASH = keccak256("Token(address token,uint256 amount)");
    bytes32 internal constant TARGET_TYPEHASH = keccak256(
        "Target(address recipient,Token[] tokenOut,uint256 targetChain,uint256 fillExpiry)Token(address token,uint256 amount)"
    );
    bytes32 internal constant MANDATE_TYPEHASH = keccak256(
        "Mandate(Target target,uint128 minGas,Op originOps,Op destOps,bytes32 q)Op(bytes32 vt,Ops[] ops)Ops(address to,uint256 value,bytes data)Target(address recipient,Token[] tokenOut,uint256 targetChain,uint256 fillExpiry)Token(address token,uint256 amount)"
    );

    /// The Compact v1 `witnessTypestring`: what goes between `Mandate(` and the final `)` that the
    /// Compact adds after its own types (`...,Mandate mandate)Lock(...)Mandate(` ‖ this ‖ `)`).
    string internal constant COMPACT_WITNESS_TYPESTRING =
        "Target target,uint128 minGas,Op originOps,Op destOps,bytes32 q)Op(bytes32 vt,Ops[] ops)Ops(address to,uint256 value,bytes data)Target(address recipient,Token[] tokenOut,uint256 targetChain,uint256 fillExpiry)Token(address token,uint256 amount";

    /// The Permit2 `witnessTypeString` for `PermitBatchWitnessTransferFrom`: appended to
    /// `PermitBatchWitnessTransferFrom(TokenPermissions[] permitted,address spender,uint256 nonce,uint256 deadline,`.
    string internal constant PERMIT2_WITNESS_TYPESTRING =
        "Mandate mandate)Mandate(Target target,uint128 minGas,Op originOps,Op destOps,bytes32 q)Op(bytes32 vt,Ops[] ops)Ops(address to,uint256 value,bytes data)Target(address recipient,Token[] tokenOut,uint256 targetChain,uint256 fillExpiry)Token(address token,uint256 amount)TokenPermissions(address token,uint256 amount)";

    function hashTarget(Target calldata target) internal pure returns (bytes32) {
        uint256 n = target.tokenOut.length;
        bytes32[] memory hashes = new bytes32[](n);
        for (uint256 i = 0; i < n; ++i) {
            hashes[i] = keccak256(abi.encode(TOKEN_TYPEHASH, target.tokenOut[i].token, target.tokenOut[i].amount));
        }
        return keccak256(
            abi.encode(
                TARGET_TYPEHASH,
                target.recipient,
                keccak256(abi.encodePacked(hashes)),
                target.targetChain,
                target.fillExpiry
            )
        );
    }

    /// The EIP-712 struct hash of a Mandate: the `witness` The Compact and Permit2 take.
    function hash(Mandate calldata mandate) internal pure returns (bytes32) {
        return keccak256(
            abi.encode(
                MANDATE_TYPEHASH,
                hashTarget(mandate.target),
                mandate.minGas,
                ExecutorTypesLib.hashOp(mandate.originOps),
                ExecutorTypesLib.hashOp(mandate.destOps),
                mandate.q
            )
        );
    }

    /// The fill id both sides derive: one intent (sponsor, nonce) delivering one Target.
    function fillId(address sponsor, uint256 nonce, Target calldata target) internal pure returns (bytes32) {
        return keccak256(abi.encode(sponsor, nonce, hashTarget(target)));
    }
}
