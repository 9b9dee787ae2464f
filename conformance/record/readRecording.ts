import type { Hex } from 'viem'
import { readJournal } from './journal'
import type { Recording } from './recording'
import { readChainsFile } from './startRecorder'

/** Parameters of {@link readRecording}. */
export type ReadRecordingParameters = {
  /** The key the client used, if known: its occurrences are written as `${apiKey}` (the journal has none left). */
  apiKey?: string | undefined
}

/** A recording read back from its journal, and what the journal's end looked like. */
export type ReadRecordingReturnType = {
  recording: Recording
  /** Bytes at the journal's end that were not a whole event (the recorder was killed while writing one). */
  truncatedBytes: number
}

/**
 * Reads a recording back from the journal a recorder left: the one `intent-devnet record` keeps
 * beside its output (`FILE.journal`) until the scenario is written, so a recorder that was killed
 * (no Ctrl-C, no `POST /_record/stop`) still leaves a recording. Every event whose frame was
 * written whole is in it; {@link writeRecording} turns it into the scenario.
 *
 * @example
 * const { recording } = await readRecording('bug.yaml.journal')
 * await writeRecording(recording, 'bug.yaml')
 */
export async function readRecording(
  journal: string,
  parameters: ReadRecordingParameters = {},
): Promise<ReadRecordingReturnType> {
  const { meta, counts, webhookSecrets, truncatedBytes } = await readJournal(journal)
  const chainsKeys = meta.chainsFile
    ? ((await readChainsFile(meta.chainsFile).catch(() => undefined))?.accounts ?? [])
    : []
  return {
    recording: {
      target: meta.target,
      startedAt: meta.startedAt,
      apiKey: parameters.apiKey ?? '',
      journal,
      counts,
      manifest: meta.manifest,
      accountKeys: [...new Set([...(chainsKeys as Hex[]), ...meta.manifestAccountKeys])],
      chainState: meta.chainState,
      chainStateProblem: meta.chainStateProblem,
      webhookUrls: meta.webhookUrls,
      webhookSecrets,
      faultsAtStart: meta.faultsAtStart,
    },
    truncatedBytes,
  }
}
