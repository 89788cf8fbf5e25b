import type { MockSnapshot, MockState } from './mock-state.js';
import { type StateChange, type StateRow, type StateTable, stateTables } from './state-store.js';
import type { UploadRecord } from './uploads.js';
import type { VoiceRecord } from './voices.js';

/**
 * The rows a durable store keeps, and the change each state transition makes to them. Kept here, by
 * the core, so that every store (SQLite, a shared one later) stores exactly the same thing.
 */

/** The key of a row for a voice space and id (JSON: ids and spaces may hold any character). */
const voiceKey = (space: string, voiceId: string): string => JSON.stringify([space, voiceId]);

/** Tables a reset or a restore empties; `meta` keeps the signing secret and is rewritten instead. */
const stateTablesButMeta: readonly StateTable[] = stateTables.filter((table) => table !== 'meta');

/** What a store holds besides the snapshot: the clock's advance and the voice_url signing secret. */
export interface PersistedState {
  readonly snapshot: MockSnapshot;
  /** Milliseconds the clock has been advanced (POST /__mock/clock/advance) since the last reset. */
  readonly clockAdvancedMs: number;
  readonly urlSecret: string | undefined;
  /** False for a store that holds nothing yet (a new state directory). */
  readonly stored: boolean;
}

const sequences = (state: MockState): StateRow[] => [
  { table: 'meta', key: 'uploadSequence', value: state.uploads.lastSequence },
  { table: 'meta', key: 'voiceSequence', value: state.voices.lastSequence },
];

/** A successful upload: its record, the user's counted upload times, the key sequence. */
export function uploadChange(state: MockState, record: UploadRecord): StateChange {
  return {
    put: [
      { table: 'upload', key: record.objectKey, value: record },
      { table: 'rate', key: record.user, value: state.rateLimit.timesOf(record.user) },
      ...sequences(state),
    ],
  };
}

/** A voice created: the voice, its account's ledger, the sequences. */
export function voiceChange(state: MockState, voice: VoiceRecord): StateChange {
  return {
    put: [
      { table: 'voice', key: voiceKey(voice.space, voice.voiceId), value: voice },
      { table: 'ledger', key: voice.account, value: state.ledger.usageOf(voice.account) },
      ...sequences(state),
    ],
  };
}

/** A voice deleted: gone, with the sequence its cursor resumes from. */
export function voiceRemovedChange(voice: VoiceRecord): StateChange {
  const key = voiceKey(voice.space, voice.voiceId);
  return {
    remove: [{ table: 'voice', key }],
    put: [{ table: 'deleted', key, value: voice.sequence }],
  };
}

/** Several voices created at once (populate): one change, one durable write. */
export function voicesChange(state: MockState, voices: readonly VoiceRecord[]): StateChange {
  return {
    put: [
      ...voices.map((voice) => ({
        table: 'voice' as const,
        key: voiceKey(voice.space, voice.voiceId),
        value: voice,
      })),
      ...sequences(state),
    ],
  };
}

/** An account's synthesized characters, after a synthesis counted its own. */
export function charactersChange(state: MockState, account: string): StateChange {
  return { put: [{ table: 'characters', key: account, value: state.ledger.charactersOf(account) }] };
}

/** A fresh upload window for one user, or for everyone. */
export function rateResetChange(user?: string): StateChange {
  return user === undefined ? { clear: ['rate'] } : { remove: [{ table: 'rate', key: user }] };
}

/** The clock's total advance since the last reset. */
export function clockChange(advancedMs: number): StateChange {
  return { put: [{ table: 'meta', key: 'clockAdvancedMs', value: advancedMs }] };
}

export function urlSecretChange(secret: string): StateChange {
  return { put: [{ table: 'meta', key: 'urlSecret', value: secret }] };
}

/** Everything replaced by a snapshot's state (a restore; a reset is the restore of an empty state). */
export function snapshotChange(snapshot: MockSnapshot, clockAdvancedMs?: number): StateChange {
  const put: StateRow[] = [
    ...snapshot.uploads.records.map((r) => ({ table: 'upload' as const, key: r.objectKey, value: r })),
    ...snapshot.voices.voices.map((v) => ({
      table: 'voice' as const,
      key: voiceKey(v.space, v.voiceId),
      value: v,
    })),
    ...Object.entries(snapshot.voices.deleted).flatMap(([space, ids]) =>
      Object.entries(ids).map(([id, sequence]) => ({
        table: 'deleted' as const,
        key: voiceKey(space, id),
        value: sequence,
      })),
    ),
    ...Object.entries(snapshot.uploadTimes).map(([user, times]) => ({
      table: 'rate' as const,
      key: user,
      value: times,
    })),
    ...Object.entries(snapshot.ledger).map(([account, usage]) => ({
      table: 'ledger' as const,
      key: account,
      value: usage,
    })),
    { table: 'meta', key: 'uploadSequence', value: snapshot.uploads.sequence },
    { table: 'meta', key: 'voiceSequence', value: snapshot.voices.sequence },
  ];
  if (clockAdvancedMs !== undefined)
    put.push({ table: 'meta', key: 'clockAdvancedMs', value: clockAdvancedMs });
  return { clear: stateTablesButMeta, put };
}

/**
 * The state a store's rows describe. The snapshot is checked by MockState.restore like any other;
 * a row of an unknown table or key throws (a newer layout, or damage).
 *
 * @example
 * const persisted = persistedState(await store.read());
 */
export function persistedState(rows: readonly StateRow[]): PersistedState {
  const snapshot: MockSnapshot = {
    version: 1,
    uploads: { sequence: 0, records: [] },
    voices: { sequence: 0, voices: [], deleted: {} },
    uploadTimes: {},
    ledger: {},
  };
  let clockAdvancedMs = 0;
  let urlSecret: string | undefined;
  // The characters row wins over the count in the ledger row, whichever comes first.
  const counted = new Map<string, number>();
  const characters = (account: string) =>
    counted.has(account) ? { synthesizedCharacters: counted.get(account) as number } : {};
  for (const { table, key, value } of rows) {
    switch (table) {
      case 'upload':
        snapshot.uploads.records.push(value as UploadRecord);
        break;
      case 'voice':
        snapshot.voices.voices.push(value as VoiceRecord);
        break;
      case 'deleted': {
        const [space, id] = JSON.parse(key) as [string, string];
        snapshot.voices.deleted[space] = { ...snapshot.voices.deleted[space], [id]: value as number };
        break;
      }
      case 'rate':
        snapshot.uploadTimes[key] = value as number[];
        break;
      case 'ledger':
        snapshot.ledger[key] = { ...(value as MockSnapshot['ledger'][string]), ...characters(key) };
        break;
      case 'characters':
        counted.set(key, value as number);
        if (snapshot.ledger[key]) snapshot.ledger[key].synthesizedCharacters = value as number;
        break;
      case 'meta':
        if (key === 'uploadSequence') snapshot.uploads.sequence = value as number;
        else if (key === 'voiceSequence') snapshot.voices.sequence = value as number;
        else if (key === 'clockAdvancedMs') clockAdvancedMs = value as number;
        else if (key === 'urlSecret') urlSecret = value as string;
        else throw new TypeError(`unknown meta row "${key}"`);
        break;
      default:
        throw new TypeError(`unknown table "${String(table)}"`);
    }
  }
  if (!Number.isInteger(clockAdvancedMs) || clockAdvancedMs < 0)
    throw new TypeError('meta.clockAdvancedMs: must be an integer >= 0');
  if (urlSecret !== undefined && typeof urlSecret !== 'string')
    throw new TypeError('meta.urlSecret: must be a string');
  for (const [account, synthesizedCharacters] of counted)
    snapshot.ledger[account] ??= { freeUsesConsumed: 0, chargedCreations: [], synthesizedCharacters };
  // Voices in the order they were made, as the list shows them.
  snapshot.voices.voices.sort((a, b) => a.sequence - b.sequence);
  return { snapshot, clockAdvancedMs, urlSecret, stored: rows.length > 0 };
}
