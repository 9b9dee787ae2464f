import { mkdir, rm, writeFile } from 'node:fs/promises'
import { basename, dirname } from 'node:path'
import { Document, isMap, isSeq } from 'yaml'
import { writeDevnetState } from '../../simulator/devnet/stateDir'
import { parseScenario } from '../scenario/loadScenarios'
import type { Recording } from './recording'
import { summarize } from './startRecorder'
import { toScenario } from './toScenario'

/** Parameters of {@link writeRecording}. */
export type WriteRecordingParameters = {
  /** The scenario id (default: `recorded.<file name>`). */
  id?: string | undefined
  title?: string | undefined
}

/** What {@link writeRecording} wrote, and what a reader should know. */
export type WriteRecordingReturnType = {
  file: string
  /** `FILE.state/` when chain state was captured. */
  stateDir?: string | undefined
  steps: number
  notes: string[]
  /** A few lines saying what the file holds (printed by `record`). */
  summary: string
}

/** The state folder that travels with a recorded scenario file. */
export const stateDirOf = (file: string) => `${file}.state`

/**
 * Writes a recording as a scenario file of the packs' format (YAML, a comment per step with its
 * timing) and, when chain state was captured, the chains' state and the clock beside it as
 * `FILE.state/` in the layout of a simulator `--state-dir`. The API key is never written.
 *
 * @example
 * const written = await writeRecording(await recorder.stop(), 'scenarios/regressions/wrong-status.yaml')
 * console.log(written.summary)
 */
export async function writeRecording(
  recording: Recording,
  file: string,
  parameters: WriteRecordingParameters = {},
): Promise<WriteRecordingReturnType> {
  const id = parameters.id ?? `recorded.${slug(basename(file).replace(/\.ya?ml$/, ''))}`
  const { scenario, comments, notes, keysNeeded } = await toScenario(recording, {
    id,
    title: parameters.title,
  })
  const doc = new Document(scenario)
  const stats = summarize(recording)
  const header = [
    `Recorded by \`intent-devnet record\` against ${recording.target} at ${recording.startedAt}.`,
    `${stats.exchanges} HTTP exchanges, ${stats.transactions} transactions, ${stats.webhooks} webhooks.`,
    `Chain state and clock: ${stats.chainState}.`,
    ...(recording.chainState
      ? [`Replay: intent-devnet replay ${basename(file)} (loads ${basename(stateDirOf(file))}/).`]
      : []),
    ...(recording.faultsAtStart.length > 0
      ? [
          `Faults enabled on the target while recording: ${recording.faultsAtStart.join(', ')} (the replay does not enable them).`,
        ]
      : []),
    ...(keysNeeded.length > 0
      ? [`Needs the private keys of ${keysNeeded.join(', ')}: replay --key ADDRESS=KEY.`]
      : []),
    ...notes,
  ]
  doc.commentBefore = header.map((line) => ` ${line}`).join('\n')
  const stepsNode = isMap(doc.contents) ? doc.contents.get('steps', true) : undefined
  if (isSeq(stepsNode))
    stepsNode.items.forEach((item, i) => {
      if (comments[i] && isMap(item)) item.commentBefore = ` ${comments[i]}`
    })
  let text = doc.toString({ lineWidth: 0 })
  // Belt and braces: the key never reaches the file, whatever field carried it.
  if (recording.apiKey.length > 0) text = text.split(recording.apiKey).join(`\${apiKey}`)
  const check = parseScenario(text, file)
  if (!check.scenario)
    throw new Error(
      `The written scenario does not load: ${check.problems.map((p) => `${p.line}: ${p.field} ${p.message}`).join('; ')}`,
    )
  await mkdir(dirname(file), { recursive: true })
  await writeFile(file, text)
  let stateDir: string | undefined
  const previous = stateDirOf(file)
  await rm(previous, { recursive: true, force: true })
  if (recording.chainState) {
    stateDir = previous
    await writeDevnetState(stateDir, recording.chainState.chains, {
      offsetSeconds: recording.chainState.offsetSeconds,
      chainIds: recording.chainState.chains.map((c) => c.chainId),
    })
  }
  const steps = (scenario.steps as unknown[]).length
  const summary = [
    `wrote ${file}: ${steps} steps from ${stats.exchanges} exchanges, ${stats.transactions} transactions, ${stats.webhooks} webhooks`,
    stateDir ? `chain state and clock saved in ${stateDir}/` : `chain state ${stats.chainState}`,
    ...(keysNeeded.length > 0
      ? [`replay needs the keys of ${keysNeeded.join(', ')} (--key ADDRESS=KEY)`]
      : []),
    ...notes.map((note) => `note: ${note}`),
  ].join('\n')
  return { file, stateDir, steps, notes, summary }
}

function slug(name: string): string {
  const out = name
    .toLowerCase()
    .replace(/[^a-z0-9.-]+/g, '-')
    .replace(/^[^a-z0-9]+/, '')
  return out || 'session'
}
