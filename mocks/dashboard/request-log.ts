/**
 * The Request log half of the page: the entries read so far (newest first, at most `logCap`), their
 * filters, a page of `pageSize` rows at a time (a log of thousands stays quick to draw), Clear log and
 * the HAR download, and how the page follows GET /__mock/requests: only what came after the last entry
 * read, and a streamed entry again until its timing arrives.
 */
import type { ControlClient } from './control-client.js';
import { button, h, table } from './dom.js';
import type { Feedback } from './feedback.js';
import { type ExchangeDetail, formatBytes, type LogEntry, type LogFilter, matches } from './format.js';
import { logRow, type RowContext } from './log-row.js';

/** The page keeps at most this many log entries (the mock's own log is a ring of 200 by default). */
const logCap = 5000;
/** Rows drawn at a time: Older and Newer move through the rest. */
const pageSize = 100;

export interface RequestLog {
  element: HTMLElement;
  /** Reads what is new in the mock's log and draws it; `clears` is the count GET /__mock/state gave. */
  update(clears: number): Promise<void>;
}

export function createRequestLog(client: ControlClient, feedback: Feedback): RequestLog {
  const statusFilter = statusSelect();
  const pathFilter = h('input', { id: 'path-filter', type: 'search', placeholder: '/v1/…' });
  const logCount = h('span', { class: 'count' });
  const logBody = h('tbody');
  const pageInfo = h('span', { class: 'muted', 'aria-live': 'polite' });
  let page = 0;
  const newer = button('Newer', () => {
    page = Math.max(0, page - 1);
    draw();
  });
  const older = button('Older', () => {
    page += 1;
    draw();
  });
  const element = h(
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
      clearButton(client, feedback),
      harButton(client, feedback),
    ),
    h(
      'div',
      { class: 'scroll log-scroll', tabindex: 0, 'aria-label': 'Requests, newest first' },
      table(['#', 'Time', 'Request', 'Key', 'Operation', 'Status', 'Duration', ''], logBody),
    ),
    h('div', { class: 'pages' }, newer, pageInfo, older),
  );

  const entries = logEntries();
  const context: RowContext = {
    client,
    feedback,
    replayed: entries.replayed,
    redraw: draw,
    opened: entries.opened,
  };
  const filter = (): LogFilter => ({ status: statusFilter.value, path: pathFilter.value });

  function draw() {
    const log = entries.log;
    const shown = log.filter((entry) => matches(entry, filter())).reverse();
    logCount.textContent = `(${shown.length} of ${log.length})`;
    const pages = Math.max(1, Math.ceil(shown.length / pageSize));
    page = Math.min(page, pages - 1);
    const from = page * pageSize;
    const paged = shown.slice(from, from + pageSize);
    pageInfo.textContent =
      shown.length > pageSize ? `rows ${from + 1}–${from + paged.length} of ${shown.length}` : '';
    newer.disabled = page === 0;
    older.disabled = page >= pages - 1;
    newer.hidden = older.hidden = shown.length <= pageSize;
    const rows = paged.flatMap((entry) => logRow(entry, context));
    if (rows.length === 0)
      rows.push(
        h(
          'tr',
          {},
          h('td', { colspan: 8, class: 'empty' }, log.length ? 'No request matches.' : 'No requests yet.'),
        ),
      );
    // The rows are new elements: the button that had the focus (opened from the keyboard) gets it back.
    const focused = document.activeElement?.closest<HTMLElement>('tr[data-seq] button.open');
    const seq = focused?.closest<HTMLElement>('tr')?.dataset.seq;
    logBody.replaceChildren(...rows);
    if (seq !== undefined) logBody.querySelector<HTMLElement>(`tr[data-seq="${seq}"] button.open`)?.focus();
  }
  const refilter = () => {
    page = 0;
    draw();
  };
  statusFilter.addEventListener('change', refilter);
  pathFilter.addEventListener('input', refilter);

  async function update(clears: number) {
    // A reset emptied the mock's log: start over.
    if (entries.clear(clears)) draw();
    const from = entries.from();
    const read = await client.json<LogEntry[]>(`/__mock/requests?after=${from}`);
    if (entries.merge(read, from)) draw();
    else if (logBody.childElementCount === 0) draw();
  }

  return { element, update };
}

/** The status filter: all, a status class, or the connections the mock dropped. */
const statusSelect = () =>
  h(
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

/** POST /__mock/requests/clear: the log alone is emptied; voices, uploads and quotas stay. */
const clearButton = (client: ControlClient, { act }: Feedback) =>
  button(
    'Clear log',
    () =>
      void act('Clear log', async () => {
        const { cleared } = await client.post<{ cleared: number }>('/__mock/requests/clear');
        return `Cleared ${cleared} ${cleared === 1 ? 'request' : 'requests'} from the log; voices, uploads, quotas and the clock are unchanged.`;
      }),
    'POST /__mock/requests/clear: empties the request log, nothing else',
  );

/** GET /__mock/requests/har, saved as a file. */
const harButton = (client: ControlClient, { act }: Feedback) =>
  button(
    'Download HAR',
    () =>
      void act('Download HAR', async () => {
        const blob = await (await client.raw('/__mock/requests/har')).blob();
        const count = (JSON.parse(await blob.text()) as { log: { entries: unknown[] } }).log.entries.length;
        const name = `voice-kit-requests-${new Date().toISOString().replace(/[:.]/g, '-')}.har`;
        const link = h('a', { href: URL.createObjectURL(blob), download: name });
        link.click();
        setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
        return `Saved ${count} ${count === 1 ? 'request' : 'requests'} as ${name} (HAR 1.2, ${formatBytes(blob.size)}).`;
      }),
    'GET /__mock/requests/har: the log as a HAR 1.2 file (keys masked, audio summarised)',
  );

/** The entries the page has read, where to read on from, and the players of requests played again. */
function logEntries() {
  let log: LogEntry[] = [];
  /** Players of requests played again, kept across redraws of the log (bounded by the log's cap). */
  const replayed = new Map<number, HTMLAudioElement>();
  /** The requests opened, with their detail once read (dropped with their entry). */
  const opened = new Map<number, ExchangeDetail | Error | null>();
  let after = 0;
  let clears: number | undefined;
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

  return {
    get log() {
      return log;
    },
    replayed,
    opened,
    /** Starts over when the mock's log was cleared since the last read; answers whether it did. */
    clear(cleared: number): boolean {
      if (clears === cleared) return false;
      clears = cleared;
      log = [];
      after = 0;
      waits.clear();
      opened.clear();
      for (const player of replayed.values()) URL.revokeObjectURL(player.src);
      replayed.clear();
      return true;
    },
    /** The `after` to read from: the last entry read, or before an entry still waiting for its timing. */
    from(): number {
      const open = pending();
      return open === undefined ? after : Math.min(after, open - 1);
    },
    /** Takes in what was read from `from`; answers whether the log changed. */
    merge(entries: LogEntry[], from: number): boolean {
      if (entries.length === 0 && from === after) return false;
      const bySeq = new Map(log.map((e) => [e.seq, e]));
      for (const entry of entries) bySeq.set(entry.seq, entry);
      log = [...bySeq.values()].sort((a, b) => a.seq - b.seq).slice(-logCap);
      const first = log[0]?.seq ?? Number.POSITIVE_INFINITY;
      for (const [seq, player] of replayed)
        if (seq < first) {
          URL.revokeObjectURL(player.src);
          replayed.delete(seq);
        }
      for (const seq of opened.keys()) if (seq < first) opened.delete(seq);
      after = Math.max(after, ...entries.map((e) => e.seq));
      return true;
    },
  };
}
