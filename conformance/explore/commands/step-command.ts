/**
 * What every command of commands/ shares: it turns the model into one step (or none), runs it through
 * the sequence, updates the model from the answer, and fails the run when a must verdict appeared.
 * One file per operation kind holds its commands and their arbitraries.
 */
import type { AsyncCommand } from 'fast-check';
import type { Model } from '../model.js';
import type { Sequence, StepRecord } from '../sequence.js';
import type { Step } from '../step.js';

/** A must verdict ends the run: fast-check then shrinks the sequence. */
export class BrokenMustRule extends Error {}

export abstract class StepCommand implements AsyncCommand<Model, Sequence> {
  /** The step this command sends in this model, or undefined when it has nothing to act on. */
  abstract step(m: Readonly<Model>, index: number): Step | undefined;
  /** What the answer teaches the model. */
  learn(_m: Model, _record: StepRecord, _index: number): void {}
  abstract toString(): string;

  check(m: Readonly<Model>): boolean {
    return this.step(m, 0) !== undefined;
  }

  async run(m: Model, real: Sequence): Promise<void> {
    const index = real.records.length;
    const step = this.step(m, index);
    if (!step) return;
    const record = await real.run(step);
    if (
      record.status !== undefined &&
      step.op !== 'listVoices' &&
      step.op !== 'synthesizeSpeech' &&
      step.op !== 'streamSpeech'
    )
      m.writes += 1;
    if (record.status !== undefined) this.learn(m, record, index);
    const must = record.verdicts.filter((v) => v.severity === 'must');
    if (must.length > 0) throw new BrokenMustRule(must.map((v) => `${v.rule}: ${v.seen}`).join('; '));
  }
}
