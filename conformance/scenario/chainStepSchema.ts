import { z } from 'zod'
import { Matcher } from './httpStepSchema'

/** The `chain` step of the scenario format (conformance/scenario/schema.ts): transfers, contract
 * calls and deployments, reads and balance checks on the target's chains. */

export const ChainRef = z.union([z.number().int().positive(), z.string()])
export const Amount = z.union([z.string(), z.number().int().nonnegative()])
/** An account: a funded account of the manifest by index, or a `0x` private key / `${var}`. */
export const Signer = z.union([z.number().int().nonnegative(), z.string()])

export const ChainStep = z.strictObject({
  name: z.string().optional(),
  /**
   * Runs the step only when this variable was captured (e.g. a transaction hash that an answer
   * the spec does not show may carry, captured with `?/path`); else the report notes it was left out.
   */
  when: z
    .string()
    .regex(/^[A-Za-z_][\w.]*$/)
    .optional(),
  chain: z.discriminatedUnion('action', [
    z.strictObject({
      action: z.literal('transfer'),
      chainId: ChainRef,
      from: Signer.default(0),
      to: z.string(),
      /** A token address or `native`. */
      token: z.string().default('native'),
      amount: Amount,
    }),
    z.strictObject({
      action: z.literal('approve'),
      chainId: ChainRef,
      from: Signer.default(0),
      token: z.string(),
      spender: z.string(),
      amount: Amount,
    }),
    z.strictObject({
      action: z.literal('depositCompact'),
      chainId: ChainRef,
      from: Signer.default(0),
      /** A token address or `native`. */
      token: z.string().default('native'),
      lockTag: z.string().regex(/^0x[0-9a-fA-F]{24}$|^\$\{/),
      amount: Amount,
      recipient: z.string().optional(),
    }),
    z.strictObject({
      action: z.literal('sendTransaction'),
      chainId: ChainRef,
      from: Signer.default(0),
      to: z.string(),
      data: z.string().default('0x'),
      value: Amount.default('0'),
    }),
    z.strictObject({
      /** Calls a contract function: the ABI of a contract of `contracts/generated/artifacts.ts`. */
      action: z.literal('writeContract'),
      chainId: ChainRef,
      from: Signer.default(0),
      /** An address, or a contract name of the manifest (`compact` → `${contracts.<chainId>.compact}`). */
      address: z.string(),
      /** The artifact whose ABI encodes the call, e.g. `TheCompact`. */
      abi: z.string(),
      functionName: z.string(),
      /** Arguments as JSON (integers as strings or numbers), usually captured values. */
      args: z.array(z.unknown()).default([]),
      value: Amount.default('0'),
      /** `success` (default): the transaction must succeed; `reverted`: it must revert. */
      expectStatus: z.enum(['success', 'reverted']).default('success'),
    }),
    z.strictObject({
      /**
       * Deploys a contract of `contracts/generated/artifacts.ts` with an ordinary transaction (e.g.
       * the test-only `CallRecorder`, so any target's chains can have one); capture its `address`.
       */
      action: z.literal('deploy'),
      chainId: ChainRef,
      from: Signer.default(0),
      /** The artifact's name, e.g. `CallRecorder`. */
      artifact: z.string(),
      /** Constructor arguments as JSON, usually interpolated values. */
      args: z.array(z.unknown()).default([]),
    }),
    z.strictObject({
      /**
       * The Nexus smart account the public SDK makes for an owner key (docs/smart-account.md), its
       * address as the chain's factory computes it: `${captureAs}` gets `{address, owner,
       * setupOps}` (the route request's `account.setupOps` deploy it). Sends nothing.
       */
      action: z.literal('smartAccount'),
      chainId: ChainRef,
      /** The owner: a funded account of the manifest by index, or a `0x` private key / `${var}`. */
      owner: Signer,
      /**
       * The SDK's EIP-7702 mode: the owner's EOA is the account; `${captureAs}` also gets
       * `signedAuthorizations` (its delegation to the Nexus implementation, chain id 0), and
       * `setupOps` is its `initializeAccount` call on itself.
       */
      eip7702: z.boolean().optional(),
      captureAs: z.string().regex(/^[A-Za-z_][\w]*$/),
    }),
    z.strictObject({
      /** Calls a view function (the ABI of an artifact) and checks or captures what it returns. */
      action: z.literal('readContract'),
      chainId: ChainRef,
      /** An address, or a contract name of the manifest. */
      address: z.string(),
      abi: z.string(),
      functionName: z.string(),
      args: z.array(z.unknown()).default([]),
      /** Checks the value returned (integers as decimal strings, bytes and addresses as hex) with these matchers. */
      expect: Matcher.optional(),
      /** `${name}` gets the value returned. */
      captureAs: z.string().optional(),
    }),
    z.strictObject({
      /** Checks that a transaction (e.g. a hash the target reported) is mined on the chain, and its status. */
      action: z.literal('receipt'),
      chainId: ChainRef,
      hash: z.string(),
      expectStatus: z.enum(['success', 'reverted']).default('success'),
      /** How long to wait for the transaction to be mined. */
      timeoutSeconds: z.number().positive().default(30),
    }),
    z.strictObject({
      /**
       * Checks that every transaction of a list the target reported (e.g. `${claims}` of an alps
       * status) is mined on its own chain: the list is non-empty and each item's hash is mined.
       */
      action: z.literal('receipts'),
      transactions: z.unknown(),
      /** Where each item keeps its hash and its chain id (JSON pointer or dotted path). */
      hashField: z.string().default('claimTransactionHash'),
      chainIdField: z.string().default('chainId'),
      expectStatus: z.enum(['success', 'reverted']).default('success'),
      timeoutSeconds: z.number().positive().default(30),
    }),
    z.strictObject({
      action: z.literal('readBalance'),
      chainId: ChainRef,
      account: z.string(),
      token: z.string().default('native'),
      /** Checks the balance (as a decimal string) with these matchers. */
      expect: Matcher.optional(),
      /**
       * Reads the balance again until `expect` holds or this many seconds pass (what the target
       * pays out arrives some time after the request that caused it).
       */
      withinSeconds: z.number().positive().optional(),
      /** `${name}` gets the balance as a decimal string. */
      captureAs: z.string().optional(),
    }),
  ]),
  /**
   * name → `hash`, `status` or `from` of the receipt (`address`: the contract a `deploy` created;
   * `logIndex`: the block-wide index of the receipt's first log, e.g. a token transfer's
   * `Transfer`, which another transaction mined in the same block moves).
   */
  capture: z.record(z.string(), z.enum(['hash', 'status', 'from', 'address', 'logIndex'])).optional(),
  /** The grade of the step's checks when it differs from the scenario's (MUST or SHOULD). */
  level: z.enum(['MUST', 'SHOULD']).optional(),
})
export type ChainStep = z.infer<typeof ChainStep>
