/**
 * The dashboard page's wiring: draws what GET /__mock/state and GET /__mock/requests answer, every
 * second, and sends the actions to the control API. Plain DOM; each part is made by its own file and
 * gets what it uses (the control client, the page's frame, the feedback) passed in:
 *
 * - page.ts: the frame (clock, live status, token form, result line, dialog); dom.ts builds elements
 * - feedback.ts: asking before an action, saying how it went
 * - actions-bar.ts: the header's actions
 * - state-panels.ts (voice-cards.ts): voices, uploads, quotas and the ledger; state-poll.ts reads them
 * - request-log.ts (log-row.ts): the request log, its filters, curl and play
 */
import { createActionsBar } from './actions-bar.js';
import { ControlClient, ControlError, takeToken } from './control-client.js';
import { h } from './dom.js';
import { createFeedback } from './feedback.js';
import { createPage } from './page.js';
import { createRequestLog } from './request-log.js';
import { createStatePanels } from './state-panels.js';
import { statePoll } from './state-poll.js';

const pollMs = 1000;
/** How long the page waits for the first poll before it shows itself anyway (a slow or refusing mock). */
const firstPaintWaitMs = 1500;

const client = new ControlClient(sessionStorage);

/** Takes a `#token=…` from the address into this tab's storage, and out of the address bar. */
function tokenFromAddress(): void {
  const rest = takeToken(location.hash, sessionStorage);
  if (rest !== location.hash) history.replaceState(null, '', `${location.pathname}${location.search}${rest}`);
}
tokenFromAddress();
// A start line's address pasted into this same tab only changes the fragment: no new page load.
window.addEventListener('hashchange', () => {
  tokenFromAddress();
  void poll();
});

const page = createPage((token) => {
  client.setToken(token);
  void poll();
});
const feedback = createFeedback(page, poll);
const actions = createActionsBar(client, feedback);
const state = createStatePanels(client, feedback, page.clock);
const requestLog = createRequestLog(client, feedback);

const { live, tokenForm } = page;
let polling: Promise<void> | undefined;
const readState = statePoll(client);

async function pollOnce() {
  try {
    const view = await readState();
    await requestLog.update(view.requests.clears);
    state.draw(view);
    live.textContent = 'live';
    live.className = 'live ok';
    tokenForm.hidden = true;
  } catch (error) {
    const needsToken = error instanceof ControlError && error.needsToken;
    tokenForm.hidden = !needsToken;
    live.textContent = needsToken ? 'needs the control token' : `offline: ${(error as Error).message}`;
    live.className = 'live bad';
  }
}

function poll(): Promise<void> {
  polling ??= pollOnce().finally(() => {
    polling = undefined;
  });
  return polling;
}

void actions.offerPopulate();
// The page is put in only once the first poll has answered (or after firstPaintWaitMs), so its first
// paint shows the mock's state, not an empty frame that says "connecting…".
await Promise.race([poll(), new Promise((resolve) => setTimeout(resolve, firstPaintWaitMs))]);
document.body.append(
  h('header', {}, h('h1', {}, 'voice-kit mock'), page.clock, page.live, actions.toolbar),
  page.tokenForm,
  page.result,
  h('main', {}, state.element, requestLog.element),
  actions.restoreInput,
  page.dialog,
);
setInterval(() => {
  if (!document.hidden) void poll();
}, pollMs);
