// SPDX-License-Identifier: MIT
pragma solidity ^0.8.27;

/// One call an account makes: the EIP-712 struct `Ops(address to,uint256 value,bytes data)`.
/// Its ABI layout equals an ERC-7579 `Execution(address target,uint256 value,bytes callData)`,
/// so `abi.encode(Ops[])` is an ERC-7579 batch execution calldata as is.
struct Ops {
    address to;
    uint256 value;
    bytes data;
}

/// A list of calls with an opaque tag: `Op(bytes32 vt,Ops[] ops)`. `vt` is signed and carried,
/// never interpreted by our contracts (the service sets it; see docs/settlement.md).
struct Op {
    bytes32 vt;
    Ops[] ops;
}

/// `GasRefund(address token,uint256 exchangeRate,uint256 overhead)`: part of the signed message.
struct GasRefund {
    address token;
    uint256 exchangeRate;
    uint256 overhead;
}

/// `SingleChainOps(address account,uint256 nonce,Op op,GasRefund gasRefund)`.
struct SingleChainOps {
    address account;
    uint256 nonce;
    Op op;
    GasRefund gasRefund;
}

/// EIP-712 hashing of the executor's types. Type strings list referenced types alphabetically
/// after the primary type, as EIP-712 `encodeType` requires.
library ExecutorTypesLib {
    bytes32 internal constant OPS_TYPEHASH = keccak256("Ops(address to,uint256 value,bytes data)");
    bytes32 internal constant OP_TYPEHASH = keccak256("Op(bytes32 vt,Ops[] ops)Ops(address to,uint256 value,bytes data)");
    bytes32 internal constant GAS_REFUND_TYPEHASH =
        keccak256("GasRefund(address token,uint256 exchangeRate,uint256 overhead)");
    bytes32 internal constant SINGLE_CHAIN_OPS_TYPEHASH = keccak256(
        "SingleChainOps(address account,uint256 nonce,Op op,GasRefund gasRefund)GasRefund(address token,uint256 exchangeRate,uint256 overhead)Op(bytes32 vt,Ops[] ops)Ops(address to,uint256 value,bytes data)"
    );

    function hashOps(Ops calldata ops) internal pure returns (bytes32) {
        return keccak256(abi.encode(OPS_TYPEHASH, ops.to, ops.value, keccak256(ops.data)));
    }

    function hashOp(Op calldata op) internal pure returns (bytes32) {
        uint256 n = op.ops.length;
        bytes32[] memory hashes = new bytes32[](n);
        for (uint256 i = 0; i < n; ++i) {
            hashes[i] = hashOps(op.ops[i]);
        }
        return keccak256(abi.encode(OP_TYPEHASH, op.vt, keccak256(abi.encodePacked(hashes))));
    }

    function hashGasRefund(GasRefund calldata refund) internal pure returns (bytes32) {
        return keccak256(abi.encode(GAS_REFUND_TYPEHASH, refund.token, refund.exchangeRate, refund.overhead));
    }

    function hashSingleChainOps(SingleChainOps calldata s) internal pure returns (bytes32) {
        return keccak256(
            abi.encode(SINGLE_CHAIN_OPS_TYPEHASH, s.account, s.nonce, hashOp(s.op), hashGasRefund(s.gasRefund))
        );
    }
}
