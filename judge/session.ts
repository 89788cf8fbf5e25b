/**
 * The session model: what earlier exchanges established, per scope. Voices saved and deleted (with the
 * exchange that did it), object keys and the scope that uploaded them, `remainingFreeCloneCount`
 * observations with the creations, refusals and uploads between them, the list walk in progress, and
 * which synthesis options were accepted. Pure data, updated after each exchange is judged.
 *
 * Tenancy: an observer sees API keys, not organizations. Without a `keys` map each key is its own
 * scope (and cross-key rules are off); with one, keys of one organization, project and environment
 * share a scope and the object-key rule compares scopes. Keys never appear in what the model says: a
 * key without a name is shown masked (`key#1a2b3c4d`).
 */

/** Where a key belongs (§5.2, §5.4). `account` is its billing account (default: its organization). */
export interface KeyScope {
  readonly organization: string;
  readonly project: string;
  readonly environment: string;
  readonly account?: string;
}

/** One voice's last lifecycle event in a scope. */
export type VoiceEvent = { readonly kind: 'saved' | 'deleted'; readonly at: number };

/** The free-use ledger of one account since its last observation. */
export interface FreeUses {
  readonly count: number;
  readonly at: number;
  readonly creations: number[];
  readonly refused: number[];
  readonly uploads: number[];
}

/** A list walk from the first page: the voices seen, the cursor expected next, whether a write broke it. */
export interface ListWalk {
  readonly from: number;
  next: string | undefined;
  readonly seen: Set<string>;
  broken: boolean;
}

/** What was accepted in synthesis: each option value with the exchange that first showed it. */
export interface Accepted {
  readonly options: Map<string, number>;
  readonly voices: Map<string, number>;
  /** The longest accepted text and where. */
  longestText: { readonly length: number; readonly at: number } | undefined;
}

/** The state of one voice scope. */
export interface ScopeState {
  readonly label: string;
  readonly voices: Map<string, VoiceEvent>;
  walk: ListWalk | undefined;
  readonly accepted: Accepted;
}

/** Entries a session keeps per table (voices of a scope, object keys): the oldest go first. */
export const sessionCap = 10_000;

/** Set `key` in a bounded table: a long session against a busy deployment stays bounded. */
export function remember<K, V>(table: Map<K, V>, key: K, value: V, cap = sessionCap): void {
  table.delete(key);
  table.set(key, value);
  if (table.size > cap) table.delete(table.keys().next().value as K);
}

/** A stable mask of a key: never the key, the same mask for the same key (FNV-1a, 32 bits). */
export function maskKey(key: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193) >>> 0;
  return `key#${h.toString(16).padStart(8, '0')}`;
}

/**
 * The model. `scopeOf` names the voice scope of a key, `accountOf` its billing account, and
 * `tenancyOf` its organization/project/environment when the keys are known (else undefined).
 */
export class Session {
  private readonly scopes = new Map<string, ScopeState>();
  private readonly accounts = new Map<string, FreeUses>();
  /** object_key → the tenancy label that uploaded it and the exchange. */
  readonly objectKeys = new Map<string, { readonly tenancy: string; readonly at: number }>();
  /** How many exchanges were recorded. */
  exchanges = 0;
  /** Masks of the keys seen (at most a few are counted: only "more than one" matters). */
  private readonly keysSeen = new Set<string>();

  constructor(private readonly keys: Readonly<Record<string, KeyScope>> | undefined) {}

  /** Note a key that sent a request. */
  sawKey(key: string): void {
    if (this.keysSeen.size < 8) this.keysSeen.add(maskKey(key));
  }

  /**
   * Whether another key seen may share this key's billing account unknown to the model: without a
   * `keys` map, two keys seen may be one account, so a count that fell further than this key's
   * creations explain is no evidence.
   */
  get accountsUncertain(): boolean {
    return this.keys === undefined && this.keysSeen.size > 1;
  }

  /** Whether the keys are known, so that scopes can be compared across keys. */
  get knowsTenancy(): boolean {
    return this.keys !== undefined;
  }

  /** The tenancy label of a key: `org/project/env` when known, else the masked key. */
  tenancyOf(key: string): string {
    const k = this.keys?.[key];
    return k ? `${k.organization}/${k.project}/${k.environment}` : maskKey(key);
  }

  /** The voice scope of a key (voices are judged within the narrowest scope: one project space). */
  scope(key: string): ScopeState {
    const label = this.tenancyOf(key);
    let s = this.scopes.get(label);
    if (!s) {
      s = {
        label,
        voices: new Map(),
        walk: undefined,
        accepted: { options: new Map(), voices: new Map(), longestText: undefined },
      };
      this.scopes.set(label, s);
    }
    return s;
  }

  /** The billing account label of a key. */
  accountOf(key: string): string {
    const k = this.keys?.[key];
    return k ? (k.account ?? k.organization) : maskKey(key);
  }

  freeUses(account: string): FreeUses | undefined {
    return this.accounts.get(account);
  }

  observeFreeUses(account: string, count: number, at: number): void {
    this.accounts.set(account, { count, at, creations: [], refused: [], uploads: [] });
  }

  /** Every scope with a key of this account (a creation or upload in any of them counts against it). */
  noteOnAccount(account: string, what: 'creations' | 'refused' | 'uploads', at: number): void {
    this.accounts.get(account)?.[what].push(at);
  }

  /** A write in a scope breaks any walk of its list in progress. */
  breakWalks(scope: ScopeState): void {
    if (scope.walk) scope.walk.broken = true;
  }

  /** A read-only view for reports: how many voices each scope holds, by last event. */
  summary(): Record<string, { saved: number; deleted: number }> {
    const out: Record<string, { saved: number; deleted: number }> = {};
    for (const [label, s] of this.scopes) {
      const events = [...s.voices.values()];
      out[label] = {
        saved: events.filter((e) => e.kind === 'saved').length,
        deleted: events.filter((e) => e.kind === 'deleted').length,
      };
    }
    return out;
  }
}
