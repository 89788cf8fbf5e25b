/**
 * The dashboard page: draws what GET /__mock/state and GET /__mock/requests answer, every second, and
 * sends the actions to the control API. Plain DOM: rows that live on (a voice's player, its speak box)
 * are kept by key and only their text is updated, so a poll never interrupts playback or typing.
 */
import { ControlClient, ControlError, takeToken } from './control-client.js';
import {
  curlOf,
  formatBytes,
  formatMs,
  formatTime,
  type LogEntry,
  type LogFilter,
  matches,
  statusClass,
} from './format.js';

interface Voice {
  organization: string;
  environment: string;
  voiceId: string;
  createdAt: number;
  account: string;
  sourceUpload: string | null;
  mediaType: string;
  voiceUrl: string;
}

interface Upload {
  objectKey: string;
  fileName: string;
  size: number;
  scene: string;
  organization: string;
  project: string;
  environment: string;
  user: string;
  uploadedAt: number;
  analysis: {
    verdict: string;
    container: string;
    codec: string | null;
    durationSeconds: number | null;
    reason: string | null;
  } | null;
}

interface StateView {
  clock: { now: number; iso: string };
  voices: Voice[];
  uploads: Upload[];
  quotas: { user: string; uploadsLeft: number; uploadsPerHour: number }[];
  accounts: {
    account: string;
    freeCloneUsesLeft: number;
    freeCloneUsesPerAccount: number;
    chargedCreations: { voice_id: string; created_at: number }[];
    synthesizedCharacters: number;
  }[];
  requests: { lastSeq: number; clears: number; size: number; capacity: number };
}

/** The page keeps at most this many log entries (the mock's own log is a ring of 200 by default). */
const logCap = 500;
const pollMs = 1000;

type Child = Node | string | null | undefined | false;

/** An element with attributes (`on…` functions become listeners) and children. */
function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string | number | boolean | EventListener | undefined> = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === false) continue;
    if (typeof value === 'function') element.addEventListener(name.slice(2), value);
    else element.setAttribute(name, value === true ? '' : String(value));
  }
  for (const child of children) if (child) element.append(child);
  return element;
}

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

// ---- the frame -------------------------------------------------------------------------------------

const clockText = h('span', { class: 'clock', title: "The mock's clock (UTC)" }, 'clock …');
const liveText = h('span', { class: 'live', role: 'status' }, 'connecting…');
const result = h('output', { class: 'result', 'aria-live': 'polite' });
const actions = h('div', { class: 'actions', role: 'toolbar', 'aria-label': 'Actions' });
const restoreInput = h('input', {
  type: 'file',
  accept: 'application/json,.json',
  hidden: true,
  'aria-label': 'Snapshot file to restore',
});

const tokenInput = h('input', { id: 'token', type: 'password', autocomplete: 'off', required: true });
const tokenForm = h(
  'form',
  { class: 'token', hidden: true, 'aria-label': 'Control token' },
  h(
    'p',
    {},
    'This mock’s control API asks for a token (X-Mock-Control-Token): the one its start line printed, or the --control-token it was given. The page keeps it in this tab only.',
  ),
  h('label', { for: 'token' }, 'Control token'),
  tokenInput,
  h('button', { type: 'submit' }, 'Use token'),
);
tokenForm.addEventListener('submit', (event) => {
  event.preventDefault();
  client.setToken(tokenInput.value.trim());
  tokenInput.value = '';
  tokenForm.hidden = true;
  void poll();
});

const voicesCount = h('span', { class: 'count' });
const voicesList = h('div', { class: 'voices' });
const uploadsCount = h('span', { class: 'count' });
const uploadsBody = h('tbody');
const quotasBody = h('tbody');
const ledgerBody = h('tbody');

const statusFilter = h(
  'select',
  { id: 'status-filter' },
  ...[
    ['', 'all'],
    ['2xx', '2xx'],
    ['4xx', '4xx'],
    ['5xx', '5xx'],
    ['dropped', 'dropped'],
  ].map(([value, label]) => h('option', { value }, label)),
);
const pathFilter = h('input', { id: 'path-filter', type: 'search', placeholder: '/v1/…' });
const logCount = h('span', { class: 'count' });
const logBody = h('tbody');

const section = (title: string, count: HTMLElement | null, ...children: Child[]) =>
  h('section', {}, h('h3', {}, title, count && ' ', count), ...children);

const table = (heads: string[], body: HTMLTableSectionElement) =>
  h('table', {}, h('thead', {}, h('tr', {}, ...heads.map((head) => h('th', { scope: 'col' }, head)))), body);

document.body.append(
  h('header', {}, h('h1', {}, 'voice-kit mock'), clockText, liveText, actions),
  tokenForm,
  result,
  h(
    'main',
    {},
    h(
      'section',
      { class: 'state', 'aria-labelledby': 'state-title' },
      h('h2', { id: 'state-title' }, 'State'),
      section('Custom voices', voicesCount, voicesList),
      section(
        'Uploads',
        uploadsCount,
        h(
          'div',
          { class: 'scroll' },
          table(['Object key', 'File', 'Size', 'Space', 'Analysis'], uploadsBody),
        ),
      ),
      h(
        'div',
        { class: 'pair' },
        section('Upload quotas', null, table(['User', 'Uploads left this hour'], quotasBody)),
        section(
          'Billing ledger',
          null,
          table(['Account', 'Free clones left', 'Charged', 'Characters'], ledgerBody),
        ),
      ),
    ),
    h(
      'section',
      { class: 'log', 'aria-labelledby': 'log-title' },
      h('h2', { id: 'log-title' }, 'Request log ', logCount),
      h(
        'div',
        { class: 'filters' },
        h('label', { for: 'status-filter' }, 'Status'),
        statusFilter,
        h('label', { for: 'path-filter' }, 'Path'),
        pathFilter,
      ),
      h(
        'div',
        { class: 'scroll log-scroll', tabindex: 0, 'aria-label': 'Requests, newest first' },
        table(['#', 'Time', 'Request', 'Key', 'Operation', 'Status', 'Duration', ''], logBody),
      ),
    ),
  ),
  restoreInput,
);

// ---- dialogs ---------------------------------------------------------------------------------------

const dialog = h('dialog', { 'aria-labelledby': 'dialog-title' });
document.body.append(dialog);

/**
 * Asks before an action: a modal <dialog> (focus moves in, Escape cancels) with the given fields.
 * Resolves with the form's values, or null when cancelled.
 */
function ask(title: string, text: string, fields: HTMLElement[] = []): Promise<FormData | null> {
  const form = h(
    'form',
    { method: 'dialog' },
    h('h2', { id: 'dialog-title' }, title),
    h('p', {}, text),
    ...fields,
    h(
      'div',
      { class: 'dialog-buttons' },
      h('button', { type: 'submit', value: 'cancel', formnovalidate: true }, 'Cancel'),
      h('button', { type: 'submit', value: 'confirm', class: 'primary' }, 'Confirm'),
    ),
  );
  dialog.replaceChildren(form);
  return new Promise((resolve) => {
    dialog.addEventListener(
      'close',
      () => resolve(dialog.returnValue === 'confirm' ? new FormData(form) : null),
      { once: true },
    );
    dialog.returnValue = '';
    dialog.showModal();
  });
}

const field = (name: string, label: string, value: string, type = 'number') =>
  h(
    'p',
    {},
    h('label', { for: `field-${name}` }, label),
    ' ',
    h('input', { id: `field-${name}`, name, type, value, required: true, min: 0, step: 'any' }),
  );

// ---- actions ---------------------------------------------------------------------------------------

/** Shows what the control API answered to an action (its data, or its error). */
function show(action: string, outcome: { data?: unknown; error?: unknown }) {
  result.className = `result ${outcome.error ? 'error' : 'ok'}`;
  if (outcome.error) {
    const error = outcome.error;
    const detail =
      error instanceof ControlError
        ? `HTTP ${error.status}${error.code === null ? '' : `, error_code ${error.code}`}: ${error.message}`
        : String(error);
    result.textContent = `${action} failed: ${detail}`;
    if (error instanceof ControlError && error.needsToken) tokenForm.hidden = false;
    return;
  }
  const data = JSON.stringify(outcome.data ?? null);
  result.textContent = `${action}: done — ${data.length > 300 ? `${data.slice(0, 300)}…` : data}`;
}

async function act(action: string, run: () => Promise<unknown>) {
  try {
    show(action, { data: await run() });
  } catch (error) {
    show(action, { error });
  }
  await poll();
}

function button(label: string, onclick: () => void, hint?: string) {
  return h('button', { type: 'button', title: hint, onclick: () => onclick() }, label);
}

actions.append(
  button(
    'Reset',
    async () => {
      const ok = await ask(
        'Reset the mock?',
        'Uploads, custom voices, quotas, the ledger, the request log and the clock go back to how the mock started.',
      );
      if (ok) await act('Reset', () => client.post('/__mock/reset'));
    },
    'POST /__mock/reset',
  ),
  button(
    'Snapshot',
    () =>
      void act('Snapshot', async () => {
        const response = await client.raw('/__mock/snapshot');
        const blob = await response.blob();
        const name = `voice-kit-snapshot-${new Date().toISOString().replace(/[:.]/g, '-')}.json`;
        const link = h('a', { href: URL.createObjectURL(blob), download: name });
        link.click();
        setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
        return { saved: name, bytes: blob.size };
      }),
    'GET /__mock/snapshot, saved as a file',
  ),
  button('Restore', () => restoreInput.click(), 'POST /__mock/restore with a snapshot file'),
  button(
    'Advance clock',
    async () => {
      const values = await ask('Advance the clock', "Moves the mock's clock forward.", [
        field('seconds', 'Seconds', '3600'),
      ]);
      if (values)
        await act('Advance clock', () =>
          client.post('/__mock/clock/advance', { seconds: Number(values.get('seconds')) }),
        );
    },
    'POST /__mock/clock/advance',
  ),
  button(
    'Reset quota',
    () => void act('Reset quota', () => client.post('/__mock/rate-limit/reset')),
    'POST /__mock/rate-limit/reset: a fresh upload window for every user',
  ),
);

restoreInput.addEventListener('change', async () => {
  const file = restoreInput.files?.[0];
  restoreInput.value = '';
  if (!file) return;
  const ok = await ask('Restore this snapshot?', `The mock's state is replaced by ${file.name}.`);
  if (!ok) return;
  await act('Restore', async () =>
    client.json('/__mock/restore', {
      method: 'POST',
      body: await file.text(),
      headers: { 'Content-Type': 'application/json' },
    }),
  );
});

/** Populate appears only on a mock whose control index lists it. */
async function addPopulate() {
  try {
    const index = await client.json<{ operations: { method: string; path: string }[] }>('/__mock/');
    if (!index.operations.some((op) => op.path === '/__mock/populate')) return;
    actions.append(
      button(
        'Populate',
        async () => {
          const values = await ask(
            'Populate the mock',
            'Adds custom voices made from generated recordings.',
            [field('voices', 'Voices', '5'), field('seed', 'Seed', '1')],
          );
          if (values)
            await act('Populate', () =>
              client.post('/__mock/populate', {
                voices: Number(values.get('voices')),
                seed: Number(values.get('seed')),
              }),
            );
        },
        'POST /__mock/populate',
      ),
    );
  } catch {
    // shown by the poll's status
  }
}

// ---- state -----------------------------------------------------------------------------------------

const voiceCards = new Map<string, { card: HTMLElement; meta: HTMLElement }>();

function voiceCard(voice: Voice): { card: HTMLElement; meta: HTMLElement } {
  const id = voice.voiceId;
  const meta = h('p', { class: 'meta' });
  const text = h('input', {
    type: 'text',
    id: `speak-${voiceCards.size}`,
    value: 'Hello! This is my own voice.',
    'aria-label': `Sentence to speak with ${id}`,
  });
  const spoken = h('audio', { controls: true, class: 'spoken', hidden: true });
  const speakButton = h('button', { type: 'submit', 'aria-label': `Speak with ${id}` }, 'Speak');
  const form = h('form', { class: 'speak' }, text, speakButton);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    speakButton.disabled = true;
    try {
      const response = await client.raw('/__mock/speak', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({
          organization: voice.organization,
          environment: voice.environment,
          voiceId: id,
          text: text.value,
        }),
      });
      const audio = await response.blob();
      if (spoken.src) URL.revokeObjectURL(spoken.src);
      spoken.src = URL.createObjectURL(audio);
      spoken.hidden = false;
      show(`Speak with ${id}`, { data: { type: audio.type, bytes: audio.size } });
      await spoken.play().catch(() => {});
    } catch (error) {
      show(`Speak with ${id}`, { error });
    } finally {
      speakButton.disabled = false;
    }
  });
  const card = h(
    'article',
    { class: 'voice', 'aria-label': `Voice ${id}` },
    h('h4', {}, id),
    meta,
    h(
      'div',
      { class: 'players' },
      h(
        'figure',
        {},
        h('figcaption', {}, 'Reference recording'),
        h('audio', {
          controls: true,
          preload: 'metadata',
          src: voice.voiceUrl,
          class: 'reference',
          'aria-label': `Reference recording of ${id}`,
        }),
      ),
      h('figure', {}, h('figcaption', {}, 'Speak'), form, spoken),
    ),
  );
  return { card, meta };
}

function drawVoices(voices: Voice[]) {
  voicesCount.textContent = `(${voices.length})`;
  const seen = new Set<string>();
  const cards: HTMLElement[] = [];
  for (const voice of voices) {
    const key = `${voice.organization}\u0000${voice.environment}\u0000${voice.voiceId}\u0000${voice.createdAt}`;
    seen.add(key);
    let kept = voiceCards.get(key);
    if (!kept) {
      kept = voiceCard(voice);
      voiceCards.set(key, kept);
    }
    kept.meta.textContent = `${voice.organization} / ${voice.environment} · made ${formatTime(voice.createdAt)} · ${
      voice.sourceUpload === null ? 'from a URL' : `from upload ${voice.sourceUpload}`
    } · account ${voice.account}`;
    cards.push(kept.card);
  }
  for (const key of [...voiceCards.keys()]) if (!seen.has(key)) voiceCards.delete(key);
  if (cards.length === 0) cards.push(h('p', { class: 'empty' }, 'No custom voices yet.'));
  const current = [...voicesList.children];
  if (current.length !== cards.length || current.some((c, i) => c !== cards[i]))
    voicesList.replaceChildren(...cards);
}

function drawUploads(uploads: Upload[]) {
  uploadsCount.textContent = `(${uploads.length})`;
  const rows = uploads.map((upload) => {
    const analysis = upload.analysis;
    const verdict = analysis
      ? h(
          'span',
          {
            class: analysis.verdict === 'accepted' ? 'verdict ok' : 'verdict bad',
            title: analysis.reason ?? '',
          },
          `${analysis.verdict} · ${analysis.container}${analysis.codec ? `/${analysis.codec}` : ''} · ${
            analysis.durationSeconds === null ? '?' : `${analysis.durationSeconds.toFixed(1)} s`
          }`,
        )
      : button(
          'Analyse',
          () =>
            void act(`Analyse ${upload.fileName}`, () =>
              client.post('/__mock/uploads/analyze', { objectKey: upload.objectKey }),
            ),
          'POST /__mock/uploads/analyze',
        );
    return h(
      'tr',
      {},
      h('td', { class: 'mono' }, upload.objectKey),
      h('td', {}, upload.fileName),
      h('td', { class: 'num' }, formatBytes(upload.size)),
      h('td', {}, `${upload.organization} / ${upload.project} / ${upload.environment}`),
      h('td', {}, verdict),
    );
  });
  if (rows.length === 0) rows.push(h('tr', {}, h('td', { colspan: 5, class: 'empty' }, 'No uploads yet.')));
  uploadsBody.replaceChildren(...rows);
}

function drawQuotasAndLedger(view: StateView) {
  quotasBody.replaceChildren(
    ...view.quotas.map((q) =>
      h('tr', {}, h('td', {}, q.user), h('td', { class: 'num' }, `${q.uploadsLeft} of ${q.uploadsPerHour}`)),
    ),
  );
  ledgerBody.replaceChildren(
    ...view.accounts.map((a) =>
      h(
        'tr',
        {},
        h('td', {}, a.account),
        h('td', { class: 'num' }, `${a.freeCloneUsesLeft} of ${a.freeCloneUsesPerAccount}`),
        h(
          'td',
          { class: 'num', title: a.chargedCreations.map((c) => c.voice_id).join(', ') },
          String(a.chargedCreations.length),
        ),
        h('td', { class: 'num' }, String(a.synthesizedCharacters)),
      ),
    ),
  );
}

/** Each part is redrawn only when its JSON changed, so a quiet mock costs the page nothing. */
const drawn = { voices: '', uploads: '', rest: '' };

function drawState(view: StateView) {
  clockText.textContent = `clock ${view.clock.iso.replace('T', ' ').replace(/\.\d+Z$/, 'Z')}`;
  const voices = JSON.stringify(view.voices.map(({ voiceUrl: _, ...v }) => v));
  if (voices !== drawn.voices) {
    drawn.voices = voices;
    drawVoices(view.voices);
  }
  const uploads = JSON.stringify(view.uploads);
  if (uploads !== drawn.uploads) {
    drawn.uploads = uploads;
    drawUploads(view.uploads);
  }
  const restJson = JSON.stringify([view.quotas, view.accounts]);
  if (restJson !== drawn.rest) {
    drawn.rest = restJson;
    drawQuotasAndLedger(view);
  }
}

// ---- request log -----------------------------------------------------------------------------------

let log: LogEntry[] = [];
/** Players of requests played again, kept across redraws of the log (bounded by the log's cap). */
const replayed = new Map<number, HTMLAudioElement>();
let after = 0;
let clears: number | undefined;

function timeline(stream: NonNullable<LogEntry['stream']>) {
  const total = Math.max(stream.durationMs, 0.1);
  const first = Math.min(100, (stream.ttfbMs / total) * 100);
  // Widths set through the CSSOM: the page's CSP refuses style attributes.
  const wait = h('span', { class: 'wait' });
  wait.style.width = `${first.toFixed(1)}%`;
  const body = h('span', { class: 'body' });
  body.style.width = `${(100 - first).toFixed(1)}%`;
  return h(
    'span',
    {
      class: 'timeline',
      title: `waiting ${formatMs(stream.ttfbMs)}, then the body for ${formatMs(stream.durationMs - stream.ttfbMs)}`,
    },
    wait,
    body,
  );
}

function logRow(entry: LogEntry): HTMLElement[] {
  const copy = h(
    'button',
    {
      type: 'button',
      class: 'small',
      'aria-label': `Copy as curl: request ${entry.seq}`,
      title: 'Copy as curl',
      onclick: async () => {
        const command = curlOf(entry, location.origin);
        // The clipboard exists only in a secure context (loopback is one; http://192.0.2.10 is not):
        // without it the command is shown to copy by hand.
        const copied = await navigator.clipboard?.writeText(command).then(
          () => true,
          () => false,
        );
        result.className = 'result ok';
        result.textContent = `${copied ? 'Copied' : 'Copy this'}: ${command}`;
      },
    },
    'curl',
  );
  const status = h(
    'td',
    { class: `status s${statusClass(entry.status)}` },
    entry.status === 0 ? 'dropped' : String(entry.status),
    entry.errorCode !== null && ` · ${entry.errorCode}`,
  );
  const details: Child[] = [];
  const cells: Child[] = [copy];
  if (entry.body !== null && entry.status === 200) {
    // Audio answers play from the log by sending the request again (deterministic: the same audio
    // while the voice is unchanged); the log itself keeps no audio.
    const play = h(
      'button',
      {
        type: 'button',
        class: 'small',
        'aria-label': `Play request ${entry.seq}`,
        title: 'Send it again (POST /__mock/requests/replay) and play the audio',
        onclick: async () => {
          play.disabled = true;
          try {
            const response = await client.raw('/__mock/requests/replay', {
              method: 'POST',
              headers: { 'Content-Type': 'application/json' },
              body: JSON.stringify({ seq: entry.seq }),
            });
            const audio = await response.blob();
            const old = replayed.get(entry.seq);
            if (old) URL.revokeObjectURL(old.src);
            const player = h('audio', {
              controls: true,
              class: 'replayed',
              'aria-label': `Audio of request ${entry.seq}`,
            });
            player.src = URL.createObjectURL(audio);
            replayed.set(entry.seq, player);
            drawLog();
            show(`Play request ${entry.seq}`, { data: { type: audio.type, bytes: audio.size } });
            await player.play().catch(() => {});
          } catch (error) {
            show(`Play request ${entry.seq}`, { error });
          } finally {
            play.disabled = false;
          }
        },
      },
      'play',
    );
    cells.unshift(play);
    const played = replayed.get(entry.seq);
    if (played) details.push(played);
  }
  const row = h(
    'tr',
    { 'data-seq': entry.seq },
    h('td', { class: 'num' }, String(entry.seq)),
    h('td', { class: 'mono nowrap' }, formatTime(entry.at).slice(11)),
    h('td', { class: 'mono' }, `${entry.method} ${entry.path}`),
    h('td', { class: 'mono nowrap' }, entry.key ?? '–'),
    h('td', {}, entry.operationId ?? '–'),
    status,
    h('td', { class: 'num' }, formatMs(entry.stream ? entry.stream.durationMs : entry.durationMs)),
    h('td', { class: 'nowrap' }, ...cells),
  );
  if (entry.errorMessage !== null)
    details.push(h('span', { class: 'error-text' }, `error ${entry.errorCode}: ${entry.errorMessage}`));
  if (entry.stream) {
    const s = entry.stream;
    details.push(
      h(
        'span',
        { class: 'stream' },
        `streamed: first byte ${formatMs(s.ttfbMs)} · ${s.chunks} chunks · ${formatBytes(s.bytes)} · ${formatMs(s.durationMs)}${
          s.complete ? '' : ' · cut short'
        } `,
        timeline(s),
      ),
    );
  }
  if (details.length === 0) return [row];
  return [row, h('tr', { class: 'detail' }, h('td', {}), h('td', { colspan: 7 }, ...details))];
}

const filter = (): LogFilter => ({ status: statusFilter.value, path: pathFilter.value });

function drawLog() {
  const shown = log.filter((entry) => matches(entry, filter())).reverse();
  logCount.textContent = `(${shown.length} of ${log.length})`;
  const rows = shown.flatMap(logRow);
  if (rows.length === 0)
    rows.push(
      h(
        'tr',
        {},
        h('td', { colspan: 8, class: 'empty' }, log.length ? 'No request matches.' : 'No requests yet.'),
      ),
    );
  logBody.replaceChildren(...rows);
}
statusFilter.addEventListener('change', drawLog);
pathFilter.addEventListener('input', drawLog);

/** How many polls each streamed entry has been read again for, waiting for its timing. */
const waits = new Map<number, number>();

/**
 * The first streamed entry whose body was still going out when it was read: it is read again until
 * its timing arrives (for at most a minute: an entry that left the mock's ring never gets it).
 */
function pending(): number | undefined {
  const open = log.find(
    (e) =>
      e.stream === null &&
      e.operationId === 'streamSpeech' &&
      e.status === 200 &&
      (waits.get(e.seq) ?? 0) < 60,
  );
  if (open) waits.set(open.seq, (waits.get(open.seq) ?? 0) + 1);
  return open?.seq;
}

// ---- polling ---------------------------------------------------------------------------------------

let polling: Promise<void> | undefined;

async function pollOnce() {
  try {
    const view = await client.json<StateView>('/__mock/state');
    if (clears !== view.requests.clears) {
      // A reset emptied the mock's log: start over.
      clears = view.requests.clears;
      log = [];
      after = 0;
      waits.clear();
      for (const player of replayed.values()) URL.revokeObjectURL(player.src);
      replayed.clear();
      drawLog();
    }
    const open = pending();
    const from = open === undefined ? after : Math.min(after, open - 1);
    const entries = await client.json<LogEntry[]>(`/__mock/requests?after=${from}`);
    if (entries.length > 0 || from !== after) {
      const bySeq = new Map(log.map((e) => [e.seq, e]));
      for (const entry of entries) bySeq.set(entry.seq, entry);
      log = [...bySeq.values()].sort((a, b) => a.seq - b.seq).slice(-logCap);
      const first = log[0]?.seq ?? Number.POSITIVE_INFINITY;
      for (const [seq, player] of replayed)
        if (seq < first) {
          URL.revokeObjectURL(player.src);
          replayed.delete(seq);
        }
      after = Math.max(after, ...entries.map((e) => e.seq));
      drawLog();
    } else if (logBody.childElementCount === 0) drawLog();
    drawState(view);
    liveText.textContent = 'live';
    liveText.className = 'live ok';
    tokenForm.hidden = true;
  } catch (error) {
    const needsToken = error instanceof ControlError && error.needsToken;
    tokenForm.hidden = !needsToken;
    liveText.textContent = needsToken ? 'needs the control token' : `offline: ${(error as Error).message}`;
    liveText.className = 'live bad';
  }
}

function poll(): Promise<void> {
  polling ??= pollOnce().finally(() => {
    polling = undefined;
  });
  return polling;
}

void addPopulate();
void poll();
setInterval(() => {
  if (!document.hidden) void poll();
}, pollMs);
