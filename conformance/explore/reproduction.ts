/**
 * The reproduction of a violation: the shortest sequence that showed it, as `explore-repro.json` (what
 * --replay reads) and as `explore-repro.sh`, the same requests as curl calls (jq takes the object keys
 * and cursors from the answers). Keys are named by role, never written; voice ids carry `{run}`.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { linkProblem, ReportPathError, writeReportFile } from '../../common/report-file.js';
import type { Verdict } from '../../judge/index.js';
import { operations } from '../../openapi/document-index.js';
import { kitFixtures } from '../setup/fixture-source.js';
import { type Preconditions, preconditionsOf } from './preconditions.js';
import type { StepRecord } from './sequence.js';
import type { Step, StepValue } from './step.js';

export const reproFormat = 'voice-kit-explore-repro/2';

export interface Reproduction {
  /** `/2` records the preconditions; `/1` files (before them) are replayed without. */
  readonly format: typeof reproFormat | 'voice-kit-explore-repro/1';
  readonly seed: number;
  readonly baseUrl: string;
  readonly verdicts: readonly Verdict[];
  /** The longest text the exploration saw accepted (sequence.ts `surer`). */
  readonly acceptedTextLength: number;
  readonly steps: readonly Step[];
  /** The visible state the verdict depends on: --replay checks it before its first step. */
  readonly preconditions?: Preconditions;
}

/** The sent steps only, with the step numbers their values refer to renumbered. */
export function reproductionOf(
  seed: number,
  baseUrl: string,
  records: readonly StepRecord[],
  verdicts: readonly Verdict[],
  acceptedTextLength: number,
): Reproduction {
  const kept = new Map<number, number>();
  records.forEach((r, i) => {
    if (r.status !== undefined) kept.set(i, kept.size);
  });
  const move = (v: StepValue | undefined): StepValue | undefined =>
    v === undefined || typeof v === 'string' ? v : { ...v, from: kept.get(v.from) ?? -1 };
  const steps = records
    .filter((r) => r.status !== undefined)
    .map(({ step }) => {
      const cursor = move(step.cursor);
      const refAudio = move(step.refAudio);
      return {
        ...step,
        ...(cursor !== undefined ? { cursor } : {}),
        ...(refAudio !== undefined ? { refAudio } : {}),
      };
    });
  const preconditions = preconditionsOf(records, verdicts);
  return { format: reproFormat, seed, baseUrl, verdicts, acceptedTextLength, steps, preconditions };
}

const envOf = (key: string) => `KEY_${key.replace(/[A-Z]/g, (c) => `_${c}`).toUpperCase()}`;
const q = (s: string) => `'${s.replaceAll("'", "'\\''")}'`;
/**
 * A shell word of a step value: its literal parts single-quoted (`encode` applied to each), `{run}`
 * outside the quotes as `"$RUN"`, so the shell substitutes it; a value from an earlier answer as its
 * variable.
 */
const shellValue = (v: StepValue, encode: (s: string) => string = (s) => s) =>
  typeof v === 'string'
    ? v
        .split('{run}')
        .map((part) => (part === '' ? '' : q(encode(part))))
        .join('"$RUN"') || "''"
    : `"$V${v.from + 1}"`;

function curlOf(step: Step, n: number): string {
  const key = `-H "X-API-Key: $${envOf(step.key)}"`;
  const keep = `| tee /dev/stderr | jq -r '.data.${step.refAudio || step.upload ? 'object_key' : 'next_voice_id'} // empty')`;
  if (step.op === 'listVoices') {
    const query = [
      ...(step.pageSize !== undefined ? [`--data-urlencode page_size=${step.pageSize}`] : []),
      ...(step.cursor !== undefined ? [`--data-urlencode voice_id=${shellValue(step.cursor)}`] : []),
    ].join(' ');
    return `V${n}=$(curl -sS -G ${key} ${query} "$BASE_URL/v1/voice/list" ${keep}`;
  }
  if (step.op === 'deleteVoice')
    // The id as a path segment: its literal parts URL-encoded (the run prefix needs none).
    return `curl -sS -X DELETE ${key} "$BASE_URL/v1/voice/"${shellValue(step.voice ?? '', encodeURIComponent)}; echo`;
  if (step.op === 'uploadFile' && step.upload) {
    const file = step.upload.empty ? '/dev/null' : `"$FILES/${step.upload.role}"`;
    return `V${n}=$(curl -sS ${key} -F scene=${q(step.upload.scene)} -F "file=@${file};filename=${step.upload.fileName}" "$BASE_URL/v1/files/upload" ${keep}`;
  }
  const body = { ...step.json };
  const json = JSON.stringify(body).replaceAll('{run}', '__RUN__');
  const ref =
    step.refAudio !== undefined ? ` | jq -c --arg r ${shellValue(step.refAudio)} '.ref_audio = $r'` : '';
  // The operation's path, as the description states it.
  const path = operations().get(step.op)?.path ?? '';
  const out = step.op === 'saveVoice' ? '; echo' : ` -o /dev/null -w 'HTTP %{http_code}\\n'`;
  return `printf '%s' ${q(json)} | sed "s/__RUN__/$RUN/g"${ref} | curl -sS ${key} -H 'Content-Type: application/json' --data-binary @- "$BASE_URL${path}"${out}`;
}

/** The state the script must start from, as comments (--replay checks it; the script cannot). */
function preconditionLines(pre: Preconditions | undefined): string[] {
  if (!pre) return [];
  return [
    ...(pre.remainingFreeCloneCount === undefined
      ? []
      : [`# Started with remainingFreeCloneCount ${pre.remainingFreeCloneCount} (main key).`]),
    ...(pre.voices === undefined
      ? []
      : [
          `# Started with ${pre.voices.exact ? '' : 'more than '}${pre.voices.count} voice(s) listed (main key).`,
        ]),
  ];
}

/** The curl script of a reproduction. */
export function curlScript(repro: Reproduction): string {
  const keys = [...new Set(repro.steps.map((s) => s.key))];
  return [
    '#!/bin/sh',
    `# voice-kit conformance --explore: reproduction (seed ${repro.seed}). Needs curl and jq.`,
    `# Set BASE_URL and ${keys.map(envOf).join(', ')}; recordings are in ./explore-repro-files.`,
    ...repro.verdicts.map((v) => `# ${v.rule} (${v.section}): ${v.seen}`),
    ...preconditionLines(repro.preconditions),
    'set -u',
    `BASE_URL=\${BASE_URL:-${repro.baseUrl}}`,
    'FILES=$(dirname "$0")/explore-repro-files',
    'RUN=vk_$(date +%s | tail -c 7)_',
    ...repro.steps.flatMap((s, i) => [`# ${i + 1}. ${s.label}`, curlOf(s, i + 1)]),
    '',
  ].join('\n');
}

/** Write explore-repro.json, explore-repro.sh and the recordings it uploads; returns the paths. */
export async function writeReproduction(repro: Reproduction, dir: string): Promise<string[]> {
  // The recordings' folder is the kit's too: a link planted there would take them elsewhere.
  const folderLink = linkProblem(join(dir, 'explore-repro-files'));
  if (folderLink) throw new ReportPathError(folderLink);
  await mkdir(join(dir, 'explore-repro-files'), { recursive: true });
  const json = join(dir, 'explore-repro.json');
  const sh = join(dir, 'explore-repro.sh');
  writeReportFile(json, `${JSON.stringify(repro, null, 2)}\n`);
  writeReportFile(sh, curlScript(repro), { mode: 0o755 });
  for (const role of new Set(repro.steps.flatMap((s) => (s.upload ? [s.upload.role] : [])))) {
    const f = await kitFixtures(role);
    if (f) writeReportFile(join(dir, 'explore-repro-files', role), f.bytes);
  }
  return [json, sh];
}
