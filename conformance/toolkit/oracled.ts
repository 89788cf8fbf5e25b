/**
 * The suite's side of the differential oracle (oracle/): one oracle per run observes every exchange a
 * case sends through CaseContext.call, in the order the answers came, and its verdicts are findings of
 * that case. The oracle follows the deployment's visible state; what it cannot replay faithfully (a
 * fault asked of the kit's mock with `Prefer`, a body that is neither JSON nor a form) it does not
 * compare, and a write among those makes it start over from what the deployment shows next.
 */
import { AudioWatch, audioKindOf, pcmLayoutOf, type Verdict } from '../../judge/index.js';
import { limits, type OperationId } from '../../openapi/contract.js';
import { createOracle, type OracleAudio, type OracleExchange } from '../../oracle/index.js';
import type { Exchange } from './http.js';
import { suiteTenancy } from './judged.js';
import type { RunKeys, RunState } from './run-state.js';
import { SuiteOracle } from './suite-oracle.js';

/**
 * The run's oracle for these keys, placed as the preflight describes them (judged.ts), the key
 * without Voice Cloning marked; the run's own voices are those under its prefix. Two names sharing
 * one key leave where a voice belongs unknown: then the run has none.
 */
export function suiteOracleOf(keys: RunKeys, prefix: string, now: () => number): SuiteOracle | undefined {
  const scopes = suiteTenancy(keys);
  if (!scopes) return undefined;
  const placed = Object.fromEntries(
    Object.entries(scopes).map(([key, scope]) => [key, { ...scope, voiceCloning: key !== keys.noClone }]),
  );
  return new SuiteOracle(() =>
    createOracle({ keys: placed, ownVoice: (id) => id.startsWith(prefix) }, now()),
  );
}

/** Verdicts the suite reports itself: a 5xx is every case's finding already (context.ts). */
const reportedElsewhere = new Set(['oracle.server-error']);

/** What the suite sent, as the oracle reads it (undefined: a body the oracle cannot replay). */
async function requestOf(
  state: RunState,
  req: Request,
  sent: { json?: unknown; body?: BodyInit },
): Promise<OracleExchange['request'] | undefined> {
  const url = new URL(req.url);
  const base = new URL(state.baseUrl);
  const root = base.pathname.replace(/\/+$/, '');
  if (url.origin !== base.origin || !url.pathname.startsWith(root)) return undefined;
  const headers: Record<string, string> = {};
  req.headers.forEach((v, k) => {
    headers[k.toLowerCase()] = v;
  });
  const path = `${url.pathname.slice(root.length)}${url.search}`;
  if (sent.body instanceof FormData) {
    const scene = sent.body.get('scene');
    const file = sent.body.get('file');
    if (typeof scene !== 'string' || !(file instanceof Blob)) return undefined;
    const fileName = file instanceof File ? file.name : 'blob';
    // A file too large to be a reference but not to be uploaded: the model's answer to it does not
    // depend on its bytes, and a save from it is refused for a reason the oracle leaves open (20010),
    // so the model stores its stand-in recording instead of copying megabytes.
    const standIn = file.size > limits.referenceMaxBytes.value && file.size <= limits.uploadMaxBytes.value;
    const bytes = standIn ? undefined : new Uint8Array(await file.arrayBuffer());
    return { method: req.method, path, headers, form: { scene, fileName, bytes } };
  }
  if (sent.json !== undefined) return { method: req.method, path, headers, json: sent.json };
  if (sent.body !== undefined) return undefined;
  return { method: req.method, path, headers };
}

/** The audio of an answer as the judge's one reader of audio bodies sums it up (judge/audio-watch.ts). */
function audioOf(state: RunState, ex: Exchange, streamed: boolean): OracleAudio | undefined {
  const kind =
    ex.status >= 200 && ex.status < 300 && !ex.truncated
      ? audioKindOf(ex.headers.get('content-type'))
      : undefined;
  if (!kind) return undefined;
  const headers = Object.fromEntries([...ex.headers].map(([k, v]) => [k.toLowerCase(), v]));
  const pcm = kind === 'pcm' ? pcmLayoutOf(headers, state.pcmHeaderNames).layout : undefined;
  const watch = new AudioWatch(kind, { streamed, pcm });
  watch.push(ex.bytes);
  const { bytes, seconds } = watch.finish();
  return { kind, bytes, seconds };
}

/**
 * The oracle's verdicts on one exchange of a case (none when the run has no oracle, the request is to
 * another host or asks the kit's mock for a fault).
 */
export async function oracleVerdicts(
  state: RunState,
  op: OperationId | null | undefined,
  req: Request,
  sent: { json?: unknown; body?: BodyInit },
  ex: Exchange,
): Promise<Verdict[]> {
  if (!state.oracle || !op || ex.truncated) return [];
  const at = state.now();
  const verdicts = await state.oracle.observe(async (seq) => {
    // A fault the kit's mock was asked for changes nothing; a write whose body is not replayed may have.
    if (req.headers.has('prefer')) return undefined;
    const request = await requestOf(state, req, sent);
    const write = op === 'uploadFile' || op === 'saveVoice' || op === 'deleteVoice';
    if (!request) return write && ex.status < 300 ? 'resync' : undefined;
    return {
      seq,
      at,
      request,
      answer: {
        status: ex.status,
        ...(ex.json !== undefined ? { json: ex.json } : {}),
        ...(op === 'synthesizeSpeech' || op === 'streamSpeech'
          ? { audio: audioOf(state, ex, op === 'streamSpeech') }
          : {}),
      },
    };
  });
  return verdicts.filter((v) => !reportedElsewhere.has(v.rule));
}
