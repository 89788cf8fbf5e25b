/** List commands (§4.3): a first page, the next page of a held cursor, a page exactly as large as the list. */
import fc from 'fast-check';
import type { KeyName } from '../../toolkit/run-state.js';
import { type Model, pick } from '../model.js';
import type { StepRecord } from '../sequence.js';
import type { Step } from '../step.js';
import { StepCommand } from './step-command.js';

/** A page with more holds a cursor (the sequence keeps its value, wire.ts keepAnswer). */
function learnPage(m: Model, record: StepRecord, index: number, key: KeyName, pageSize: number | undefined) {
  if (record.data?.has_more === true && typeof record.data.next_voice_id === 'string')
    m.cursors.push({ index, key, pageSize });
}

export class ListFirst extends StepCommand {
  constructor(
    readonly key: KeyName,
    readonly pageSize: number | undefined,
  ) {
    super();
  }
  step(): Step {
    return {
      label: `list the first page${this.pageSize ? ` of ${this.pageSize}` : ''} (${this.key})`,
      op: 'listVoices',
      key: this.key,
      ...(this.pageSize !== undefined ? { pageSize: this.pageSize } : {}),
    };
  }
  /** Only when something was written since the same first page was last read: it observes something new. */
  override check(m: Readonly<Model>): boolean {
    return m.listed.get(`${this.key}/${this.pageSize ?? 'default'}`) !== m.writes;
  }
  override learn(m: Model, record: StepRecord, index: number): void {
    m.listed.set(`${this.key}/${this.pageSize ?? 'default'}`, m.writes);
    learnPage(m, record, index, this.key, this.pageSize);
  }
  toString() {
    return `ListFirst(${this.key}, ${this.pageSize ?? 'default'})`;
  }
}

export class ListNext extends StepCommand {
  constructor(readonly at: number) {
    super();
  }
  step(m: Readonly<Model>): Step | undefined {
    const c = pick(m.cursors, this.at);
    if (!c) return undefined;
    return {
      label: `list the page after the one of step ${c.index + 1} (${c.key})`,
      op: 'listVoices',
      key: c.key,
      ...(c.pageSize !== undefined ? { pageSize: c.pageSize } : {}),
      cursor: { from: c.index, field: 'next_voice_id' },
    };
  }
  /** A cursor is followed once: the page it opens is new the first time only. */
  override check(m: Readonly<Model>): boolean {
    const c = pick(m.cursors, this.at);
    return c !== undefined && !m.followed.has(c.index);
  }
  override learn(m: Model, record: StepRecord, index: number): void {
    const c = pick(m.cursors, this.at);
    if (c) m.followed.add(c.index);
    if (c) learnPage(m, record, index, c.key, c.pageSize);
  }
  toString() {
    return `ListNext(${this.at})`;
  }
}

/** A page exactly as large as the sequence's own live voices plus what was there: it fills exactly. */
export class ListExact extends StepCommand {
  step(m: Readonly<Model>): Step | undefined {
    const live = m.voices.filter((v) => v.live).length;
    if (live === 0 || live > 20) return undefined;
    return {
      label: `list a page of ${live}, the number of live voices saved`,
      op: 'listVoices',
      key: 'main',
      pageSize: live,
    };
  }
  override learn(m: Model, record: StepRecord, index: number): void {
    learnPage(m, record, index, 'main', record.step.pageSize);
  }
  toString() {
    return 'ListExact';
  }
}

const pageSizes = fc.constantFrom<number | undefined>(undefined, 1, 1, 2, 3, 20);

export const listCommands = [
  fc
    .tuple(fc.constantFrom<KeyName>('main', 'main', 'main', 'otherOrg'), pageSizes)
    .map(([k, s]) => new ListFirst(k, s)),
  fc.nat(7).map((i) => new ListNext(i)),
  fc.constant(new ListExact()),
];

/** Small pages of the main key and their next pages: cursors held across writes. */
export const walkCommands = [
  fc.constantFrom(1, 2).map((s) => new ListFirst('main', s)),
  fc.nat(7).map((i) => new ListNext(i)),
  fc.nat(7).map((i) => new ListNext(i)),
];
