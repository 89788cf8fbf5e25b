/**
 * Refusal probes: what a deployment must refuse or must take, each tried once per exploration in order
 * of what it is worth (the refusal tier's budget is small). A probe command picks the first kind not
 * yet tried when it first runs and keeps it, so that shrinking re-runs the same request.
 */
import fc from 'fast-check';
import type { KeyName } from '../../toolkit/run-state.js';
import type { Model } from '../model.js';
import type { Sequence } from '../sequence.js';
import { type IdKind, Save, type Saver } from './save.js';
import { StepCommand } from './step-command.js';
import { Upload, type UploadTwist } from './upload.js';

type ProbeKind =
  | { readonly upload: UploadTwist; readonly role?: 'ogg' | 'm4a' | 'webm' }
  | { readonly save: Saver; readonly id?: IdKind; readonly role?: 'silence' | 'short-2.9s' | 'corrupt' };

/** In order: the probes most deployments get wrong first. */
export const probes: readonly ProbeKind[] = [
  { upload: 'flac' },
  { upload: 'scene' },
  { upload: 'none', role: 'ogg' },
  { save: 'uploader', id: 'bad-chars' },
  { save: 'otherProject' },
  { upload: 'empty' },
  { upload: 'aac' },
  { save: 'otherEnv' },
  { save: 'otherOrg' },
  { save: 'noClone' },
  { upload: 'opus' },
  { upload: 'none', role: 'm4a' },
  { upload: 'none', role: 'webm' },
  { save: 'uploader', id: 'too-long' },
  { upload: 'no-extension' },
  { save: 'uploader', role: 'silence' },
  { save: 'uploader', role: 'short-2.9s' },
  { save: 'uploader', role: 'corrupt' },
];

const commandOf = (p: ProbeKind): StepCommand =>
  'upload' in p
    ? new Upload(p.role ?? 'valid-3s', 'main' as KeyName, p.upload)
    : new Save(0, p.id ?? 'fresh', p.save, p.role ?? 'valid-3s', p.role === undefined);

export class Probe extends StepCommand {
  private chosen: StepCommand | undefined;
  private index: number | undefined;
  step() {
    return undefined;
  }
  override check(): boolean {
    return true;
  }
  override async run(m: Model, real: Sequence): Promise<void> {
    if (!this.chosen) {
      // The first untried probe this sequence can run (a fourth save waits for another sequence).
      const i = probes.findIndex((p, n) => !real.tried.has(n) && ('upload' in p || commandOf(p).check(m)));
      if (i < 0) return;
      real.tried.add(i);
      this.index = i;
      this.chosen = commandOf(probes[i] as ProbeKind);
    }
    // A probe upload is not held to the per-sequence upload cap (that keeps the paid tier's uploads for saves).
    const sent = real.records.length;
    if (this.chosen instanceof Upload || this.chosen.check(m)) await this.chosen.run(m, real);
    // Refused by the budget (this tier's share of it): not tried, a later tier tries it again.
    if (this.index !== undefined && real.records.slice(sent).some((r) => r.skipped === 'budget'))
      real.tried.delete(this.index);
  }
  toString() {
    return `Probe(${this.chosen?.toString() ?? 'next'})`;
  }
}

export const probeCommands = [fc.constant(null).map(() => new Probe())];
