import { asEnvelope } from '../../judge/envelope.js';
import { type AudioFormat, audioMediaTypes } from '../../openapi/contract.js';
import { createVoice, type Endpoint, endpoints, synthesize } from '../toolkit/actions.js';
import type { CaseContext, ConformanceCase } from '../toolkit/context.js';
import { expectAudio, expectRefusal } from '../toolkit/expect.js';
import { longText, shortText } from './support.js';

const streamed = (e: Endpoint) => e === 'stream';
const section = (e: Endpoint) => (e === 'complete' ? '§2.5, §4.5' : '§2.5, §4.6');

/** Cases run once per endpoint: the rules of §2.5 are the same for both. */
function perEndpoint(make: (e: Endpoint) => ConformanceCase): ConformanceCase[] {
  return endpoints.map(make);
}

const basics: ConformanceCase[] = [
  ...perEndpoint((e) => ({
    id: `synthesis.${e}.system-default`,
    section: section(e),
    severity: 'must',
    title: `${e} synthesis with system_default answers 200 with audio that decodes as its Content-Type`,
    async run(ctx) {
      const ex = await synthesize(ctx, e, { generate_text: shortText, voice_id: 'system_default' });
      await expectAudio(ctx, ex, `${e} synthesis with system_default`, { streamed: streamed(e) });
    },
  })),
  ...perEndpoint((e) => ({
    id: `synthesis.${e}.default-voice`,
    section: '§2.4, §2.5',
    severity: 'must',
    title: `${e} synthesis without voice_id uses the default voice`,
    openQuestion: 'default-voice',
    async run(ctx) {
      const ex = await synthesize(ctx, e, { generate_text: shortText });
      await expectAudio(ctx, ex, `${e} synthesis without voice_id`, { streamed: streamed(e) });
    },
  })),
  ...perEndpoint((e) => ({
    id: `synthesis.${e}.negative-speed`,
    section: '§2.4, §7.3',
    severity: 'must',
    title: `${e} synthesis with a negative speed is refused with the error envelope`,
    openQuestion: 'synthesis-errors',
    async run(ctx) {
      const ex = await synthesize(
        ctx,
        e,
        { generate_text: shortText, speed: -1 },
        { probes: 'synthesis-errors/negative-speed' },
      );
      expectRefusal(ctx, ex, { what: `${e} synthesis with speed -1`, question: 'synthesis-errors' });
    },
  })),
  ...perEndpoint((e) => ({
    id: `synthesis.${e}.speed-zero`,
    section: '§2.4',
    // §2.4 states it: "omitted or 0 means the provider default".
    severity: 'must',
    title: `${e} synthesis with speed 0 (provider default) succeeds`,
    async run(ctx) {
      const ex = await synthesize(ctx, e, { generate_text: shortText, speed: 0 });
      await expectAudio(ctx, ex, `${e} synthesis with speed 0`, { streamed: streamed(e) });
    },
  })),
];

/** Each format the kit knows: when the deployment enables it, the audio must be what was asked for. */
const formats: ConformanceCase[] = endpoints.flatMap((e) =>
  (Object.keys(audioMediaTypes) as AudioFormat[]).map(
    (format): ConformanceCase => ({
      id: `synthesis.${e}.format-${format}`,
      section: section(e),
      severity: 'must',
      title: `${e} synthesis with audio_format ${format}: when enabled, ${format} audio${format === 'pcm' ? ' with the PCM headers' : ''}`,
      openQuestion: format === 'pcm' ? 'pcm-header-names' : 'allowed-options',
      async run(ctx) {
        const ex = await synthesize(
          ctx,
          e,
          { generate_text: shortText, audio_format: format },
          { probes: format === 'pcm' ? 'pcm-header-names' : 'allowed-options/refusal' },
        );
        if (ex.status !== 200) {
          const code = asEnvelope(ex.json)?.error_code;
          ctx.observe(
            'allowed-options',
            `${e} audio_format ${format}: refused, HTTP ${ex.status}, error_code ${code ?? 'none'}`,
          );
          return;
        }
        ctx.observe(
          'allowed-options',
          `${e} audio_format ${format}: enabled (${ex.headers.get('content-type')})`,
        );
        const got = await expectAudio(ctx, ex, `${e} synthesis as ${format}`, {
          streamed: streamed(e),
          expect: format,
        });
        if (format === 'pcm' && got) await crossCheckPcm(ctx, e, got.durationSeconds);
      },
    }),
  ),
);

/**
 * The PCM headers must describe the bytes: the duration they imply (bytes / (rate · channels · depth/8))
 * is within ±25 % of the WAV duration of the same request. A wrong rate or depth header is off by 2× or more.
 */
async function crossCheckPcm(ctx: CaseContext, e: Endpoint, pcmSeconds: number | null): Promise<void> {
  if (pcmSeconds === null) return; // the missing headers are already a finding
  const wav = await synthesize(ctx, e, { generate_text: shortText, audio_format: 'wav' });
  if (wav.status !== 200) {
    ctx.note(`WAV is not enabled (HTTP ${wav.status}): the PCM duration was not cross-checked`);
    return;
  }
  const judged = await expectAudio(ctx, wav, `${e} synthesis as wav (PCM cross-check)`, {
    streamed: streamed(e),
    expect: 'wav',
  });
  const wavSeconds = judged?.durationSeconds;
  if (!wavSeconds) return;
  const ratio = pcmSeconds / wavSeconds;
  ctx.check(
    ratio >= 0.75 && ratio <= 1.25,
    `${e} PCM: the headers make the body ${pcmSeconds.toFixed(2)} s long, the WAV of the same request is ${wavSeconds.toFixed(2)} s (ratio ${ratio.toFixed(2)}): the sample rate, channel or bit-depth header is wrong`,
    { request: wav.request },
  );
}

const customVoice: ConformanceCase = {
  id: 'synthesis.custom-voice.speed-and-tags',
  section: '§1, §2.4, §4.5, §4.6',
  severity: 'must',
  title: 'a custom voice works on both endpoints with speed and expression tags',
  openQuestion: 'expression-tag-syntax',
  needs: { billable: true },
  async run(ctx) {
    const id = await createVoice(ctx, 'tts');
    if (!id) return;
    const plainBytes: Partial<Record<Endpoint, Uint8Array>> = {};
    for (const e of endpoints) {
      const plain = await synthesize(ctx, e, { generate_text: shortText, voice_id: id });
      await expectAudio(ctx, plain, `${e} synthesis with custom voice ${id}`, { streamed: streamed(e) });
      if (plain.status === 200) plainBytes[e] = plain.bytes;
      const body = { generate_text: `[laugh] ${shortText} [sigh] Thank you.`, voice_id: id, speed: 1.5 };
      const tagged = await synthesize(ctx, e, body);
      await expectAudio(ctx, tagged, `${e} synthesis with custom voice ${id}, speed 1.5 and tags`, {
        streamed: streamed(e),
      });
    }
    // The custom voice is used, not validated and ignored: its audio differs from the default voice's.
    const custom = plainBytes.complete;
    for (const [label, voice] of [
      ['system_default', { voice_id: 'system_default' }],
      ['no voice_id (the default voice)', {}],
    ] as const) {
      const other = await synthesize(ctx, 'complete', { generate_text: shortText, ...voice });
      if (!custom || other.status !== 200) continue;
      ctx.check(
        !Buffer.from(custom).equals(Buffer.from(other.bytes)),
        `synthesis with custom voice ${id} gave the same bytes as ${label}: the custom voice is ignored`,
        { request: other.request },
      );
    }
    // speed works for the custom voice as for a system voice (§1): when 2 shortens system_default, it
    // shortens the custom voice too.
    const duration = async (voice: string, speed?: number) => {
      const ex = await synthesize(ctx, 'complete', {
        generate_text: longText(300),
        voice_id: voice,
        ...(speed === undefined ? {} : { speed }),
      });
      const got = await expectAudio(
        ctx,
        ex,
        `complete synthesis with ${voice} at speed ${speed ?? 'default'}`,
        {
          streamed: false,
        },
      );
      return got?.durationSeconds ?? null;
    };
    const sys1 = await duration('system_default');
    const sys2 = await duration('system_default', 2);
    const own1 = await duration(id);
    const own2 = await duration(id, 2);
    if (sys1 && sys2 && own1 && own2) {
      const sysRatio = sys2 / sys1;
      const ownRatio = own2 / own1;
      ctx.note(
        `speed 2 / default duration: system_default ${sysRatio.toFixed(2)}, ${id} ${ownRatio.toFixed(2)}`,
      );
      if (sysRatio < 0.85) {
        ctx.check(
          ownRatio < 0.9,
          `speed 2 shortens system_default to ${sysRatio.toFixed(2)} of its length but custom voice ${id} only to ${ownRatio.toFixed(2)}: speed is ignored for custom voices`,
        );
      }
    } else ctx.note('durations could not be read; the speed comparison was not made');
  },
};

/** §2.4: `speed` controls the pace; a faster speed of the same text gives shorter audio (decoded). */
const fasterIsShorter: ConformanceCase = {
  id: 'synthesis.complete.speed-faster-shorter',
  section: '§2.4',
  severity: 'should',
  title: 'a faster speed (2.0 against 1.0, same text and voice) gives shorter audio',
  openQuestion: 'speed-range',
  async run(ctx) {
    const seconds = async (speed: number) => {
      const ex = await synthesize(ctx, 'complete', { generate_text: longText(300), speed });
      const got = await expectAudio(ctx, ex, `complete synthesis at speed ${speed}`, { streamed: false });
      return got?.durationSeconds ?? null;
    };
    const normal = await seconds(1);
    const fast = await seconds(2);
    if (!normal || !fast) {
      ctx.note('durations could not be read; the speed comparison was not made');
      return;
    }
    ctx.note(`speed 1.0: ${normal.toFixed(2)} s, speed 2.0: ${fast.toFixed(2)} s`);
    ctx.check(
      fast < normal * 0.9,
      `speed 2.0 gave ${fast.toFixed(2)} s of audio and speed 1.0 ${normal.toFixed(2)} s for the same text: a faster speed should give shorter audio`,
    );
  },
};

export const synthesisCases: ConformanceCase[] = [...basics, ...formats, customVoice, fasterIsShorter];
