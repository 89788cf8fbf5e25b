/**
 * What an exploration needs before its first sequence, from the suite's setup: the embedded mock when
 * there is no base URL, the preflight of a deployment, the run's keys, a fresh upload window on the
 * kit's mock, the budget's limits (creations only with --allow-billable).
 */
import { randomBytes } from 'node:crypto';
import { embeddedKeys, startEmbeddedMock } from '../setup/embedded-mock.js';
import { freshUploadWindow, isKitMock, resetUploadQuotas } from '../setup/kit-mock.js';
import { preflight } from '../setup/preflight.js';
import { ConformanceSetupError } from '../setup/setup-error.js';
import type { RunKeys } from '../toolkit/run-state.js';
import type { BudgetLimits } from './budget.js';
import { type ExploreOptions, exploreDefaults } from './options.js';
import type { Wire } from './wire.js';

export interface Prepared {
  readonly wire: Wire;
  readonly embedded: boolean;
  readonly kitMock: boolean;
  /** Stops the embedded mock, or gives the kit's mock its upload quotas back. */
  close(): Promise<void>;
}

const count = (name: string, v: number | undefined, fallback: number): number => {
  if (v === undefined) return fallback;
  if (!Number.isInteger(v) || v < 0)
    throw new ConformanceSetupError(name, `must be a whole number ≥ 0, got ${v}`);
  return v;
};

/** The budget's limits from the options; throws for a creation budget without allowBillable. */
export function limitsOf(options: ExploreOptions, embedded: boolean): BudgetLimits {
  const billable = options.allowBillable ?? embedded;
  if (!billable && (options.budgetCreations ?? 0) > 0)
    throw new ConformanceSetupError('budgetCreations', 'creates voices: it needs --allow-billable');
  const seconds = options.maxTimeSeconds ?? exploreDefaults.maxTimeSeconds;
  if (!(seconds > 0))
    throw new ConformanceSetupError('maxTimeSeconds', `must be more than 0 seconds, got ${seconds}`);
  const timeout = options.requestTimeoutSeconds;
  if (timeout !== undefined && !(timeout > 0))
    throw new ConformanceSetupError('requestTimeoutSeconds', `must be more than 0 seconds, got ${timeout}`);
  return {
    chars: count('budgetChars', options.budgetChars, exploreDefaults.budgetChars),
    uploads: count('budgetUploads', options.budgetUploads, exploreDefaults.budgetUploads),
    creations: billable
      ? count('budgetCreations', options.budgetCreations, exploreDefaults.billableCreations)
      : 0,
    maxTimeMs: seconds * 1000,
  };
}

export async function prepare(options: ExploreOptions): Promise<Prepared> {
  const fetchFn = options.fetch ?? ((req: Request) => fetch(req));
  const given = options.baseUrl?.replace(/\/+$/, '');
  if (given !== undefined) await preflight(fetchFn, given, options.apiKey ?? '', { signal: options.signal });
  const mock = given === undefined ? await startEmbeddedMock() : undefined;
  const keys: RunKeys = mock
    ? { ...embeddedKeys, ...options.keys, ...(options.apiKey ? { main: options.apiKey } : {}) }
    : { ...options.keys, main: options.apiKey ?? '' };
  const wire: Wire = {
    fetch: fetchFn,
    baseUrl: given ?? mock?.url ?? '',
    keys,
    prefix: options.runPrefix ?? `vk_${randomBytes(3).toString('hex')}_`,
    signal: options.signal,
  };
  const kitMock = mock !== undefined || (await isKitMock(wire));
  if (kitMock) options.onProgress?.(await freshUploadWindow(wire));
  return {
    wire,
    embedded: mock !== undefined,
    kitMock,
    close: async () => {
      if (mock) await mock.close();
      else if (kitMock) await resetUploadQuotas(wire);
    },
  };
}
