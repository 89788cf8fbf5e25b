import type { MockConfig } from '../../config/types.js';
import type { JournalItem } from '../state/request-log.js';
import { type ExchangeView, exchangeView, type HeaderLine } from './journal-view.js';

/** The HAR 1.2 creator the export names (the HAR format asks for a version; this is the export's own). */
const creator = { name: 'voice-kit mock', version: '1' };

const queryString = (url: string) => {
  try {
    return [...new URL(url).searchParams].map(([name, value]) => ({ name, value }));
  } catch {
    return [];
  }
};

function postData(view: ExchangeView) {
  const { body, upload, headers } = view.request;
  const type = headers.find((h) => h.name.toLowerCase() === 'content-type')?.value ?? '';
  if (upload)
    return {
      mimeType: type || 'multipart/form-data',
      // The file itself is never kept: its part names the file and says what it held.
      params: upload.fields.map((name) =>
        name === 'file' && upload.fileName !== null
          ? {
              name,
              fileName: upload.fileName,
              comment: `${upload.container ?? 'unknown'} container, not kept`,
            }
          : { name, ...(name === 'scene' && upload.scene !== null ? { value: upload.scene } : {}) },
      ),
      text: '',
      comment: `${upload.fileBytes} bytes of ${upload.container ?? 'unknown'} audio, not kept`,
    };
  if (body)
    return {
      mimeType: type || 'application/json',
      text: body.text,
      ...(body.truncated ? { comment: `first ${body.text.length} of ${body.chars} characters` } : {}),
    };
  return undefined;
}

function content(view: ExchangeView, headers: HeaderLine[]) {
  const mimeType = headers.find((h) => h.name.toLowerCase() === 'content-type')?.value ?? '';
  const { audio, body } = view.answer;
  if (audio) {
    const seconds = audio.durationSeconds === null ? '' : `, ${audio.durationSeconds} s`;
    return { size: audio.bytes ?? -1, mimeType, comment: `${audio.format} audio${seconds}, not kept` };
  }
  if (body !== null) return { size: body.length, mimeType, text: body };
  return { size: -1, mimeType, ...(view.status === 0 ? { comment: 'connection dropped' } : {}) };
}

/** One HAR entry: the exchange as any HAR viewer reads it, and what only the mock knows under `_voiceKit`. */
function harEntry(view: ExchangeView) {
  const total = view.stream?.durationMs ?? view.durationMs ?? 0;
  const wait = view.stream?.ttfbMs ?? total;
  const post = postData(view);
  const notes = [
    ...(view.forced.length ? [`forced by Prefer: ${view.forced.join(', ')}`] : []),
    ...view.warnings.map((w) => `X-Mock-Warning: ${w}`),
  ];
  return {
    startedDateTime: new Date(view.at * 1000).toISOString(),
    time: total,
    request: {
      method: view.method,
      url: view.request.url,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: view.request.headers,
      queryString: queryString(view.request.url),
      ...(post ? { postData: post } : {}),
      headersSize: -1,
      bodySize: post ? (view.request.upload?.fileBytes ?? view.request.body?.chars ?? -1) : 0,
    },
    response: {
      status: view.status,
      statusText: '',
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: view.answer.headers,
      content: content(view, view.answer.headers),
      redirectURL: '',
      headersSize: -1,
      bodySize: view.answer.audio?.bytes ?? view.answer.body?.length ?? -1,
    },
    cache: {},
    timings: { send: 0, wait, receive: Math.max(0, total - wait) },
    ...(notes.length ? { comment: notes.join('; ') } : {}),
    _voiceKit: {
      seq: view.seq,
      operationId: view.operationId,
      key: view.key,
      errorCode: view.errorCode,
      forced: view.forced,
      warnings: view.warnings,
      verdict: view.verdict,
    },
  };
}

/**
 * GET /__mock/requests/har: the journal as HAR 1.2, oldest first. Keys masked as everywhere; audio
 * bodies summarised (format, duration, size), never included; upload forms as their part names.
 *
 * @example
 * const har = harOf(deps.state.requests.items(), deps.config); // { log: { version: '1.2', entries: [...] } }
 */
export function harOf(items: readonly JournalItem[], config: MockConfig) {
  return {
    log: {
      version: '1.2',
      creator,
      pages: [],
      entries: items.map((item) => harEntry(exchangeView(item, config))),
    },
  };
}
