// Types of intent-devnet/jest (index.cjs, plain CommonJS).
import type { DevnetManifest } from '../../dist/types/spec/index.js' with { 'resolution-mode': 'import' }

/** The manifest of the devnet globalSetup started (INTENT_DEVNET_MANIFEST). */
export declare function devnetManifest(): DevnetManifest
/** Snapshots every chain and the clock; resolves to the snapshot's id. */
export declare function snapshotDevnet(): Promise<string>
/** Reverts every chain and the clock to a snapshot. */
export declare function revertDevnet(id: string): Promise<void>
/** A snapshot before each test of the file (or `describe`), a revert after it. */
export declare function isolateDevnet(): void
