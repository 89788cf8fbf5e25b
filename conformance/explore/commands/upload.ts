/**
 * Upload commands (§4.1): the kit's recordings, valid and ones a save must refuse, under their names
 * or renamed to an extension upload refuses, with another scene or an empty file, with any key.
 */
import fc from 'fast-check';
import type { FixtureRole, KeyName } from '../../toolkit/run-state.js';
import { type Model, maxUploads } from '../model.js';
import type { StepRecord } from '../sequence.js';
import type { Step } from '../step.js';
import { StepCommand } from './step-command.js';

/** Small recordings: what a save can use, and what it must refuse (explore-rules.ts). */
export const uploadRoles = [
  'valid-3s',
  'valid-3s',
  'valid-10s',
  'mp3-3s',
  'silence',
  'short-2.9s',
  'corrupt',
] as const;

const fileNames: Readonly<Partial<Record<FixtureRole, string>>> = {
  'valid-3s': 'valid-3s.wav',
  'valid-10s': 'valid-10s.wav',
  'mp3-3s': 'speech-3s.mp3',
  silence: 'silence-10s.wav',
  'short-2.9s': 'too-short-2.9s.wav',
  corrupt: 'corrupt.wav',
  mp3: 'speech.mp3',
  m4a: 'speech.m4a',
  ogg: 'speech.ogg',
  webm: 'speech.webm',
};

/** How the upload differs from a valid one. */
export type UploadTwist = 'none' | 'flac' | 'aac' | 'opus' | 'no-extension' | 'scene' | 'empty';

export class Upload extends StepCommand {
  constructor(
    readonly role: FixtureRole,
    readonly key: KeyName,
    readonly twist: UploadTwist,
  ) {
    super();
  }
  step(): Step {
    const name = fileNames[this.role] ?? `${this.role}.wav`;
    const stem = name.replace(/\.[^.]+$/, '');
    const fileName =
      this.twist === 'flac' || this.twist === 'aac' || this.twist === 'opus'
        ? `${stem}.${this.twist}`
        : this.twist === 'no-extension'
          ? stem
          : name;
    return {
      label: `upload ${fileName}${this.twist === 'scene' ? ' with scene "image"' : ''}${this.twist === 'empty' ? ' (empty)' : ''} (${this.key})`,
      op: 'uploadFile',
      key: this.key,
      upload: {
        role: this.role,
        fileName,
        scene: this.twist === 'scene' ? 'image' : 'audio',
        ...(this.twist === 'empty' ? { empty: true } : {}),
      },
    };
  }
  override check(m: Readonly<Model>): boolean {
    return m.uploadsSent < maxUploads;
  }
  override async run(m: Model, real: Parameters<StepCommand['run']>[1]): Promise<void> {
    m.uploadsSent += 1;
    await super.run(m, real);
  }
  override learn(m: Model, record: StepRecord, index: number): void {
    if (typeof record.data?.object_key === 'string')
      m.uploads.push({ index, role: this.role, key: this.key });
  }
  toString() {
    return `Upload(${this.role}, ${this.key}, ${this.twist})`;
  }
}

const keys = fc.constantFrom<KeyName>('main', 'main', 'main', 'main', 'otherProject', 'otherEnv', 'otherOrg');
const twists = fc.constantFrom<UploadTwist>('flac', 'aac', 'opus', 'no-extension', 'scene', 'scene', 'empty');

/** The uploads tier: what upload must refuse (weighed most), the other containers it must take, any upload. */
export const uploadCommands = [
  twists.map((t) => new Upload('valid-3s', 'main', t)),
  twists.map((t) => new Upload('valid-3s', 'main', t)),
  fc.constantFrom<FixtureRole>('ogg', 'm4a', 'webm', 'mp3').map((r) => new Upload(r, 'main', 'none')),
  fc.constantFrom<FixtureRole>('ogg', 'm4a', 'webm', 'mp3').map((r) => new Upload(r, 'main', 'none')),
  fc.tuple(fc.constantFrom<FixtureRole>(...uploadRoles), keys).map(([r, k]) => new Upload(r, k, 'none')),
];

/** In the paid tier a save uploads what it needs (save.ts): one arbitrary upload keeps the variety. */
export const paidUploadCommands = [
  fc.tuple(fc.constantFrom<FixtureRole>(...uploadRoles), keys).map(([r, k]) => new Upload(r, k, 'none')),
];
