/**
 * The page's read of the mock's state, every second: GET /__mock/state?voices=none (small: the clock,
 * uploads, quotas, the ledger, and `voicesTag`), and the voices (GET /__mock/state/voices) only when
 * that tag moved. A mock holding thousands of voices is then not asked to send them every second.
 */
import type { ControlClient } from './control-client.js';
import type { StateView, Voice } from './state-view.js';

/** GET /__mock/state?voices=none: the view without its voices, and the tag of the voices. */
type StateSummary = Omit<StateView, 'voices'> & { voicesTag: string };

/** Makes the poll's reader: each call answers the whole view, the voices as last read. */
export function statePoll(client: ControlClient): () => Promise<StateView> {
  let voices: Voice[] = [];
  let held: string | undefined;
  return async () => {
    const view = await client.json<StateSummary>('/__mock/state?voices=none');
    if (view.voicesTag !== held) {
      const response = await client.raw('/__mock/state/voices');
      voices = ((await response.json()) as { data: { voices: Voice[] } }).data.voices;
      // The tag of what was read: the voices may have moved on since the summary.
      held = response.headers.get('ETag')?.replace(/^"|"$/g, '') ?? view.voicesTag;
    }
    return { ...view, voices };
  };
}
