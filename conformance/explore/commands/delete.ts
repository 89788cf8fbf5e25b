/**
 * Delete commands (§4.4): a voice the sequence saved (again after it is gone: idempotent), by the main
 * key or another organization's (which must not remove it), and an id that never existed.
 */
import fc from 'fast-check';
import type { KeyName } from '../../toolkit/run-state.js';
import { type Model, pick } from '../model.js';
import type { StepRecord } from '../sequence.js';
import type { Step } from '../step.js';
import { StepCommand } from './step-command.js';

export class Delete extends StepCommand {
  constructor(
    readonly at: number,
    readonly key: KeyName,
  ) {
    super();
  }
  step(m: Readonly<Model>): Step | undefined {
    const voice = pick(m.voices, this.at);
    if (!voice) return undefined;
    return {
      label: `delete voice ${JSON.stringify(voice.id)} (${this.key})`,
      op: 'deleteVoice',
      key: this.key,
      voice: voice.id,
    };
  }
  override learn(m: Model, record: StepRecord): void {
    const voice = pick(m.voices, this.at);
    if (voice && record.status === 200 && this.key === 'main') voice.live = false;
  }
  toString() {
    return `Delete(${this.at}, ${this.key})`;
  }
}

export class DeleteMissing extends StepCommand {
  step(): Step {
    return {
      label: 'delete a voice that never existed',
      op: 'deleteVoice',
      key: 'main',
      voice: '{run}ghost',
    };
  }
  toString() {
    return 'DeleteMissing';
  }
}

export const deleteCommands = [
  fc.nat(7).map((i) => new Delete(i, 'main')),
  fc.nat(7).map((i) => new Delete(i, 'main')),
  fc.nat(7).map((i) => new Delete(i, 'otherOrg')),
];
export const freeDeleteCommands = [fc.constant(new DeleteMissing())];
