/**
 * The explorer's model of the deployment during one sequence: what it uploaded (by step), the voices
 * it saved and deleted, the list cursors it holds.
 * Commands read it to choose their next step (a voice it created, a cursor it was given) and update it
 * from the answers; the judge, not the model, says what is right.
 */
import type { FixtureRole, KeyName } from '../toolkit/run-state.js';

export interface ModelUpload {
  /** The step whose answer holds the object key. */
  readonly index: number;
  readonly role: FixtureRole;
  readonly key: KeyName;
}

export interface ModelVoice {
  /** With `{run}`, normalized. */
  readonly id: string;
  live: boolean;
}

export interface ModelCursor {
  readonly index: number;
  readonly key: KeyName;
  readonly pageSize: number | undefined;
}

export interface Model {
  readonly uploads: ModelUpload[];
  readonly voices: ModelVoice[];
  readonly cursors: ModelCursor[];
  /** Saves this sequence sent (a sequence spends at most `saveLimit` creations). */
  saves: number;
  /** Creations this sequence may spend: `maxSaves`, more for the climb (commands/steer.ts). */
  saveLimit: number;
  /** Uploads this sequence sent (at most `maxUploads`: the upload budget must last for its saves). */
  uploadsSent: number;
  /** Numbers fresh voice ids. */
  counter: number;
  /** Writes sent (uploads, saves, deletes): a list observes something new only after one. */
  writes: number;
  /** First pages listed, by key and page size, with the write count they were listed at. */
  readonly listed: Map<string, number>;
  /** Cursors (by the step that gave them) already followed. */
  readonly followed: Set<number>;
}

export const newModel = (saveLimit: number = maxSaves): Model => ({
  uploads: [],
  voices: [],
  cursors: [],
  saves: 0,
  saveLimit,
  uploadsSent: 0,
  counter: 0,
  writes: 0,
  listed: new Map(),
  followed: new Set(),
});

/** Creations one sequence may spend: the budget must last for more sequences and for shrinking. */
export const maxSaves = 3;
export const maxUploads = 2;

/** The i-th element, wrapping (generated picks are any natural number). */
export const pick = <T>(items: readonly T[], i: number): T | undefined =>
  items.length === 0 ? undefined : items[i % items.length];
