/**
 * An optional HAR 1.2 record of the session (`--har FILE`). Bodies are never held: a JSON or text body
 * up to 16 KiB is inlined, any other body (audio, uploads, larger text) streams to a side file in
 * `FILE.bodies/` that its entry names (`content._file`, `postData._file`). Entries stream to a
 * temporary file as exchanges end and become the HAR when the proxy stops, so memory stays bounded
 * whatever the length of the session. A side file whose disk falls behind by more than 16 MiB stops
 * being written (`_truncated: true`) rather than buffering.
 *
 * Secrets are masked as in the mock's journal (common/secrets.ts: keys, tokens, cookies, secret query
 * parameters keep at most 4 characters); bodies are kept as sent, so every file is still created
 * readable by its owner alone (0600), opened
 * exclusively and never through a symlink (a link planted at any of its names is not followed). The
 * HAR itself is written to a temporary file of a random name beside it and renamed over its path at
 * the end, which replaces a link there rather than writing through it.
 */
import { randomBytes } from 'node:crypto';
import {
  createReadStream,
  createWriteStream,
  lstatSync,
  mkdirSync,
  renameSync,
  rmSync,
  type WriteStream,
} from 'node:fs';
import type { IncomingHttpHeaders } from 'node:http';
import { basename, dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { linkProblem, ReportPathError } from '../common/report-file.js';
import { maskedQueryPairs, maskUrl, shownHeaderValue } from '../common/secrets.js';
import type { ExchangeRecord } from './types.js';
import { ensureWritableDir, openExclusive, ProxySetupError } from './writable-dir.js';

/** A stream to a new private file (exclusive, no symlink followed, 0600). */
const exclusiveStream = (path: string) => createWriteStream('', { fd: openExclusive(path) });

/** A private file of `path`, made anew: whatever was at that name (an earlier session's, a link) is unlinked, never followed. */
function privateFile(path: string): WriteStream {
  rmSync(path, { force: true });
  return exclusiveStream(path);
}

/** A name beside `file` that nobody could have planted a link at beforehand. */
const randomSibling = (file: string, tail: string) => `${file}.${randomBytes(8).toString('hex')}${tail}`;

const inlineLimit = 16 * 1024;
const lagLimit = 16 * 1024 * 1024;

type Header = { name: string; value: string };
const headerList = (raw: readonly string[]): Header[] => {
  const out: Header[] = [];
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i] ?? '';
    out.push({ name, value: shownHeaderValue(name, raw[i + 1] ?? '') });
  }
  return out;
};
const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) ?? '';
const isText = (type: string) => /^(application\/([\w.+-]*\+)?json|text\/)/i.test(type.trim());

const extensionOf = (type: string) => {
  const mime = type.split(';')[0]?.trim().toLowerCase() ?? '';
  if (/wav|wave/.test(mime)) return 'wav';
  if (/mpeg|mp3/.test(mime)) return 'mp3';
  if (/pcm|l16|raw/.test(mime)) return 'pcm';
  if (/multipart/.test(mime)) return 'multipart';
  if (/json/.test(mime)) return 'json';
  return 'bin';
};

/** One body: inline while small text, else a side file. */
class BodyTap {
  private chunks: Buffer[] = [];
  private size = 0;
  private file: WriteStream | undefined;
  private truncated = false;

  constructor(
    private readonly dir: string,
    private readonly name: string,
    private readonly type: string,
  ) {}

  push(chunk: Buffer): void {
    this.size += chunk.length;
    if (!this.file && isText(this.type) && this.size <= inlineLimit) {
      this.chunks.push(chunk);
      return;
    }
    this.file ??= this.open();
    if (this.truncated || !this.file || this.file.writableLength > lagLimit) this.truncated = true;
    else this.file.write(chunk);
  }

  /** The side file, with what was held inline so far; none (the body truncated) when it cannot be made. */
  private open(): WriteStream | undefined {
    const held = this.chunks;
    this.chunks = [];
    let file: WriteStream;
    try {
      file = privateFile(join(this.dir, this.name));
    } catch {
      this.truncated = true; // a full disk, a name taken in a race: the HAR says so, the proxy goes on
      return undefined;
    }
    file.on('error', () => {
      this.truncated = true;
    });
    for (const chunk of held) file.write(chunk);
    return file;
  }

  /** The HAR fields of the body. */
  finish(): { size: number; mimeType: string; text?: string; _file?: string; _truncated?: boolean } {
    const base = { size: this.size, mimeType: this.type };
    if (!this.file && !this.truncated)
      return this.size === 0 ? base : { ...base, text: Buffer.concat(this.chunks).toString('utf8') };
    this.file?.end();
    return {
      ...base,
      ...(this.file ? { _file: `${basename(this.dir)}/${this.name}` } : {}),
      ...(this.truncated ? { _truncated: true } : {}),
    };
  }
}

/** What the proxy tells the recorder about one exchange. */
export interface HarEntryTap {
  requestChunk(chunk: Buffer): void;
  responseHead(
    status: number,
    statusText: string,
    rawHeaders: readonly string[],
    headers: IncomingHttpHeaders,
  ): void;
  responseChunk(chunk: Buffer): void;
  end(record: ExchangeRecord): void;
}

/**
 * Records the session as HAR into `file`.
 *
 * @example
 * const har = HarRecorder.create('reports/proxy/proxy.har', new URL('https://staging.example'));
 * // per exchange: har.begin(req.method, url, req.rawHeaders, req.headers) …; at the end:
 * await har.close();
 */
export class HarRecorder {
  private readonly dir: string;
  private readonly entriesFile: string;
  private readonly entries: WriteStream;
  private failure: Error | undefined;

  /**
   * The recorder of `file`: its folder made and proven writable, its bodies' folder made (0700).
   * A symlink at `file` or at its bodies' folder is a `ProxySetupError`.
   */
  static create(file: string, upstream: URL): HarRecorder {
    ensureWritableDir(dirname(file), 'the HAR folder');
    for (const [path, what] of [
      [file, 'the HAR file'],
      [`${file}.bodies`, 'the HAR bodies folder'],
    ] as const) {
      const stat = lstatSync(path, { throwIfNoEntry: false });
      if (stat?.isSymbolicLink())
        throw new ProxySetupError(`${what} ${path} is a symbolic link: the proxy does not write through one`);
      if (stat && path !== file && !stat.isDirectory())
        throw new ProxySetupError(`${what} ${path} is not a folder`);
    }
    return new HarRecorder(file, upstream);
  }

  /** The HAR's path. */
  get path(): string {
    return this.file;
  }

  private constructor(
    private readonly file: string,
    private readonly upstream: URL,
  ) {
    this.dir = `${file}.bodies`;
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    this.entriesFile = randomSibling(file, '.entries.tmp');
    this.entries = exclusiveStream(this.entriesFile);
    // A disk that fails mid-session must not take the proxy down: the HAR's close says so instead.
    this.entries.on('error', (error) => {
      this.failure ??= error;
    });
  }

  begin(
    id: number,
    method: string,
    url: string,
    rawHeaders: readonly string[],
    headers: IncomingHttpHeaders,
  ): HarEntryTap {
    const started = new Date();
    const t0 = performance.now();
    let waitMs = 0;
    const path = this.upstream.pathname.replace(/\/+$/, '') + url;
    // A target that is no URL (`//[`) passed on all the same: the HAR names it as it came.
    const target = URL.parse(path, this.upstream) ?? {
      href: `${this.upstream.origin}${path}`,
      searchParams: [],
    };
    const requestBody = new BodyTap(
      this.dir,
      `${id}-request.${extensionOf(first(headers['content-type']))}`,
      first(headers['content-type']),
    );
    let response: { status: number; statusText: string; headers: Header[]; body: BodyTap } | undefined;
    return {
      requestChunk: (chunk) => requestBody.push(chunk),
      responseHead: (status, statusText, raw, responseHeaders) => {
        waitMs = performance.now() - t0;
        const type = first(responseHeaders['content-type']);
        response = {
          status,
          statusText,
          headers: headerList(raw),
          body: new BodyTap(this.dir, `${id}-response.${extensionOf(type)}`, type),
        };
      },
      responseChunk: (chunk) => response?.body.push(chunk),
      end: (record) => {
        const total = performance.now() - t0;
        const post = requestBody.finish();
        const content = response?.body.finish() ?? { size: 0, mimeType: '' };
        const entry = {
          startedDateTime: started.toISOString(),
          time: total,
          request: {
            method,
            url: maskUrl(target.href),
            httpVersion: 'HTTP/1.1',
            cookies: [],
            headers: headerList(rawHeaders),
            queryString: maskedQueryPairs(target.searchParams),
            ...(post.size > 0 ? { postData: post } : {}),
            headersSize: -1,
            bodySize: record.requestBytes,
          },
          response: {
            status: response?.status ?? 0,
            statusText: response?.statusText ?? '',
            httpVersion: 'HTTP/1.1',
            cookies: [],
            headers: response?.headers ?? [],
            content,
            redirectURL: '',
            headersSize: -1,
            bodySize: record.responseBytes,
          },
          cache: {},
          timings: { send: 0, wait: waitMs, receive: Math.max(0, total - waitMs) },
          _exchange: record.id,
          _operationId: record.operationId,
          _violations: record.violations,
          ...(record.aborted ? { _aborted: record.aborted } : {}),
        };
        this.entries.write(`${JSON.stringify(entry)}\n`);
      },
    };
  }

  /** Writes the HAR file from the entries recorded, one line at a time; resolves with its path. */
  async close(): Promise<string> {
    await new Promise<void>((resolve) => this.entries.end(resolve));
    if (this.failure) {
      rmSync(this.entriesFile, { force: true });
      throw this.failure;
    }
    const staged = randomSibling(this.file, '.tmp');
    try {
      // A link planted at the name during the session is refused as every report's is.
      const planted = linkProblem(this.file);
      if (planted) throw new ReportPathError(planted);
      await this.writeHar(staged);
      renameSync(staged, this.file); // replaces whatever is at the name, a link included, never follows it
    } finally {
      rmSync(staged, { force: true });
      rmSync(this.entriesFile, { force: true });
    }
    return this.file;
  }

  /** Stops recording and removes the temporary file (the proxy did not start after all). */
  async discard(): Promise<void> {
    await new Promise<void>((resolve) => this.entries.end(resolve));
    rmSync(this.entriesFile, { force: true });
  }

  private async writeHar(path: string): Promise<void> {
    const out = exclusiveStream(path);
    const failed = new Promise<never>((_, reject) => out.once('error', reject));
    failed.catch(() => undefined);
    const write = (text: string) =>
      out.write(text) ? undefined : Promise.race([failed, new Promise<void>((r) => out.once('drain', r))]);
    await write(`{"log":{"version":"1.2","creator":{"name":"voice-kit proxy","version":"1"},"entries":[\n`);
    let firstLine = true;
    for await (const line of createInterface({
      input: createReadStream(this.entriesFile),
      crlfDelay: Number.POSITIVE_INFINITY,
    })) {
      if (!line) continue;
      await write(`${firstLine ? '' : ',\n'}${line}`);
      firstLine = false;
    }
    await write('\n]}}\n');
    await Promise.race([
      failed,
      new Promise<void>((resolve, reject) =>
        out.end((error?: Error | null) => (error ? reject(error) : resolve())),
      ),
    ]);
  }
}
