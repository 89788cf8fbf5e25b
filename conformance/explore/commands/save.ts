/**
 * Save commands (§4.2): a voice from an object key the sequence was given, with a fresh id, an id
 * valid only once trimmed and lowercased, a duplicate, an invalid one; from the main key's uploads,
 * by the main key, or by another scope's key or the key without Voice Cloning (both must be refused). Every save counts
 * as a creation before it is sent: one that should be refused may still be billed.
 */
import fc from 'fast-check';
import type { FixtureRole, KeyName } from '../../toolkit/run-state.js';
import { type Model, type ModelUpload, pick } from '../model.js';
import type { StepRecord } from '../sequence.js';
import type { Step } from '../step.js';
import { StepCommand } from './step-command.js';
import { Upload } from './upload.js';

export type IdKind = 'fresh' | 'spaced-upper' | 'duplicate' | 'too-long' | 'bad-chars';
/** Whose key saves: the uploader's (main), or another's (a scope the object key is not of, or no clone). */
export type Saver = 'uploader' | 'otherProject' | 'otherEnv' | 'otherOrg' | 'noClone';

const validRoles: ReadonlySet<FixtureRole> = new Set(['valid-3s', 'valid-10s', 'mp3-3s']);

export class Save extends StepCommand {
  constructor(
    readonly upload: number,
    readonly idKind: IdKind,
    readonly saver: Saver,
    /** The recording to upload first when `reuse` is off or the sequence has no upload of the main key. */
    readonly role: FixtureRole = 'valid-3s',
    readonly reuse = true,
  ) {
    super();
  }

  private get badId(): boolean {
    return this.idKind === 'too-long' || this.idKind === 'bad-chars';
  }

  override check(m: Readonly<Model>): boolean {
    return m.saves < m.saveLimit && this.voiceId(m) !== undefined;
  }

  private voiceId(m: Readonly<Model>): { sent: string; id: string } | undefined {
    const fresh = `{run}v${m.counter}`;
    if (this.idKind === 'fresh') return { sent: fresh, id: fresh };
    if (this.idKind === 'spaced-upper') return { sent: `  {run}V${m.counter} `, id: fresh };
    if (this.idKind === 'too-long') return { sent: `{run}${'l'.repeat(31)}`, id: '' };
    if (this.idKind === 'bad-chars') return { sent: `{run}bad id!${m.counter}`, id: '' };
    const existing = pick(
      m.voices.filter((v) => v.live),
      this.upload,
    );
    return existing && { sent: existing.id, id: '' };
  }

  step(m: Readonly<Model>): Step | undefined {
    // Only the main key's uploads: a valid save stays in one scope and one billing account.
    // An invalid id is tried with a valid recording: then only the id can be why it is refused.
    const mine = m.uploads.filter((u) => u.key === 'main' && (!this.badId || validRoles.has(u.role)));
    const upload = this.reuse ? pick(mine, this.upload) : mine.at(-1);
    const id = this.voiceId(m);
    if (!upload || !id || m.saves >= m.saveLimit) return undefined;
    const key: KeyName = this.saver === 'uploader' ? 'main' : this.saver;
    return {
      label: `save ${this.idKind} voice ${JSON.stringify(id.sent)} from the ${upload.role} upload of step ${upload.index + 1} (${key})`,
      op: 'saveVoice',
      key,
      json: { voice_id: id.sent },
      refAudio: { from: upload.index, field: 'object_key' },
    };
  }

  override async run(m: Model, real: Parameters<StepCommand['run']>[1]): Promise<void> {
    const created = this.voiceId(m)?.id ?? '';
    // An upload followed at once by a save: the upload is spent only when a save will use it.
    if (!this.reuse || !m.uploads.some((u) => u.key === 'main' && (!this.badId || validRoles.has(u.role)))) {
      const before = m.uploads.length;
      await new Upload(this.badId && !validRoles.has(this.role) ? 'valid-3s' : this.role, 'main', 'none').run(
        m,
        real,
      );
      if (m.uploads.length === before) return;
      if (!this.reuse) m.uploads.push(m.uploads.splice(before, 1)[0] as ModelUpload);
    }
    try {
      await super.run(m, real);
    } finally {
      m.saves += 1;
      if (this.idKind === 'fresh' || this.idKind === 'spaced-upper') m.counter += 1;
      const last = real.records.at(-1);
      if (created && this.saver === 'uploader' && last?.status === 200)
        m.voices.push({ id: created, live: true });
    }
  }

  override learn(_m: Model, _record: StepRecord): void {}

  toString() {
    return `Save(${this.upload}, ${this.idKind}, ${this.saver})`;
  }
}

const validRoleArb = fc.constantFrom<FixtureRole>('valid-3s', 'valid-10s', 'mp3-3s');

/** Saves that make voices the rest of a sequence uses (the paid tier). */
export const saveCommands = [
  fc.nat(7).map((u) => new Save(u, 'fresh', 'uploader')),
  fc.tuple(fc.nat(7), validRoleArb).map(([u, r]) => new Save(u, 'fresh', 'uploader', r, false)),
  fc.nat(7).map((u) => new Save(u, 'spaced-upper', 'uploader')),
  fc
    .tuple(fc.nat(7), fc.constantFrom<IdKind>('duplicate', 'fresh'))
    .map(([u, k]) => new Save(u, k, 'uploader')),
];
