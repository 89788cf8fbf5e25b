/** Synthesis points the spec leaves open: observed, never failed. */

import { asEnvelope } from '../../judge/envelope.js';
import { synthesize } from '../toolkit/actions.js';
import type { CaseContext, ConformanceCase } from '../toolkit/context.js';
import { expectRefusal } from '../toolkit/expect.js';
import type { Exchange } from '../toolkit/http.js';
import { longText, shortText } from './support.js';

/** `HTTP 200 audio/wav` or `HTTP 400 error_code 10001`. */
function outcome(ex: Exchange): string {
  if (ex.status === 200) return `HTTP 200 ${ex.headers.get('content-type') ?? ''}`.trim();
  return `HTTP ${ex.status}, error_code ${asEnvelope(ex.json)?.error_code ?? 'none'}`;
}

/** Probes only need the status: stop reading after the first 64 KiB. */
const probe = { maxBytes: 65_536 };

/** The longest text the bisection sends, and its bound on requests (1 + log2 of it, rounded up, fits). */
const maxProbeText = 100_000;
const maxTextProbes = 20;

/** A status probe of `n` code points on the stream endpoint: the body is cancelled after its first bytes. */
function textProbe(ctx: CaseContext, n: number): Promise<Exchange> {
  // 4 KiB holds any refusal envelope whole, and is a small part of an audio answer.
  return synthesize(
    ctx,
    'stream',
    { generate_text: longText(n).slice(0, n) },
    { send: { maxBytes: 4096 }, probes: 'max-text-length' },
  );
}

/**
 * The limit by bisection: `lo` is the longest text seen accepted (0 before any), `hi` the shortest seen
 * refused. It stops when they are one apart (the limit is `lo`), when the deployment accepts
 * ${maxProbeText} characters (no limit found: nothing recorded), or on an answer that is neither.
 */
async function bisectTextLength(ctx: CaseContext): Promise<void> {
  if (!ctx.state.calibrate) return fixedTextLengths(ctx);
  let lo = 0;
  let hi = maxProbeText;
  let last: Exchange | undefined;
  for (let probes = 0; probes < maxTextProbes && hi - lo > 1; probes++) {
    const n = probes === 0 ? maxProbeText : Math.floor((lo + hi) / 2);
    last = await textProbe(ctx, n);
    const refused = last.status >= 400 && last.status < 500 && last.status !== 429;
    if (last.status === 200 && n === maxProbeText)
      return ctx.observe('max-text-length', `${n} characters accepted: no limit found`);
    if (last.status === 200) lo = n;
    else if (refused) hi = n;
    else return ctx.observe('max-text-length', `bisection stopped at ${n} characters: ${outcome(last)}`);
  }
  ctx.observe(
    'max-text-length',
    hi - lo === 1 && lo > 0
      ? `${lo} characters accepted, ${hi} refused`
      : `no limit found between ${lo} and ${hi} characters`,
  );
}

/**
 * Without calibration, four lengths around the mock's limit (5,000, 10,000, 10,001, 20,000: at most
 * 45,000 characters accepted): the limit is known exactly only when it is 10,000.
 */
async function fixedTextLengths(ctx: CaseContext): Promise<void> {
  for (const n of [5_000, 10_000, 10_001, 20_000]) {
    ctx.observe('max-text-length', `${n} characters: ${outcome(await textProbe(ctx, n))}`);
  }
}

const cases: ConformanceCase[] = [
  {
    id: 'synthesis.open.text-alias',
    section: '§2.4',
    severity: 'observe',
    title: 'whether `text` is accepted in place of generate_text',
    openQuestion: 'text-alias',
    async run(ctx) {
      for (const e of ['complete', 'stream'] as const) {
        const ex = await synthesize(ctx, e, { text: shortText }, { send: probe, probes: 'text-alias' });
        ctx.observe('text-alias', `${e} with {text}: ${outcome(ex)}`);
      }
    },
  },
  {
    id: 'synthesis.open.max-text-length',
    section: '§8',
    severity: 'observe',
    title: `the longest generate_text accepted: 5,000, 10,000, 10,001 and 20,000 characters, or (calibrate, --write-profile) a bisection up to ${maxProbeText.toLocaleString('en')} (streamed, at most ${maxTextProbes} requests)`,
    openQuestion: 'max-text-length',
    run: (ctx) => bisectTextLength(ctx),
  },
  {
    id: 'synthesis.open.default-format',
    section: '§2.4, §2.5',
    severity: 'observe',
    title: 'the audio format when audio_format is omitted',
    openQuestion: 'default-audio-format',
    async run(ctx) {
      for (const e of ['complete', 'stream'] as const) {
        const ex = await synthesize(
          ctx,
          e,
          { generate_text: shortText },
          { send: probe, probes: 'default-audio-format' },
        );
        ctx.observe('default-audio-format', `${e}: ${outcome(ex)}`);
      }
    },
  },
  {
    id: 'synthesis.open.options',
    section: '§2.4',
    severity: 'observe',
    title: 'which languages and emotions are enabled (a sample)',
    openQuestion: 'allowed-options',
    async run(ctx) {
      for (const language of ['en', 'zh', 'xx']) {
        const ex = await synthesize(
          ctx,
          'complete',
          { generate_text: shortText, language },
          { send: probe, ...(language === 'xx' ? { probes: 'allowed-options/refusal' } : {}) },
        );
        ctx.observe('allowed-options', `language ${language}: ${outcome(ex)}`);
      }
      for (const emotion_class of ['happy', 'sad', 'no-such-emotion']) {
        const ex = await synthesize(
          ctx,
          'complete',
          { generate_text: shortText, emotion_class },
          { send: probe },
        );
        ctx.observe('emotion-support', `emotion_class ${emotion_class}: ${outcome(ex)}`);
      }
    },
  },
  {
    id: 'synthesis.errors.unknown-voice',
    section: '§2.4, §7.3',
    severity: 'should',
    title: 'a voice_id that is not available is refused (status and code observed)',
    openQuestion: 'synthesis-errors',
    async run(ctx) {
      const ex = await synthesize(
        ctx,
        'complete',
        { generate_text: shortText, voice_id: ctx.newVoiceId('none') },
        { probes: 'synthesis-errors/unknown-voice' },
      );
      expectRefusal(ctx, ex, { what: 'synthesis with an unknown voice_id', question: 'synthesis-errors' });
    },
  },
  {
    id: 'synthesis.request.wrong-content-type',
    section: '§4.5, §7',
    severity: 'must',
    title:
      'a synthesis without Content-Type application/json is refused with the error envelope (code observed)',
    openQuestion: 'general-errors',
    async run(ctx) {
      const ex = await ctx.call({
        op: 'synthesizeSpeech',
        method: 'POST',
        path: '/v1/text-to-speech',
        body: JSON.stringify({ generate_text: shortText }),
        headers: { 'content-type': 'text/plain' },
      });
      expectRefusal(ctx, ex, { what: 'a synthesis sent as text/plain', question: 'general-errors' });
    },
  },
  {
    id: 'synthesis.errors.missing-text',
    section: '§2.4, §7.3',
    severity: 'should',
    title: 'a request without generate_text is refused (status and code observed)',
    openQuestion: 'synthesis-errors',
    async run(ctx) {
      const ex = await synthesize(
        ctx,
        'complete',
        { voice_id: 'system_default' },
        { probes: 'synthesis-errors/missing-text' },
      );
      expectRefusal(ctx, ex, { what: 'synthesis without generate_text', question: 'synthesis-errors' });
    },
  },
];

export const synthesisOpenCases: ConformanceCase[] = cases;
