/**
 * The assertions cases share: a refusal with its status and code at the level the spec states them,
 * and an audio success whose bytes decode as the type they claim.
 */

import { asEnvelope } from '../../judge/envelope.js';
import type { CaseContext } from './context.js';
import { type ClaimedAudio, judgeAudio, type PcmLayout } from './decode-audio.js';
import type { Exchange } from './http.js';

/** How strictly a part of a refusal is checked: stated by the spec, a strong reading, or only recorded. */
export type Strictness = 'must' | 'should' | 'observe';

export interface RefusalExpectation {
  /** What is being refused, for messages: `a .flac upload`. */
  readonly what: string;
  readonly status?: number;
  readonly statusLevel?: Strictness;
  readonly code?: number;
  readonly codeLevel?: Strictness;
  /** The x-open-question id under which observed parts are recorded. */
  readonly question?: string;
}

/**
 * Check a refusal: always a non-2xx status (the envelope itself is checked by `ctx.call`); the status
 * and the error_code at the given levels, observed under `question` when the spec leaves them open.
 *
 * @example
 * expectRefusal(ctx, ex, { what: 'a .flac upload', status: 400, code: 20012 });
 */
export function expectRefusal(ctx: CaseContext, ex: Exchange, e: RefusalExpectation): boolean {
  const refused = ex.status < 200 || ex.status >= 300;
  const env = asEnvelope(ex.json);
  const code = env?.error_code;
  if (e.question) ctx.observe(e.question, `${e.what}: HTTP ${ex.status}, error_code ${code ?? 'none'}`);
  // A refusal of the caller's request is a 4xx; a 5xx says the service failed on it.
  if ((e.status ?? 0) < 500) {
    ctx.check(
      ex.status < 500,
      `${e.what}: refused with HTTP ${ex.status}, a server error; a 4xx was expected`,
      {
        request: ex.request,
        level: 'should',
      },
    );
  }
  if (
    !ctx.check(refused, `${e.what} was accepted (HTTP ${ex.status}); a refusal was expected`, {
      request: ex.request,
    })
  ) {
    return false;
  }
  let good = true;
  if (e.status !== undefined && (e.statusLevel ?? 'must') !== 'observe') {
    good =
      ctx.check(ex.status === e.status, `${e.what}: HTTP ${ex.status}, expected ${e.status}`, {
        request: ex.request,
        level: e.statusLevel === 'should' ? 'should' : 'must',
      }) && good;
  }
  if (e.code !== undefined && (e.codeLevel ?? 'must') !== 'observe') {
    good =
      ctx.check(code === e.code, `${e.what}: error_code ${code ?? 'none'}, expected ${e.code}`, {
        request: ex.request,
        level: e.codeLevel === 'should' ? 'should' : 'must',
      }) && good;
  }
  return good;
}

/** Check a 200 envelope answer (the envelope rules themselves are checked by `ctx.call`). */
export function expectOk(ctx: CaseContext, ex: Exchange, what: string): boolean {
  const body = JSON.stringify(ex.json)?.slice(0, 200) ?? `${ex.bytes.byteLength} bytes`;
  return ctx.check(ex.status === 200, `${what}: HTTP ${ex.status} (${body}), expected 200`, {
    request: ex.request,
  });
}

/** Find the PCM headers: by the configured names, else by names that say what they hold. */
export function findPcmHeaders(
  ctx: CaseContext,
  headers: Headers,
): {
  readonly layout: PcmLayout | null;
  readonly names: readonly string[];
  readonly missing: readonly string[];
} {
  const names = ctx.state.pcmHeaderNames;
  const hints: Record<keyof PcmLayout, RegExp> = {
    sampleRate: /sample.?rate|sampling/i,
    channels: /channel/i,
    bitDepth: /bit.?depth|bits|sample.?size|sample.?width/i,
  };
  const found: Partial<Record<keyof PcmLayout, number>> = {};
  const used: string[] = [];
  const missing: string[] = [];
  for (const field of Object.keys(hints) as (keyof PcmLayout)[]) {
    let name: string | undefined = headers.has(names[field]) ? names[field] : undefined;
    if (!name) {
      // Any header whose name says what it holds: `Sample-Rate` is as good as `X-Audio-Sample-Rate`.
      for (const [h] of headers) if (hints[field].test(h)) name ??= h;
    }
    const value = name ? Number.parseInt(headers.get(name) ?? '', 10) : Number.NaN;
    if (name && Number.isFinite(value) && value > 0) {
      found[field] = value;
      used.push(name);
    } else missing.push(`${field} (looked for ${names[field]})`);
  }
  const layout =
    found.sampleRate && found.channels && found.bitDepth
      ? { sampleRate: found.sampleRate, channels: found.channels, bitDepth: found.bitDepth }
      : null;
  return { layout, names: used, missing };
}

/**
 * Check a synthesis success: HTTP 200, an audio Content-Type, bytes that decode as the type claimed,
 * and for PCM the three headers. Returns the claimed type and the decoded duration.
 */
export async function expectAudio(
  ctx: CaseContext,
  ex: Exchange,
  what: string,
  opts: { readonly streamed: boolean; readonly expect?: ClaimedAudio; readonly silenceAllowed?: boolean },
): Promise<{ readonly claimed: ClaimedAudio; readonly durationSeconds: number | null } | undefined> {
  const body = ex.json !== undefined ? JSON.stringify(ex.json).slice(0, 200) : `${ex.bytes.byteLength} bytes`;
  if (
    !ctx.check(ex.status === 200, `${what}: HTTP ${ex.status} (${body}), expected 200 with audio`, {
      request: ex.request,
    })
  ) {
    return undefined;
  }
  const ct = ex.headers.get('content-type');
  ctx.check(ex.json === undefined, `${what}: the body is JSON, not raw audio (§2.5)`, {
    request: ex.request,
  });
  let pcm: PcmLayout | null = null;
  const verdictProbe = await judgeAudio(ex.bytes, ct, { streamed: opts.streamed, pcm: null });
  if (verdictProbe.claimed === 'pcm') {
    const found = findPcmHeaders(ctx, ex.headers);
    ctx.observe('pcm-header-names', `${what}: ${found.names.join(', ') || 'none found'}`);
    ctx.check(
      found.missing.length === 0,
      `${what}: PCM response lacks headers for ${found.missing.join(', ')} (§2.5)`,
      {
        request: ex.request,
      },
    );
    pcm = found.layout;
  }
  // Every case synthesizes a non-empty text: its 16-bit audio must not be silence.
  const expectSound = opts.silenceAllowed !== true;
  const verdict =
    pcm || expectSound
      ? await judgeAudio(ex.bytes, ct, { streamed: opts.streamed, pcm, expectSound })
      : verdictProbe;
  if (opts.expect && opts.expect !== 'other') {
    ctx.check(
      verdict.claimed === opts.expect,
      `${what}: Content-Type ${ct} does not name ${opts.expect} audio`,
      {
        request: ex.request,
      },
    );
  }
  for (const p of verdict.problems) ctx.fail(`${what}: ${ct} body: ${p}`, { request: ex.request });
  return { claimed: verdict.claimed, durationSeconds: verdict.durationSeconds };
}
