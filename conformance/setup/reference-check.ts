/**
 * The positive reference recording (`referenceAudio`, `--reference-audio`), checked before the run: a
 * recording the kit's analyser refuses would make every voice-creating case fail, blaming the
 * deployment for the recording. The analyser is the mock's, with the mock's defaults, so "the kit
 * refuses it" means the same here as in the mock.
 */
import { readFile, stat } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import type { AnalysisRefused } from '../../audio/index.js';
import { pathShown } from '../../common/path-shown.js';
import { errors, limits, type ReferenceVerdict, referenceVerdicts, upload } from '../../openapi/contract.js';
import type { FixtureFile } from '../toolkit/run-state.js';
import { ConformanceSetupError } from './setup-error.js';

const fail = (detail: string) => new ConformanceSetupError('referenceAudio', detail);

/** Seconds with one decimal, or more when one decimal would print the limit itself (60.04 → 60.04, not 60.0). */
function secondsText(value: number): string {
  const { referenceMinSeconds: min, referenceMaxSeconds: max } = limits;
  for (let digits = 1; digits < 3; digits++) {
    const shown = Number(value.toFixed(digits));
    if (shown !== min.value && shown !== max.value) return value.toFixed(digits);
  }
  return value.toFixed(3);
}

/** What is wrong with the recording, in the words of §4.2 where the spec has them. */
function refusalText(a: AnalysisRefused, bytes: number): string {
  const { referenceMinSeconds: min, referenceMaxSeconds: max, referenceMaxBytes } = limits;
  const span = `a reference must be ${min.value}–${max.value} s (§4.2)`;
  const byVerdict: Record<ReferenceVerdict, () => string> = {
    'too-long': () => `${secondsText(a.durationSeconds ?? 0)} s long; ${span}`,
    'too-short': () => `${secondsText(a.durationSeconds ?? 0)} s long; ${span}`,
    'too-large': () =>
      `${bytes} bytes; a reference may hold at most ${referenceMaxBytes.value} (20 MiB, §4.2)`,
    unsupported: () => `${a.reason.replace(/^the reference audio is /, '')} (§4.2)`,
    'insufficient-speech': () => `not usable speech: ${a.reason.replace(/^reference audio /, '')} (§4.2)`,
    // The pause limit is the kit's reading of an open point (pause-limit), so it is named as such.
    'pause-too-long': () =>
      `${a.reason.replace(/^reference audio /, '')} (the kit's limit; the spec leaves it open, §4.2)`,
  };
  const code = errors[referenceVerdicts[a.verdict]].code;
  return `${byVerdict[a.verdict]()}. The kit's mock refuses it (error_code ${code}), so the voice-creating cases would fail on the recording, not on the deployment`;
}

async function readReference(path: string): Promise<Uint8Array> {
  try {
    // The size first: a 2 GB file named by mistake is refused without reading it.
    const info = await stat(path);
    if (!info.isFile()) throw fail(`${path}: not a file`);
    if (info.size > limits.referenceMaxBytes.value) {
      throw fail(
        `${path}: ${info.size} bytes; a reference may hold at most ${limits.referenceMaxBytes.value} (20 MiB, §4.2)`,
      );
    }
    return new Uint8Array(await readFile(path));
  } catch (e) {
    if (e instanceof ConformanceSetupError) throw e;
    const err = e as NodeJS.ErrnoException;
    throw fail(`${pathShown(path)}: cannot read it (${err.code ?? err.message})`);
  }
}

/**
 * Read and judge the reference recording: its extension must be one upload accepts (§4.1) and the
 * kit's analyser must accept it (§4.2). Throws a ConformanceSetupError saying why otherwise.
 *
 * @example
 * const file = await checkedReference('voice.wav'); // { name: 'voice.wav', bytes }
 * // or: ConformanceSetupError "referenceAudio voice.wav: 61.0 s long; a reference must be 3–60 s (§4.2)..."
 */
export async function checkedReference(ref: string | FixtureFile): Promise<FixtureFile> {
  const shown = typeof ref === 'string' ? ref : ref.name;
  const name = typeof ref === 'string' ? basename(ref) : ref.name;
  const ext = extname(name).slice(1).toLowerCase();
  if (!(upload.allowedExtensions as readonly string[]).includes(ext)) {
    const allowed = upload.allowedExtensions.map((e) => `.${e}`).join(', ');
    throw fail(
      `${shown}: ${ext ? `the extension .${ext} is` : 'a name without an extension is'} refused by upload, which accepts ${allowed} (§4.1)`,
    );
  }
  const bytes = typeof ref === 'string' ? await readReference(ref) : ref.bytes;
  // Imported here: the audio engine is only needed when a recording is given.
  const { analyze } = await import('../../audio/index.js');
  const analysis = await analyze(bytes);
  if (!analysis.ok) throw fail(`${shown}: ${refusalText(analysis, bytes.byteLength)}`);
  return { name, bytes };
}
