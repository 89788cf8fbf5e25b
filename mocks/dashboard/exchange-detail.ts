/**
 * An opened request of the log: what GET /__mock/requests/<seq> says of it. The marks first (the
 * Prefer directives that forced the answer, the mock's warnings, the contract verdict), then the
 * request (URL with its query, headers with the key masked, JSON body or upload form) and the answer
 * (status, headers, JSON body or what its audio was). `extras` are the row's own parts: the player of
 * its audio played again, its stream's timeline.
 */
import { type Child, h } from './dom.js';
import {
  type ExchangeDetail,
  formatBytes,
  formatSeconds,
  type HeaderLine,
  type LogEntry,
  prettyJson,
} from './format.js';

/** What made an answer, for the row and the detail: a forced answer is no outage and no slow mock. */
export const forcedText = (entry: LogEntry) =>
  `Forced by Prefer: ${entry.forced.join(', ')}. This answer was asked for by the request, not a real failure or slowness.`;

/** The contract verdict as a sentence. */
export function verdictText(entry: LogEntry): string {
  const verdict = entry.verdict;
  if (!verdict || verdict.checked === 'nothing') return 'Contract: nothing to judge (no answer was sent).';
  if (verdict.ok)
    return verdict.checked === 'body'
      ? 'Contract: kept (status, headers and the whole body checked).'
      : 'Contract: kept (status and type checked; the body is not kept).';
  return `Contract broken: ${verdict.problems.join('; ')}. The mock's own answers must keep the contract: this is a bug of the mock, please report it.`;
}

const headerList = (headers: HeaderLine[], label: string) =>
  headers.length === 0
    ? h('p', { class: 'muted' }, 'No headers kept.')
    : h(
        'dl',
        { class: 'headers', 'aria-label': label },
        ...headers.flatMap((line) => [h('dt', {}, line.name), h('dd', {}, line.value)]),
      );

function requestBody(detail: ExchangeDetail): Child[] {
  const { body, upload } = detail.request;
  if (upload) {
    const file = upload.fileName === null ? 'no file part' : `file ${upload.fileName}`;
    const container = upload.container ?? 'unknown';
    return [
      h(
        'p',
        { class: 'upload-summary' },
        `Upload form: fields ${upload.fields.join(', ') || '(none)'} · ${file} · ${formatBytes(upload.fileBytes)} · container ${container}${
          upload.scene === null ? '' : ` · scene ${upload.scene}`
        }`,
      ),
    ];
  }
  if (!body) return [h('p', { class: 'muted' }, 'No body.')];
  const cut = body.truncated
    ? h('p', { class: 'muted' }, `The first 4,096 of ${body.chars} characters.`)
    : null;
  return [
    h(
      'pre',
      { class: 'body', 'aria-label': `Request ${detail.seq} body` },
      body.truncated ? body.text : prettyJson(body.text),
    ),
    cut,
  ];
}

function answerBody(detail: ExchangeDetail): Child[] {
  const { body, audio } = detail.answer;
  if (audio)
    return [
      h(
        'p',
        { class: 'audio-summary' },
        `Audio: ${audio.format} · ${formatSeconds(audio.durationSeconds)} · ${audio.bytes === null ? 'size unknown' : formatBytes(audio.bytes)}`,
      ),
    ];
  if (body === null)
    return [
      h(
        'p',
        { class: 'muted' },
        detail.status === 0 ? 'The connection was dropped: no answer.' : 'Body not kept.',
      ),
    ];
  return [h('pre', { class: 'body', 'aria-label': `Answer ${detail.seq} body` }, prettyJson(body))];
}

/** The opened request's detail. */
export function exchangeDetail(detail: ExchangeDetail, extras: Child[]): HTMLElement {
  const marks: Child[] = [];
  if (detail.forced.length) marks.push(h('p', { class: 'mark forced' }, forcedText(detail)));
  for (const warning of detail.warnings)
    marks.push(h('p', { class: 'mark warning' }, `Mock warning: ${warning}`));
  marks.push(
    h('p', { class: `mark ${detail.verdict?.ok === false ? 'broken' : 'kept'}` }, verdictText(detail)),
  );
  return h(
    'div',
    { class: 'exchange', role: 'region', 'aria-label': `Request ${detail.seq} in full` },
    ...marks,
    h(
      'div',
      { class: 'exchange-parts' },
      h(
        'section',
        { 'aria-label': `Request ${detail.seq}` },
        h('h4', {}, 'Request'),
        h('p', { class: 'mono url' }, `${detail.request.method} ${detail.request.url}`),
        headerList(detail.request.headers, `Request ${detail.seq} headers`),
        ...requestBody(detail),
      ),
      h(
        'section',
        { 'aria-label': `Answer ${detail.seq}` },
        h('h4', {}, 'Answer'),
        h('p', { class: 'mono' }, detail.status === 0 ? 'dropped' : `HTTP ${detail.status}`),
        headerList(detail.answer.headers, `Answer ${detail.seq} headers`),
        ...answerBody(detail),
        ...extras,
      ),
    ),
  );
}
