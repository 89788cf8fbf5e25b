/**
 * run/: one run of the suite from start to finish. runConformance (here) checks the options, does the
 * setup, builds the run state and hands it to the runner (runner.ts), which orders and skips the cases
 * (select.ts), runs them, and deletes what the run created (cleanup.ts).
 * May import setup/, toolkit/, cases/ (the default case list), types.ts, openapi/ and profile/ (the run's
 * profile recorder); never cli/ or
 * reporters/ (a run returns values; printing and files are the caller's).
 */
import { randomBytes } from 'node:crypto';
import { pcmHeaders } from '../../openapi/contract.js';
import { createProfileRecorder } from '../../profile/recorder.js';
import type { Profile } from '../../profile/types.js';
import { allCases } from '../cases/index.js';
import { embeddedKeys, startEmbeddedMock } from '../setup/embedded-mock.js';
import { kitFixtures } from '../setup/fixture-source.js';
import { freshUploadWindow, isKitMock, resetUploadQuotas } from '../setup/kit-mock.js';
import { checkOptions } from '../setup/options-check.js';
import { preflight } from '../setup/preflight.js';
import { checkedReference } from '../setup/reference-check.js';
import { serveReference } from '../setup/reference-server.js';
import type { RunOptions } from '../setup/run-options.js';
import { defaultRequestTimeoutSeconds, type FetchLike, withTimeout } from '../toolkit/http.js';
import { suiteOracleOf } from '../toolkit/oracled.js';
import type { FixtureFile, RunKeys, RunState } from '../toolkit/run-state.js';
import { includeNames, type RunResult } from '../types.js';
import { runCases } from './runner.js';

/** The reference recording as the cases get it: the checked one, or the kit's valid 10 s fixture. */
function referenceSource(checked: FixtureFile | undefined): () => Promise<FixtureFile> {
  if (checked) return async () => checked;
  return async () => {
    const f = await kitFixtures('valid-10s');
    if (!f) throw new Error('the kit fixture valid-10s is missing: pass referenceAudio');
    return f;
  };
}

/** A run's results, and the profile of what it observed on the points the spec leaves open. */
export type ProfiledRunResult = RunResult & {
  /**
   * The deployment's choices on the spec-silent points the run saw (profile/points.ts), each with its
   * evidence; a point seen answered two ways is in `unsettled`. `voice-kit conformance --write-profile`
   * writes it.
   */
  readonly profile: Profile;
};

/** The address a profile names as its target: no credentials, no query. */
function targetOf(baseUrl: string): string {
  const url = URL.parse(baseUrl);
  return url ? `${url.origin}${url.pathname}`.replace(/\/+$/, '') : '';
}

/**
 * Run the conformance suite. Resolves with every result as a value; `ok` is false when a must case
 * failed. Voices the run created are deleted before it resolves.
 *
 * Before anything starts it throws a {@link ConformanceSetupError} for a run that could only end as a
 * misleading result: an unknown option or `keys` name, a `baseUrl` that is empty or not http(s), a
 * `baseUrl` without `apiKey`, an unknown `include` group, an `only` pattern that selects no case, a
 * `referenceAudio` that cannot be read, has an extension upload refuses (§4.1) or that the kit's
 * analyser refuses (§4.2), a `baseUrl` that gives no HTTP answer to one GET /v1/voice/list (any
 * status passes), and a key (`apiKey`, `keys.otherOrg`...) that the list refuses with 401. Without `baseUrl`, `apiKey` and `keys` replace the embedded mock's own keys (its
 * tests use that); the CLI refuses keys without a base URL, since there they are a forgotten flag.
 */
export async function runConformance(options: RunOptions = {}): Promise<ProfiledRunResult> {
  checkOptions(options, options.cases ?? allCases);
  const reference =
    options.referenceAudio === undefined ? undefined : await checkedReference(options.referenceAudio);
  const timeoutMs = (options.requestTimeoutSeconds ?? defaultRequestTimeoutSeconds) * 1000;
  const fetchFn: FetchLike = withTimeout(options.fetch ?? ((req) => fetch(req)), () => timeoutMs);
  if (options.baseUrl !== undefined) {
    // The key the cases will use: a `main` inside `keys` wins over apiKey, as below.
    const mainKey = (options.keys as Partial<RunKeys> | undefined)?.main ?? options.apiKey ?? '';
    const others = Object.entries(options.keys ?? {}).filter(([name, key]) => name !== 'main' && key);
    await preflight(fetchFn, options.baseUrl.replace(/\/+$/, ''), mainKey, {
      signal: options.signal,
      keys: Object.fromEntries(others.map(([name, key]) => [`keys.${name}`, key as string])),
    });
  }
  const embedded = options.baseUrl === undefined ? await startEmbeddedMock() : undefined;
  const referenceAudio = referenceSource(reference);
  // The embedded mock fetches ref_audio URLs, so the run can hand it one of its own (loopback).
  const served =
    embedded && options.referenceUrl === undefined ? await serveReference(await referenceAudio()) : undefined;
  try {
    const baseUrl = (options.baseUrl ?? embedded?.url ?? '').replace(/\/+$/, '');
    const keys: RunKeys = embedded
      ? { ...embeddedKeys, ...(options.apiKey ? { main: options.apiKey } : {}), ...options.keys }
      : { main: options.apiKey ?? '', ...options.keys };
    // One answer to "is the target voice-kit's mock" for the whole run: which cases run, what is reset
    // before and after, and what the progress lines and reports call the target.
    const kitMock = embedded !== undefined || (await isKitMock({ fetch: fetchFn, baseUrl }));
    const targetIsMock = options.targetIsMock ?? kitMock;
    const prefix = options.runPrefix ?? `vk_${randomBytes(3).toString('hex')}_`;
    const now = options.now ?? (() => Date.now());
    const state: RunState = {
      fetch: fetchFn,
      baseUrl,
      keys,
      prefix,
      targetIsMock,
      calibrate: options.calibrate ?? false,
      httpTransport: options.httpTransport ?? options.fetch === undefined,
      pcmHeaderNames: { ...pcmHeaders, ...options.pcmHeaders },
      referenceAudio,
      referenceUrl: options.referenceUrl ?? served?.url,
      fixture: kitFixtures,
      signal: options.signal,
      now,
      tracked: [],
      referenceKeys: new Map(),
      fixtureKeys: new Map(),
      voicesCreated: 0,
      liveVoices: new Set(),
      voicesDeleted: 0,
      uploads: 0,
      counter: 0,
      recorder: createProfileRecorder(),
      oracle: suiteOracleOf(keys, prefix, now),
    };
    const prepare = async () => (kitMock ? [await freshUploadWindow(state)] : []);
    // The embedded mock stops with the run; a mock that lives on gets its upload quotas back.
    const finish = async () => (kitMock && !embedded ? [await resetUploadQuotas(state)] : []);
    const allowBillable = options.allowBillable ?? embedded !== undefined;
    const include = options.include ?? (embedded ? includeNames : []);
    const result = await runCases(state, options.cases ?? allCases, {
      allowance: {
        keys,
        allowBillable,
        include,
        targetIsMock,
        referenceUrl: state.referenceUrl !== undefined,
      },
      only: options.only ?? [],
      embeddedMock: embedded !== undefined,
      prepare,
      finish,
      ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    });
    const observed = { by: 'conformance', target: targetOf(baseUrl), at: result.startedAt } as const;
    return { ...result, profile: state.recorder?.profile(observed) ?? createProfileRecorder().profile() };
  } finally {
    await served?.close();
    await embedded?.close();
  }
}
