/**
 * The EIP-712 types of what a client signs (spec: "Differences between alps and blanc" › Signing:
 * in alps the client builds these types itself; in blanc the server hands them out in `signData`).
 * They are the public SDK 1.x's and The Compact v1's (facts §2, §3), and the one source for every
 * builder of typed data in this project: the simulator's quotes and allocator, and the
 * conformance runner's client.
 */

/** `EIP712Domain` with name, version, chainId and verifyingContract (The Compact, IntentExecutor). */
export const EIP712_DOMAIN_TYPES = [
  { name: 'name', type: 'string' },
  { name: 'version', type: 'string' },
  { name: 'chainId', type: 'uint256' },
  { name: 'verifyingContract', type: 'address' },
] as const

/** `EIP712Domain` without a version, as Permit2 has it (facts §2). */
export const EIP712_DOMAIN_TYPES_NO_VERSION = [
  { name: 'name', type: 'string' },
  { name: 'chainId', type: 'uint256' },
  { name: 'verifyingContract', type: 'address' },
] as const

/** `Op(bytes32 vt,Ops[] ops)` and `Ops(address to,uint256 value,bytes data)` (facts §2). */
export const OP_TYPES = {
  Op: [
    { name: 'vt', type: 'bytes32' },
    { name: 'ops', type: 'Ops[]' },
  ],
  Ops: [
    { name: 'to', type: 'address' },
    { name: 'value', type: 'uint256' },
    { name: 'data', type: 'bytes' },
  ],
} as const

/** The Mandate witness as the SDK types it (facts §2; docs/settlement.md). */
export const MANDATE_TYPES = {
  Mandate: [
    { name: 'target', type: 'Target' },
    { name: 'minGas', type: 'uint128' },
    { name: 'originOps', type: 'Op' },
    { name: 'destOps', type: 'Op' },
    { name: 'q', type: 'bytes32' },
  ],
  Target: [
    { name: 'recipient', type: 'address' },
    { name: 'tokenOut', type: 'Token[]' },
    { name: 'targetChain', type: 'uint256' },
    { name: 'fillExpiry', type: 'uint256' },
  ],
  Token: [
    { name: 'token', type: 'address' },
    { name: 'amount', type: 'uint256' },
  ],
  ...OP_TYPES,
} as const

/** `Lock(bytes12 lockTag,address token,uint256 amount)` (facts §3). */
export const LOCK_TYPE = [
  { name: 'lockTag', type: 'bytes12' },
  { name: 'token', type: 'address' },
  { name: 'amount', type: 'uint256' },
] as const

/** COMPACT funding: `MultichainCompact` with the Mandate witness in each Element (facts §2, §3). */
export const MULTICHAIN_COMPACT_TYPES = {
  MultichainCompact: [
    { name: 'sponsor', type: 'address' },
    { name: 'nonce', type: 'uint256' },
    { name: 'expires', type: 'uint256' },
    { name: 'elements', type: 'Element[]' },
  ],
  Element: [
    { name: 'arbiter', type: 'address' },
    { name: 'chainId', type: 'uint256' },
    { name: 'commitments', type: 'Lock[]' },
    { name: 'mandate', type: 'Mandate' },
  ],
  Lock: LOCK_TYPE,
  ...MANDATE_TYPES,
} as const

/** PERMIT2 funding: `PermitBatchWitnessTransferFrom` with the Mandate witness (facts §2). */
export const PERMIT_BATCH_WITNESS_TYPES = {
  PermitBatchWitnessTransferFrom: [
    { name: 'permitted', type: 'TokenPermissions[]' },
    { name: 'spender', type: 'address' },
    { name: 'nonce', type: 'uint256' },
    { name: 'deadline', type: 'uint256' },
    { name: 'mandate', type: 'Mandate' },
  ],
  TokenPermissions: [
    { name: 'token', type: 'address' },
    { name: 'amount', type: 'uint256' },
  ],
  ...MANDATE_TYPES,
} as const

/** Destination ops: the IntentExecutor's `SingleChainOps` (facts §2). */
export const SINGLE_CHAIN_OPS_TYPES = {
  SingleChainOps: [
    { name: 'account', type: 'address' },
    { name: 'nonce', type: 'uint256' },
    { name: 'op', type: 'Op' },
    { name: 'gasRefund', type: 'GasRefund' },
  ],
  GasRefund: [
    { name: 'token', type: 'address' },
    { name: 'exchangeRate', type: 'uint256' },
    { name: 'overhead', type: 'uint256' },
  ],
  ...OP_TYPES,
} as const

/** The Compact's `Compact` (a single-lock allocated transfer; facts §3). */
export const COMPACT_TYPES = {
  Compact: [
    { name: 'arbiter', type: 'address' },
    { name: 'sponsor', type: 'address' },
    { name: 'nonce', type: 'uint256' },
    { name: 'expires', type: 'uint256' },
    { name: 'lockTag', type: 'bytes12' },
    { name: 'token', type: 'address' },
    { name: 'amount', type: 'uint256' },
  ],
} as const

/** The Compact's `BatchCompact` (a batch allocated transfer; facts §3). */
export const BATCH_COMPACT_TYPES = {
  BatchCompact: [
    { name: 'arbiter', type: 'address' },
    { name: 'sponsor', type: 'address' },
    { name: 'nonce', type: 'uint256' },
    { name: 'expires', type: 'uint256' },
    { name: 'commitments', type: 'Lock[]' },
  ],
  Lock: LOCK_TYPE,
} as const

/**
 * `EIP712Domain` with name, version and verifyingContract but no chainId: the IntentEmissary's
 * domain (one enable signature is valid on every chain; docs/emissary.md). For the spec's
 * `emissaryConfig` (spec: Resources › Account).
 */
export const EIP712_DOMAIN_TYPES_NO_CHAIN_ID = [
  { name: 'name', type: 'string' },
  { name: 'version', type: 'string' },
  { name: 'verifyingContract', type: 'address' },
] as const

/**
 * `EmissaryEnable`: what the allocator (`emissaryEnable.allocatorSig`) and the account
 * (`emissaryEnable.userSig`) both sign to enable an `emissaryConfig` on the IntentEmissary
 * (domain `{name 'IntentEmissary', version '1', verifyingContract}`, no chainId). The spec names
 * `emissaryConfig.emissaryEnable` (spec: Resources › Account); these fields are ours (docs/emissary.md).
 */
export const EMISSARY_ENABLE_TYPES = {
  EmissaryEnable: [
    { name: 'account', type: 'address' },
    { name: 'lockTag', type: 'bytes12' },
    { name: 'validator', type: 'address' },
    { name: 'allocator', type: 'address' },
    { name: 'nonce', type: 'uint256' },
    { name: 'expires', type: 'uint256' },
  ],
} as const
