/**
 * A request of the log as table rows: the request's own row (its marks: forced by Prefer, a mock
 * warning, the contract verdict; its open, curl and play buttons), a line under it when there is more
 * to say (its error, its stream's timing, the player of its audio played again), and once opened (a
 * click on the row, or its open button from the keyboard) the whole exchange (exchange-detail.ts).
 */
import type { ControlClient } from './control-client.js';
import { type Child, h } from './dom.js';
import { exchangeDetail, forcedText, verdictText } from './exchange-detail.js';
import type { Feedback } from './feedback.js';
import {
  curlOf,
  type ExchangeDetail,
  formatBytes,
  formatMs,
  formatTime,
  type LogEntry,
  statusClass,
} from './format.js';

/** What a row needs beyond its entry. */
export interface RowContext {
  client: ControlClient;
  feedback: Feedback;
  /** Players of requests played again, kept across redraws of the log. */
  replayed: Map<number, HTMLAudioElement>;
  /** Draws the log again (a request just played has a player to show). */
  redraw(): void;
  /** The requests opened, and what GET /__mock/requests/<seq> said of each (an Error when it could not). */
  opened: Map<number, ExchangeDetail | Error | null>;
}

/** Longer segments of a path (ids, cursors, query values) may break inside, so a row never scrolls sideways. */
const unbrokenSegmentChars = 16;

/**
 * A path that wraps only after a `/`, `?` or `&`: each segment unbroken (not at its hyphens either),
 * but one longer than `unbrokenSegmentChars`, which breaks where the column ends.
 */
function pathText(method: string, target: string): Child[] {
  const parts: Child[] = [`${method} `];
  for (const piece of target.split(/(?<=[/?&])/))
    parts.push(
      h('span', { class: piece.length > unbrokenSegmentChars ? 'segment long' : 'segment' }, piece),
      h('wbr'),
    );
  return parts;
}

/** The row's marks: forced by Prefer, the mock's warnings, the contract verdict. */
function marks(entry: LogEntry): HTMLElement {
  const verdict = entry.verdict;
  const broken = verdict?.ok === false;
  return h(
    'span',
    { class: 'marks' },
    entry.forced.length > 0 &&
      h('span', { class: 'badge forced', title: forcedText(entry) }, `forced: ${entry.forced.join(', ')}`),
    entry.warnings.length > 0 &&
      h('span', { class: 'badge warning', title: entry.warnings.join('\n') }, 'mock warning'),
    verdict &&
      verdict.checked !== 'nothing' &&
      h(
        'span',
        { class: `badge ${broken ? 'broken' : 'kept'}`, title: verdictText(entry) },
        broken ? 'contract ✗' : 'contract ✓',
      ),
  );
}

/** Reads an opened request's detail again (its stream has ended since). */
async function reread(entry: LogEntry, { client, opened, redraw }: RowContext) {
  opened.set(entry.seq, null);
  try {
    const detail = await client.json<ExchangeDetail>(`/__mock/requests/${entry.seq}`);
    if (opened.has(entry.seq)) opened.set(entry.seq, detail);
  } catch (error) {
    if (opened.has(entry.seq)) opened.set(entry.seq, error as Error);
  }
  redraw();
}

/** Opens or closes a request's detail, reading it from the mock the first time. */
async function toggle(entry: LogEntry, { client, opened, redraw }: RowContext) {
  if (opened.has(entry.seq)) {
    opened.delete(entry.seq);
    redraw();
    return;
  }
  opened.set(entry.seq, null);
  redraw();
  try {
    opened.set(entry.seq, await client.json<ExchangeDetail>(`/__mock/requests/${entry.seq}`));
  } catch (error) {
    if (opened.has(entry.seq)) opened.set(entry.seq, error as Error);
  }
  redraw();
}

export function logRow(entry: LogEntry, context: RowContext): HTMLElement[] {
  const status = h(
    'td',
    { class: `status s${statusClass(entry.status)}` },
    entry.status === 0 ? 'dropped' : String(entry.status),
    entry.errorCode !== null && ` · ${entry.errorCode}`,
  );
  const details: Child[] = [];
  const cells: Child[] = [copyButton(entry, context.feedback)];
  if (entry.body !== null && entry.status === 200) {
    // Audio answers play from the log by sending the request again (deterministic: the same audio
    // while the voice is unchanged); the log itself keeps no audio.
    cells.unshift(playButton(entry, context));
    const played = context.replayed.get(entry.seq);
    if (played) details.push(played);
  }
  const isOpen = context.opened.has(entry.seq);
  const opener = h(
    'button',
    {
      type: 'button',
      class: 'small open',
      'aria-expanded': String(isOpen),
      'aria-label': `${isOpen ? 'Close' : 'Open'} request ${entry.seq}`,
      title: 'The whole request and answer',
      onclick: () => void toggle(entry, context),
    },
    `${isOpen ? '▾' : '▸'} ${entry.seq}`,
  );
  const row = h(
    'tr',
    { 'data-seq': entry.seq, class: isOpen ? 'opened' : undefined },
    h('td', { class: 'num' }, opener),
    h('td', { class: 'mono nowrap' }, formatTime(entry.at).slice(11)),
    h('td', { class: 'mono path' }, ...pathText(entry.method, `${entry.path}${entry.query}`), marks(entry)),
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
  // A click anywhere on the row but its buttons opens it (the open button is the keyboard's way).
  row.addEventListener('click', (event) => {
    if (!(event.target as Element).closest('button, a, audio')) void toggle(entry, context);
  });
  const rows = [row];
  if (details.length > 0 && !isOpen)
    rows.push(h('tr', { class: 'detail' }, h('td', {}), h('td', { colspan: 7 }, ...details)));
  if (isOpen)
    rows.push(
      h('tr', { class: 'detail journal' }, h('td', { colspan: 8 }, openedPart(entry, context, details))),
    );
  return rows;
}

function openedPart(entry: LogEntry, context: RowContext, details: Child[]): Child {
  const detail = context.opened.get(entry.seq);
  if (detail === null || detail === undefined)
    return h('p', { class: 'muted' }, `Reading request ${entry.seq}…`);
  if (detail instanceof Error)
    return h('p', { class: 'error-text' }, `Request ${entry.seq} could not be read: ${detail.message}`);
  // Opened while its body was still streaming: read it again once the body has ended, for its size
  // and duration (set to null first, so it is read again once).
  if (detail.stream === null && entry.stream !== null) void reread(entry, context);
  // The entry as polled is newer than the detail read once (a stream's timing arrives after it ends).
  return exchangeDetail({ ...detail, ...entry }, details);
}

function copyButton(entry: LogEntry, feedback: Feedback) {
  return h(
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
        feedback.say(`${copied ? 'Copied' : 'Copy this'}: ${command}`);
      },
    },
    'curl',
  );
}

/** Sends the request again (POST /__mock/requests/replay) and plays what comes back. */
function playButton(entry: LogEntry, { client, feedback, replayed, redraw }: RowContext) {
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
          redraw();
          feedback.show(`Play request ${entry.seq}`, {
            data: `Sent request ${entry.seq} again: ${formatBytes(audio.size)} of ${audio.type || 'audio'}, playing in its row.`,
          });
          await player.play().catch(() => {});
        } catch (error) {
          feedback.show(`Play request ${entry.seq}`, { error });
        } finally {
          play.disabled = false;
        }
      },
    },
    'play',
  );
  return play;
}

/** A streamed answer's time: waiting for its first byte, then its body. */
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
