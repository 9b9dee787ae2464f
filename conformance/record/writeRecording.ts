import { once } from 'node:events'
import { createWriteStream, type WriteStream } from 'node:fs'
import { mkdir, open, readFile, rename, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { basename, dirname } from 'node:path'
import { stringify } from 'yaml'
import { parseScenario } from '../scenario/loadScenarios'
import { removeJournal } from './journal'
import type { Recording } from './recording'
import { summarize } from './startRecorder'
import { stateDirOf, writeRecordedState } from './stateFolder'
import { toScenario } from './toScenario'

/** Parameters of {@link writeRecording}. */
export type WriteRecordingParameters = {
  /** The scenario id (default: `recorded.<file name>`). */
  id?: string | undefined
  title?: string | undefined
  /** Keep the journal the recording was read from (default: it is removed once the file is written). */
  keepJournal?: boolean | undefined
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

export { stateDirOf }

/**
 * Writes a recording as a scenario file of the packs' format (YAML, a comment per step with its
 * timing) and, when chain state was captured, the chains' state and the clock beside it as
 * `FILE.state/` in the layout of a simulator `--state-dir`. The API key is never written. The
 * recording's events are read from its journal and written one step at a time, so a recording
 * of any length is written in bounded memory; the journal is removed once the file is whole.
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
  // Belt and braces: the key never reaches the file, whatever field carried it.
  const redact =
    recording.apiKey.length > 0
      ? (text: string) =>
          text.includes(recording.apiKey) ? text.split(recording.apiKey).join(`\${apiKey}`) : text
      : (text: string) => text
  await mkdir(dirname(file), { recursive: true })
  // One pass over the journal, one step in memory at a time: each step goes to a side file as it
  // is made. A step's captures are known only once a later step uses them, and the header (the
  // capabilities, notes, keys) only at the end; the scenario file is then the header followed by
  // the side file copied step by step, each step's captures added as its last key.
  const stepsFile = `${file}.steps`
  const partial = `${file}.partial`
  const lengths: number[] = []
  let plan: Awaited<ReturnType<typeof toScenario>>
  try {
    const sideOut = createWriteStream(stepsFile)
    const side = writerOf(sideOut)
    plan = await toScenario(recording, {
      id,
      title: parameters.title,
      onStep: (step, comment) => {
        const text = `  # ${comment}\n${indent(redact(stringify([step], { lineWidth: 0 })), '  ')}`
        lengths.push(Buffer.byteLength(text))
        return side.write(text)
      },
    })
    await side.end()
    const { scenario, notes, keysNeeded } = plan
    const stats = summarize(recording)
    const header = [
      `Recorded by \`intent-devnet record\` against ${recording.target} at ${recording.startedAt}.`,
      `${stats.exchanges} HTTP exchanges, ${stats.transactions} transactions, ${stats.webhooks} webhooks.`,
      `Chain state and clock: ${stats.chainState}.`,
      ...(recording.chainState
        ? [`Replay: intent-devnet replay ${basename(file)} (loads ${basename(stateDirOf(file))}/).`]
        : []),
      ...faultLines(recording.faultsAtStart, plan.faultChanges),
      ...(keysNeeded.length > 0
        ? [`Needs the private keys of ${keysNeeded.join(', ')}: replay --key ADDRESS=KEY.`]
        : []),
      ...notes,
    ]
    // Written beside and renamed when whole: a file that exists is a whole scenario.
    const out = writerOf(createWriteStream(partial))
    await out.write(`${header.map((line) => `# ${line}`.replace(/\n/g, '\n# ')).join('\n')}\n\n`)
    await out.write(redact(stringify(scenario, { lineWidth: 0 })))
    await out.write('steps:\n')
    const steps = await open(stepsFile, 'r')
    try {
      let position = 0
      for (const [index, length] of lengths.entries()) {
        const bytes = Buffer.allocUnsafe(length)
        let got = 0
        while (got < length) {
          const { bytesRead } = await steps.read(bytes, got, length - got, position + got)
          if (bytesRead === 0) throw new Error(`${stepsFile} ended early`)
          got += bytesRead
        }
        position += length
        await out.write(bytes)
        // Known once a later step used them: the element the client picked, the values it read.
        const choose = plan.choices.get(index)
        const capture = plan.captures.get(index)
        if (choose || capture)
          await out.write(
            indent(
              stringify({ ...(choose && { choose }), ...(capture && { capture }) }, { lineWidth: 0 }),
              '    ',
            ),
          )
      }
    } finally {
      await steps.close()
    }
    await out.end()
  } catch (error) {
    await rm(partial, { force: true })
    throw error
  } finally {
    await rm(stepsFile, { force: true })
  }
  const { notes, keysNeeded } = plan
  const stats = summarize(recording)
  // A whole-file check while it is cheap; a larger file's steps were each checked as they were made.
  if ((await stat(partial)).size <= FULL_CHECK_BYTES) {
    const check = parseScenario(await readFile(partial, 'utf8'), file)
    if (!check.scenario) {
      await rm(partial, { force: true })
      throw new Error(
        `The written scenario does not load: ${check.problems.map((p) => `${p.line}: ${p.field} ${p.message}`).join('; ')}`,
      )
    }
  }
  await rename(partial, file)
  let stateDir: string | undefined
  const previous = stateDirOf(file)
  await rm(previous, { recursive: true, force: true })
  if (recording.chainState) {
    stateDir = previous
    await writeRecordedState(stateDir, recording.chainState)
  }
  if (!parameters.keepJournal && recording.journal) {
    await removeJournal(recording.journal)
    // The recorder's own temporary folder goes with it.
    const folder = dirname(recording.journal)
    if (basename(folder).startsWith('intent-devnet-record-') && dirname(folder) === tmpdir())
      await rm(folder, { recursive: true, force: true })
  }
  const steps = plan.steps
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

/**
 * What the header says of faults: those on when recording began (the replay does not enable
 * them, so a step they touched replays red) and what the session's own fault requests did (the
 * replay's steps do the same, and expect the fault list that leaves on the replay's target).
 */
function faultLines(atStart: string[], changes: string[]): string[] {
  const lines: string[] = []
  if (atStart.length > 0)
    lines.push(
      `Faults enabled on the target when recording began: ${atStart.join(', ')} (the replay does not enable them).`,
    )
  if (changes.length > 0)
    lines.push(`Faults the session switched itself (the replay does the same): ${changes.join('; ')}.`)
  return lines
}

/** Scenario files up to this size are parsed whole once written, as `replay` will (the parser holds ~50× the text). */
const FULL_CHECK_BYTES = 2 * 1024 * 1024

/** YAML nested under a key (indented; empty lines left empty). */
function indent(text: string, by: string): string {
  return text.replace(/^(?=.)/gm, by)
}

/** Writes to a stream, waiting when it asks to (a step at a time, the memory stays flat). */
function writerOf(stream: WriteStream) {
  const failed = new Promise<never>((_, reject) => stream.once('error', reject))
  failed.catch(() => {})
  return {
    write: async (chunk: Buffer | string) => {
      if (!stream.write(chunk)) await Promise.race([once(stream, 'drain'), failed])
    },
    end: () => Promise.race([new Promise<void>((resolve) => stream.end(() => resolve())), failed]),
  }
}

function slug(name: string): string {
  const out = name
    .toLowerCase()
    .replace(/[^a-z0-9.-]+/g, '-')
    .replace(/^[^a-z0-9]+/, '')
  return out || 'session'
}
