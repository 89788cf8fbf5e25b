/**
 * Synthesis commands (§4.5, §4.6): complete or streamed, with a voice the sequence saved (live or
 * deleted) or the default voice, a speed (0, positive, or negative, which must be refused), and short
 * texts. Characters count against the budget before the request is sent, refused or not.
 */
import fc from 'fast-check';
import { type Model, pick } from '../model.js';
import type { Step } from '../step.js';
import { StepCommand } from './step-command.js';

export type VoiceChoice = 'live' | 'deleted' | 'default';

/** Short texts: the budget buys many sequences; a tag written inside the text is usable (§1.4). */
export const texts = ['Hello there.', 'One, two.', 'Good day.', 'Test voice.', 'Welcome!'] as const;

/** The longest text: a sequence synthesizes it first (explore.ts), so the judge knows every later text fits. */
export const calibrationText = texts[0];

export class Synthesize extends StepCommand {
  constructor(
    readonly voice: VoiceChoice,
    readonly at: number,
    readonly stream: boolean,
    readonly speed: number | undefined,
    readonly text: number,
    /** An output format (§2.4; which are enabled is open: the judge says should for one never accepted). */
    readonly format: string | undefined = undefined,
  ) {
    super();
  }
  step(m: Readonly<Model>): Step | undefined {
    const voice =
      this.voice === 'default'
        ? undefined
        : pick(
            m.voices.filter((v) => v.live === (this.voice === 'live')),
            this.at,
          );
    if (this.voice !== 'default' && !voice) return undefined;
    const json = {
      generate_text: texts[this.text % texts.length],
      ...(voice ? { voice_id: voice.id } : {}),
      ...(this.speed !== undefined ? { speed: this.speed } : {}),
      ...(this.format !== undefined ? { audio_format: this.format } : {}),
    };
    const what = voice ? `${this.voice} voice ${JSON.stringify(voice.id)}` : 'the default voice';
    return {
      label: `${this.stream ? 'stream' : 'synthesize'} with ${what}${this.speed !== undefined ? `, speed ${this.speed}` : ''}${this.format ? ` as ${this.format}` : ''}`,
      op: this.stream ? 'streamSpeech' : 'synthesizeSpeech',
      key: 'main',
      json,
    };
  }
  toString() {
    return `Synthesize(${this.voice}, ${this.at}, ${this.stream ? 'stream' : 'complete'}, ${this.speed ?? '-'}, ${this.text}, ${this.format ?? '-'})`;
  }
}

const speeds = fc.constantFrom<number | undefined>(undefined, undefined, undefined, 0, 1.25, -1);

export const synthesizeCommands = [
  fc.tuple(fc.nat(7), fc.boolean(), fc.nat(4)).map(([i, s, t]) => new Synthesize('live', i, s, undefined, t)),
  fc
    .tuple(fc.nat(7), fc.boolean(), speeds, fc.nat(4))
    .map(([i, s, sp, t]) => new Synthesize('live', i, s, sp, t)),
  fc
    .tuple(fc.nat(7), fc.boolean(), speeds, fc.nat(4))
    .map(([i, s, sp, t]) => new Synthesize('live', i, s, sp, t)),
  fc
    .tuple(fc.nat(7), fc.boolean(), fc.nat(4))
    .map(([i, s, t]) => new Synthesize('deleted', i, s, undefined, t)),
  fc.tuple(fc.boolean(), speeds, fc.nat(4)).map(([s, sp, t]) => new Synthesize('default', 0, s, sp, t)),
  fc
    .tuple(fc.boolean(), fc.nat(4), fc.constantFrom('wav', 'mp3', 'pcm'))
    .map(([s, t, f]) => new Synthesize('default', 0, s, undefined, t, f)),
  fc
    .tuple(fc.boolean(), fc.nat(7), fc.nat(4), fc.constantFrom('wav', 'mp3', 'pcm'))
    .map(([s, i, t, f]) => new Synthesize('live', i, s, undefined, t, f)),
];
