// SPDX-License-Identifier: MIT
pragma solidity ^0.8.30;

import {ECDSA} from "./ECDSA.sol";

interface IERC1271 {
    function isValidSignature(bytes32 hash, bytes calldata signature) external view returns (bytes4);
}

/// @notice Checks a signature the way The Compact and Permit2 do: ECDSA when the signer has no
/// code, ERC-1271 `isValidSignature` (magic 0x1626ba7e) when it has code. A contract signer's
/// ECDSA signature is not accepted (except that a codeless address always goes the ECDSA way).
library SignatureChecker {
    bytes4 internal constant ERC1271_MAGIC = 0x1626ba7e;

    function isValidSignatureNow(address signer, bytes32 digest, bytes memory signature)
        internal
        view
        returns (bool)
    {
        if (signer == address(0)) return false;
        if (signer.code.length == 0) return ECDSA.recover(digest, signature) == signer;
        (bool ok, bytes memory out) =
            signer.staticcall(abi.encodeCall(IERC1271.isValidSignature, (digest, signature)));
        return ok && out.length >= 32 && abi.decode(out, (bytes32)) == bytes32(ERC1271_MAGIC);
    }
}
