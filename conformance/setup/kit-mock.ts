import { limitedText } from '../toolkit/http.js';
import type { RunState } from '../toolkit/run-state.js';
import { errorText } from './preflight.js';

/** Bytes of a control API answer read at most. */
const controlAnswerLimit = 65_536;

/**
 * Recognises voice-kit's own mock behind a base URL (its control API answers GET /__mock/clock with
 * the envelope): a run then treats the target as the mock (its mock-only cases run) and starts from a
 * fresh upload window. A real deployment answers 404 or anything else, and nothing is changed there.
 */
export async function isKitMock(state: Pick<RunState, 'fetch' | 'baseUrl'>): Promise<boolean> {
  try {
    const res = await state.fetch(new Request(`${state.baseUrl}/__mock/clock`));
    // A control API answer is a few bytes: a deployment cannot make the setup read more.
    const body = JSON.parse(await limitedText(res, controlAnswerLimit)) as {
      succeed?: unknown;
      data?: { now?: unknown };
    } | null;
    return res.status === 200 && body?.succeed === true && typeof body.data?.now === 'number';
  } catch {
    return false;
  }
}

/**
 * Against voice-kit's mock, frees the upload quota of the main key's user (30 an hour, §8; a run
 * uploads ~18 times), so runs can follow each other. Returns what was done, for the progress output.
 *
 * @example
 * if (await isKitMock(state)) info(await freshUploadWindow(state));
 */
export async function freshUploadWindow(
  state: Pick<RunState, 'fetch' | 'baseUrl' | 'keys'>,
): Promise<string> {
  const res = await state.fetch(
    new Request(`${state.baseUrl}/__mock/rate-limit/reset`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ key: state.keys.main }),
    }),
  );
  const body = await limitedText(res, controlAnswerLimit);
  if (res.status === 200)
    return "voice-kit's mock control API answers there: the upload quota of the main key's user was reset for this run (POST /__mock/rate-limit/reset)";
  // Not a failure of the run: only uploads may meet an earlier run's spent quota (429).
  const why = /"error_message":"([^"]*)"/.exec(body)?.[1];
  return `note: voice-kit's mock control API answers there but kept the upload quota as it was (HTTP ${res.status}${why ? `: ${why}` : ''}); uploads may meet 429 if an earlier run spent it`;
}

/**
 * Against voice-kit's mock, after the run: a fresh upload window for the user of every key the run
 * had, so that the mock is not left refusing uploads (429) for an hour after the rate-limit group or
 * a long run. Voices are the cleanup's; the free clone uses the run consumed stay consumed (the
 * control API resets those only with everything else).
 */
export async function resetUploadQuotas(
  state: Pick<RunState, 'fetch' | 'baseUrl' | 'keys'>,
): Promise<string> {
  const failed: string[] = [];
  const roles = Object.entries(state.keys).filter(([, key]) => key !== undefined && key !== '');
  for (const [role, key] of roles) {
    try {
      const res = await state.fetch(
        new Request(`${state.baseUrl}/__mock/rate-limit/reset`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ key }),
        }),
      );
      await limitedText(res, controlAnswerLimit);
      if (res.status !== 200) failed.push(`${role}: HTTP ${res.status}`);
    } catch (e) {
      failed.push(`${role}: ${errorText(e)}`);
    }
  }
  const names = roles.map(([role]) => role).join(', ');
  return failed.length === 0
    ? `the upload quotas of the users of the run's keys (${names}) were reset after the run (POST /__mock/rate-limit/reset)`
    : `resetting the upload quotas after the run failed for ${failed.join('; ')}`;
}
