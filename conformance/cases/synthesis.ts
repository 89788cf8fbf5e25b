import { type AudioFormat, audioMediaTypes } from '../../openapi/contract.js';
import { createVoice, type Endpoint, endpoints, synthesize } from '../actions.js';
import { asEnvelope } from '../checks/envelope.js';
import { expectAudio, expectRefusal } from '../expect.js';
import type { ConformanceCase } from '../types.js';
import { shortText } from './support.js';

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
      const ex = await synthesize(ctx, e, { generate_text: shortText, speed: -1 });
      expectRefusal(ctx, ex, { what: `${e} synthesis with speed -1`, question: 'synthesis-errors' });
    },
  })),
  ...perEndpoint((e) => ({
    id: `synthesis.${e}.speed-zero`,
    section: '§2.4',
    severity: 'should',
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
        const ex = await synthesize(ctx, e, { generate_text: shortText, audio_format: format });
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
        await expectAudio(ctx, ex, `${e} synthesis as ${format}`, { streamed: streamed(e), expect: format });
      },
    }),
  ),
);

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
    for (const e of endpoints) {
      const plain = await synthesize(ctx, e, { generate_text: shortText, voice_id: id });
      await expectAudio(ctx, plain, `${e} synthesis with custom voice ${id}`, { streamed: streamed(e) });
      const body = { generate_text: `[laugh] ${shortText} [sigh] Thank you.`, voice_id: id, speed: 1.5 };
      const tagged = await synthesize(ctx, e, body);
      await expectAudio(ctx, tagged, `${e} synthesis with custom voice ${id}, speed 1.5 and tags`, {
        streamed: streamed(e),
      });
    }
  },
};

export const synthesisCases: ConformanceCase[] = [...basics, ...formats, customVoice];
