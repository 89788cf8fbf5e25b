/**
 * Deleting what an exploration created: after each sequence the voices it saved (with the key that
 * saved them), and at the end every voice any key of the run lists under the run prefix (a save the
 * deployment should have refused but accepted is caught there). Nothing without the prefix is touched.
 * These requests are the explorer's housekeeping: not judged, not budgeted (deletes are free).
 */
import { apiKeyHeader } from '../../openapi/contract.js';
import { errorText } from '../setup/preflight.js';
import { send } from '../toolkit/http.js';
import type { KeyName } from '../toolkit/run-state.js';
import type { Wire } from './wire.js';

/** Pages a sweep follows at most: a broken cursor cannot loop it. */
const maxPages = 50;

async function deleteOne(wire: Wire, key: KeyName, voiceId: string): Promise<number> {
  const req = new Request(`${wire.baseUrl}/v1/voice/${encodeURIComponent(voiceId)}`, {
    method: 'DELETE',
    headers: { [apiKeyHeader]: wire.keys[key] ?? '' },
  });
  return (await send(wire.fetch, req)).status;
}

/** Ids the key lists under the prefix. */
async function listed(wire: Wire, key: KeyName, prefix: string): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < maxPages; page++) {
    const query = new URLSearchParams({ page_size: '20', ...(cursor ? { voice_id: cursor } : {}) });
    const req = new Request(`${wire.baseUrl}/v1/voice/list?${query}`, {
      headers: { [apiKeyHeader]: wire.keys[key] ?? '' },
    });
    const data = (
      (await send(wire.fetch, req)).json as
        | { data?: { list?: unknown; has_more?: unknown; next_voice_id?: unknown } }
        | undefined
    )?.data;
    if (!data || !Array.isArray(data.list)) break;
    for (const v of data.list) {
      const id = (v as { voice_id?: unknown }).voice_id;
      if (typeof id === 'string' && id.startsWith(prefix)) ids.push(id);
    }
    if (data.has_more !== true || typeof data.next_voice_id !== 'string') break;
    cursor = data.next_voice_id;
  }
  return ids;
}

/** Delete the voices one sequence saved; returns the failures. */
export async function deleteCreated(
  wire: Wire,
  created: readonly { key: KeyName; voiceId: string }[],
): Promise<string[]> {
  const failures: string[] = [];
  for (const { key, voiceId } of created) {
    try {
      const status = await deleteOne(wire, key, voiceId);
      if (status !== 200) failures.push(`DELETE ${voiceId} (${key}): HTTP ${status}`);
    } catch (e) {
      failures.push(`DELETE ${voiceId} (${key}): ${errorText(e)}`);
    }
  }
  return failures;
}

/** Delete every voice any key lists under the run prefix; returns how many and the failures. */
export async function sweepRun(
  wire: Wire,
  prefix: string,
): Promise<{ deleted: number; left: number; failures: string[] }> {
  const failures: string[] = [];
  let deleted = 0;
  let left = 0;
  const keys = (Object.keys(wire.keys) as KeyName[]).filter((k) => wire.keys[k]);
  for (const key of keys) {
    try {
      for (const id of await listed(wire, key, prefix)) {
        const status = await deleteOne(wire, key, id);
        if (status === 200) deleted++;
        else failures.push(`DELETE ${id} (${key}): HTTP ${status}`);
      }
      left += (await listed(wire, key, prefix)).length;
    } catch (e) {
      failures.push(`sweeping with ${key}: ${errorText(e)}`);
    }
  }
  return { deleted, left, failures };
}
