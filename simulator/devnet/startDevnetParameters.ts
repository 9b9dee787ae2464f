import type { Transport } from 'viem'
import type { AnvilLauncher } from './anvil'

/** Parameters of {@link startDevnet}. */
export type StartDevnetParameters = {
  /** Chain ids, one Anvil each. Default {@link DEFAULT_CHAIN_IDS}. */
  chainIds?: readonly number[] | undefined
  /** Loopback host the Anvils listen on. Default 127.0.0.1. */
  host?: string | undefined
  /** 0 (default): free ports. Otherwise chain `i` (in `chainIds` order) listens on `basePort + i`. */
  basePort?: number | undefined
  /** Fixed ports per chain id; wins over `basePort`. */
  ports?: Record<number, number> | undefined
  /**
   * Load chain state from this directory at start and keep it there: a checkpoint every
   * `checkpointIntervalMs` while blocks are mined and at {@link Devnet.stop}, and Anvil's own dump
   * when it dies with the service (see stateDir.ts and docs/devnet.md, "Durable state").
   */
  stateDir?: string | undefined
  /** Milliseconds between checkpoints of the chains with a state dir (null: only at stop). Default 2000. */
  checkpointIntervalMs?: number | null | undefined
  /** Chains that fork a live RPC URL instead of starting empty. */
  forks?: Record<number, string> | undefined
  /** Mnemonic of every devnet key (see simulator/signing/keys.ts). */
  mnemonic?: string | undefined
  /** How many funded test accounts. Default 10. */
  accountCount?: number | undefined
  /** Ether of each funded test account (`--balance`). Default FUNDING.account.ETH (funding.ts). */
  balance?: number | undefined
  /** Every chain also mines a block every this many seconds (Anvil's `--block-time`). Default: only on each transaction. */
  blockTime?: number | undefined
  /**
   * The devnet's time when its chains are aligned at start, unix seconds: the clock's offset is
   * set so that `now()` is this instant then (negative when it is in the past), and the wall
   * clock runs on from there. A chain whose head is already later pulls the clock forward (chain
   * time never goes back). Default: the state dir's saved offset, else the wall clock. A replay
   * sets it to the instant the recording began, so a recording replays at its own time however
   * long after it was made.
   */
  clockAt?: number | undefined
  /** Progress lines (what was loaded, placed, funded). */
  log?: ((line: string) => void) | undefined
  /**
   * How each chain's Anvil is started. Default {@link startAnvil}; `intent-devnet up` passes one
   * that adopts the Anvils its bin started before the CLI loaded (anvil.ts earlyAnvilLauncher).
   */
  launchAnvil?: AnvilLauncher | undefined
  /**
   * The JSON-RPC transport of each chain's viem clients, given the Anvil's URL. Default: viem's
   * `http` over node:http, batching the calls of one tick (chain.ts). The simulator passes a
   * lighter one (startSimulator).
   */
  transport?: ((rpcUrl: string) => Transport) | undefined
  /**
   * Start each chain from the boot state baked at build time (bootStateFiles.js: our contracts
   * placed, accounts funded, deposits made; an Anvil `--load-state`) instead of placing and
   * funding, when it is fresh and applies: no state dir, the chain not forked, the default keys.
   * Checked once the Anvil listens (its head is the baked block, the allocator's code is ours); a
   * chain that does not match is started anew and placed. Default false (`intent-devnet up` sets
   * it); `{ root }`: the bake of another project root (tests).
   */
  bootState?: boolean | { root: string } | undefined
}
