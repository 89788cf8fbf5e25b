/**
 * An app-like flow (uploads, saves, list walks, speech in each format, deletes, a few mistakes) and the
 * deviations real deployments ship, applied between the proxy and the kit's mock: billing drift, stale
 * list caches, eventual consistency, input rules applied loosely or too strictly, object keys across
 * projects, framing that lies; and variations the spec allows, which must stay quiet.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { normalizeVoiceId } from '../../openapi/contract.js';

export interface Req {
  readonly method: string;
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body: Buffer;
}
export interface Res {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: Buffer;
}
/** What a deviant remembers across the flow's exchanges. */
export type Memo = Record<string, unknown> & {
  saved: Set<string>;
  deleted: Set<string>;
  items: Map<string, unknown>;
  owner: Map<string, string>;
  count: Record<string, number>;
};
export interface Deviant {
  readonly name: string;
  /** Answer (a Res) or rewrite (a Req) before the mock sees the request. */
  readonly before?: (req: Req, memo: Memo) => Req | Res | undefined;
  readonly after?: (req: Req, res: Res, memo: Memo) => Res;
  /** `after` edits audio answers: streamed ones are then held whole (else they pass on as they come). */
  readonly touchesAudio?: true;
}

const json = (req: Req): Record<string, unknown> | undefined => {
  try {
    return JSON.parse(req.body.toString('utf8')) as Record<string, unknown>;
  } catch {
    return undefined;
  }
};
const resJson = (res: Res) =>
  JSON.parse(res.body.toString('utf8')) as Record<string, unknown> & { data: Record<string, unknown> | null };
const withJson = (res: Res, body: unknown, status = res.status): Res => ({
  status,
  headers: res.headers,
  body: Buffer.from(JSON.stringify(body)),
});
const withBody = (req: Req, body: unknown): Req => ({ ...req, body: Buffer.from(JSON.stringify(body)) });
const refuse = (status: number, code: number): Res => ({
  status,
  headers: { 'content-type': 'application/json' },
  body: Buffer.from(
    JSON.stringify({ error_code: code, error_message: 'refused by the deviant', succeed: false, data: null }),
  ),
});
const is = (req: Req, method: string, path: RegExp) => req.method === method && path.test(req.path);
const isList = (req: Req) => is(req, 'GET', /^\/v1\/voice\/list/);
const isSave = (req: Req) => is(req, 'POST', /^\/v1\/voice\/save/);
const isUpload = (req: Req) => is(req, 'POST', /^\/v1\/files\/upload/);
const isSynth = (req: Req) => is(req, 'POST', /^\/v1\/text-to-speech/);
const isDelete = (req: Req) => req.method === 'DELETE';
const deletedId = (req: Req) => decodeURIComponent(req.path.split('/').pop() ?? '');
const ok = (res: Res) => res.status === 200;
const isType = (res: Res, t: string) => (res.headers['content-type'] ?? '').startsWith(t);

/** Edit the list answer's data. */
const editList = (res: Res, edit: (data: Record<string, unknown>) => void): Res => {
  if (!ok(res)) return res;
  const body = resJson(res);
  if (body.data) edit(body.data);
  return withJson(res, body);
};
const listOf = (data: Record<string, unknown>) => data.list as Array<{ voice_id: string }>;
/** Count successes of a kind in the memo, and rewrite remainingFreeCloneCount on lists. */
const freeDrift = (name: string, counts: (req: Req, res: Res) => boolean, sign: 1 | -1): Deviant => ({
  name,
  after: (req, res, memo) => {
    if (counts(req, res)) memo.count.n = (memo.count.n ?? 0) + 1;
    if (!isList(req)) return res;
    return editList(res, (d) => {
      d.remainingFreeCloneCount = Math.max(
        0,
        (d.remainingFreeCloneCount as number) + sign * (memo.count.n ?? 0),
      );
    });
  },
});

export const deviants: readonly Deviant[] = [
  freeDrift(
    'billing: a creation leaves remainingFreeCloneCount unchanged',
    (req, res) => isSave(req) && ok(res),
    1,
  ),
  freeDrift('billing: an upload uses a free clone', (req, res) => isUpload(req) && ok(res), -1),
  freeDrift('billing: a refused creation uses a free clone', (req, res) => isSave(req) && !ok(res), -1),
  {
    name: 'stale list cache: a deleted voice is still listed',
    after: (req, res, memo) => {
      if (isDelete(req) && ok(res)) memo.deleted.add(deletedId(req));
      if (!isList(req)) return res;
      return editList(res, (d) => {
        for (const v of listOf(d)) memo.items.set(v.voice_id, v);
        if (req.path.includes('page_size')) return;
        for (const id of memo.deleted)
          if (memo.items.has(id) && !listOf(d).some((v) => v.voice_id === id))
            listOf(d).push(memo.items.get(id) as { voice_id: string });
        d.total = listOf(d).length;
      });
    },
  },
  {
    name: 'stale list cache: a new voice is missing from the list',
    after: (req, res, memo) => {
      if (isSave(req) && ok(res)) memo.saved.add((resJson(res).data?.voice_id as string) ?? '');
      if (!isList(req)) return res;
      return editList(res, (d) => {
        d.list = listOf(d).filter((v) => !memo.saved.has(v.voice_id));
        d.total = listOf(d).length;
      });
    },
  },
  {
    name: 'eventual consistency: a saved voice is refused by synthesis right after the save',
    before: (req, memo) => {
      const id = isSynth(req) ? json(req)?.voice_id : undefined;
      if (typeof id === 'string' && memo.saved.delete(id)) return refuse(400, 10001);
      return undefined;
    },
    after: (req, res, memo) => {
      if (isSave(req) && ok(res)) memo.saved.add(resJson(res).data?.voice_id as string);
      return res;
    },
  },
  {
    name: 'eventual consistency: a deleted voice still synthesizes',
    before: (req, memo) => {
      const body = isSynth(req) ? json(req) : undefined;
      if (typeof body?.voice_id === 'string' && memo.deleted.has(body.voice_id))
        return withBody(req, { ...body, voice_id: undefined });
      return undefined;
    },
    after: (req, res, memo) => {
      if (isDelete(req) && ok(res)) memo.deleted.add(deletedId(req));
      return res;
    },
  },
  {
    name: 'loose input: accepts a voice_id with characters outside a-z 0-9 _ -',
    before: (req) => {
      const body = isSave(req) ? json(req) : undefined;
      if (typeof body?.voice_id !== 'string') return undefined;
      const id = normalizeVoiceId(body.voice_id);
      return /^[a-z0-9_-]{1,30}$/.test(id)
        ? undefined
        : withBody(req, { ...body, voice_id: id.replace(/[^a-z0-9_-]/g, '_') });
    },
  },
  {
    name: 'loose input: accepts an unknown scene',
    before: (req) =>
      isUpload(req)
        ? {
            ...req,
            body: Buffer.from(
              req.body.toString('latin1').replace(/(name="scene"\r\n\r\n)\w+/, '$1audio'),
              'latin1',
            ),
          }
        : undefined,
  },
  {
    name: 'loose input: accepts a .flac file',
    before: (req) =>
      isUpload(req)
        ? { ...req, body: Buffer.from(req.body.toString('latin1').replace(/\.flac"/, '.wav"'), 'latin1') }
        : undefined,
    after: (req, res) => {
      const flac = /filename="([^"]+\.flac)"/.exec(req.body.toString('latin1'))?.[1];
      if (!flac || !ok(res)) return res;
      const body = resJson(res);
      if (body.data) body.data.file_name = flac;
      return withJson(res, body);
    },
  },
  {
    name: 'loose input: accepts a negative speed',
    before: (req) => {
      const body = isSynth(req) ? json(req) : undefined;
      return typeof body?.speed === 'number' && body.speed < 0
        ? withBody(req, { ...body, speed: undefined })
        : undefined;
    },
  },
  {
    name: 'strict input: 10001 for a valid voice_id with spaces and capitals',
    before: (req) => {
      const id = isSave(req) ? json(req)?.voice_id : undefined;
      return typeof id === 'string' && id !== normalizeVoiceId(id) ? refuse(400, 10001) : undefined;
    },
  },
  {
    name: 'strict input: 20012 for an .ogg file',
    before: (req) =>
      isUpload(req) && /filename="[^"]+\.ogg"/.test(req.body.toString('latin1'))
        ? refuse(400, 20012)
        : undefined,
  },
  {
    name: 'strict input: 10001 for speed 0',
    before: (req) => (isSynth(req) && json(req)?.speed === 0 ? refuse(400, 10001) : undefined),
  },
  {
    name: "object keys: another project's object key is accepted",
    before: (req, memo) => {
      const ref = isSave(req) ? json(req)?.ref_audio : undefined;
      const owner = typeof ref === 'string' ? memo.owner.get(ref) : undefined;
      return owner && owner !== req.headers['x-api-key']
        ? { ...req, headers: { ...req.headers, 'x-api-key': owner } }
        : undefined;
    },
    after: (req, res, memo) => {
      if (isUpload(req) && ok(res))
        memo.owner.set(resJson(res).data?.object_key as string, req.headers['x-api-key'] ?? '');
      return res;
    },
  },
  {
    name: 'framing: WAV header sizes that lie',
    touchesAudio: true,
    after: (req, res) => {
      if (!isSynth(req) || !ok(res) || !isType(res, 'audio/wav')) return res;
      const body = Buffer.from(res.body);
      body.writeUInt32LE(body.length + 100, 4);
      return { ...res, body };
    },
  },
  {
    name: 'framing: PCM without its bit-depth header',
    touchesAudio: true,
    after: (req, res) => {
      if (!isSynth(req) || !ok(res) || !isType(res, 'audio/pcm')) return res;
      const { 'x-audio-bit-depth': _, ...headers } = res.headers;
      return { ...res, headers };
    },
  },
  {
    name: 'framing: an MP3 whose last frame is cut',
    touchesAudio: true,
    after: (req, res) =>
      isSynth(req) && ok(res) && isType(res, 'audio/mpeg')
        ? { ...res, body: res.body.subarray(0, res.body.length - 7) }
        : res,
  },
];

/** What the spec allows: each must give no violation at all. */
export const variations: readonly Deviant[] = [
  {
    name: 'save answers 422 for 20016 (voice-save-statuses)',
    after: (req, res) => (isSave(req) && resJson(res).error_code === 20016 ? { ...res, status: 422 } : res),
  },
  {
    name: 'save answers 409 for 20012 (voice-save-statuses)',
    after: (req, res) => (isSave(req) && resJson(res).error_code === 20012 ? { ...res, status: 409 } : res),
  },
  {
    name: 'delete answers 404 for an already-missing voice (§4.4 may)',
    before: (req, memo) =>
      isDelete(req) && memo.deleted.has(deletedId(req)) ? refuse(404, 10001) : undefined,
    after: (req, res, memo) => {
      if (isDelete(req) && ok(res)) memo.deleted.add(deletedId(req));
      return res;
    },
  },
  {
    name: 'save answers data null (voice-save-data)',
    after: (req, res) => (isSave(req) && ok(res) ? withJson(res, { ...resJson(res), data: null }) : res),
  },
  {
    name: 'a list page newest first (list-order)',
    after: (req, res) => (isList(req) ? editList(res, (d) => void listOf(d).reverse()) : res),
  },
  {
    name: 'synthesis answers 422 for a negative speed (synthesis-errors)',
    after: (req, res) => (isSynth(req) && res.status === 400 ? { ...res, status: 422 } : res),
  },
  {
    name: 'a refused synthesis answers 403 for a deleted voice (synthesis-errors)',
    after: (req, res) =>
      isSynth(req) && res.status === 400 && json(req)?.voice_id ? { ...res, status: 403 } : res,
  },
];

export const main = 'mock-key';
export const otherProject = 'mock-key-other-project';

/** One app session: uploads, saves, list walks, speech in each format, deletes and a few mistakes. */
export async function flow(
  base: string,
  audio: { readonly valid: Uint8Array<ArrayBuffer>; readonly short: Uint8Array<ArrayBuffer> },
): Promise<void> {
  const { valid, short } = audio;
  const call = async (method: string, path: string, key: string, body?: unknown) => {
    const init: RequestInit = { method, headers: { 'x-api-key': key } };
    if (body instanceof FormData) init.body = body;
    else if (body !== undefined) {
      init.body = JSON.stringify(body);
      init.headers = { 'x-api-key': key, 'content-type': 'application/json' };
    }
    const res = await fetch(base + path, init);
    const bytes = new Uint8Array(await res.arrayBuffer());
    try {
      return JSON.parse(new TextDecoder().decode(bytes)) as { data?: Record<string, unknown> | null };
    } catch {
      return {};
    }
  };
  const upload = async (key: string, bytes: Uint8Array<ArrayBuffer>, name: string, scene = 'audio') => {
    const form = new FormData();
    form.set('scene', scene);
    form.set('file', new Blob([bytes]), name);
    return (await call('POST', '/v1/files/upload', key, form)).data?.object_key as string | undefined;
  };
  const walk = async (pageSize?: number) => {
    let cursor: string | undefined;
    do {
      const q = new URLSearchParams(pageSize ? { page_size: String(pageSize) } : {});
      if (cursor) q.set('voice_id', cursor);
      const data = (await call('GET', `/v1/voice/list?${q}`, main)).data;
      cursor =
        data?.has_more === true && typeof data.next_voice_id === 'string' ? data.next_voice_id : undefined;
    } while (cursor);
  };
  const speak = (body: Record<string, unknown>, stream = false) =>
    call('POST', stream ? '/v1/text-to-speech/stream' : '/v1/text-to-speech', main, {
      generate_text: 'Hello from the app.',
      ...body,
    });

  await walk();
  for (const format of ['wav', 'mp3', 'pcm']) {
    await speak({ audio_format: format });
    await speak({ audio_format: format }, true);
  }
  const a = await upload(main, valid, 'a.wav');
  const b = await upload(main, valid, 'b.ogg');
  await upload(main, valid, 'c.flac'); // a mistake: refused
  await upload(main, valid, 'd.wav', 'video'); // a mistake: refused
  const s = await upload(main, short, 'short.wav');
  const o = await upload(otherProject, valid, 'other.wav');
  await walk();
  await call('POST', '/v1/voice/save', main, { voice_id: ' Flow_A ', ref_audio: a });
  await speak({ voice_id: 'flow_a', audio_format: 'wav' });
  await call('POST', '/v1/voice/save', main, { voice_id: 'flow_b', ref_audio: b ?? a });
  await call('POST', '/v1/voice/save', main, { voice_id: 'bad id!', ref_audio: a }); // a mistake
  await call('POST', '/v1/voice/save', main, { voice_id: 'flow_short', ref_audio: s }); // 20016
  await call('POST', '/v1/voice/save', main, { voice_id: 'flow_foreign', ref_audio: o }); // another project's key
  await walk(2);
  await speak({ speed: 0 });
  await speak({ speed: 1.5, voice_id: 'flow_b' });
  await speak({ speed: -1 }); // a mistake
  await call('DELETE', '/v1/voice/flow_b', main);
  await call('DELETE', '/v1/voice/flow_b', main);
  await speak({ voice_id: 'flow_b' }); // a mistake: deleted
  await walk();
  await call('DELETE', '/v1/voice/flow_a', main);
  await call('DELETE', '/v1/voice/flow_foreign', main);
  await walk();
}

/** A server in front of `target` that applies one deviant (or none) to every exchange. */
export async function deviantUpstream(
  target: string,
  deviant: Deviant | undefined,
): Promise<{ url: string; close(): Promise<void> }> {
  const memo: Memo = { saved: new Set(), deleted: new Set(), items: new Map(), owner: new Map(), count: {} };
  const server = http.createServer((inc, out) => {
    const chunks: Buffer[] = [];
    inc.on('data', (c: Buffer) => chunks.push(c));
    inc.on('end', async () => {
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(inc.headers))
        if (typeof v === 'string' && ['x-api-key', 'content-type', 'prefer'].includes(k)) headers[k] = v;
      let req: Req = {
        method: inc.method ?? 'GET',
        path: inc.url ?? '/',
        headers,
        body: Buffer.concat(chunks),
      };
      const early = deviant?.before?.(req, memo);
      let res: Res;
      if (early && 'status' in early) res = early;
      else {
        if (early) req = early;
        const answer = await fetch(target + req.path, {
          method: req.method,
          headers: req.headers,
          ...(req.body.length ? { body: new Uint8Array(req.body) } : {}),
        });
        if (
          req.path.startsWith('/v1/text-to-speech/stream') &&
          answer.status === 200 &&
          !deviant?.touchesAudio
        ) {
          // A stream passes on chunk by chunk, as the mock sends it: holding it whole would make it a lump.
          out.writeHead(200, {
            'content-type': answer.headers.get('content-type') ?? '',
            ...Object.fromEntries([...answer.headers].filter(([k]) => k.startsWith('x-audio-'))),
          });
          for await (const chunk of answer.body ?? []) out.write(chunk);
          out.end();
          return;
        }
        const resHeaders: Record<string, string> = {};
        answer.headers.forEach((v, k) => {
          if (k === 'content-type' || k.startsWith('x-audio-') || k === 'retry-after') resHeaders[k] = v;
        });
        res = { status: answer.status, headers: resHeaders, body: Buffer.from(await answer.arrayBuffer()) };
        res = deviant?.after?.(req, res, memo) ?? res;
      }
      // A stream goes out chunked (no Content-Length), as §4.6 asks; everything else with its length.
      const streamed = req.path.startsWith('/v1/text-to-speech/stream') && res.status === 200;
      out.writeHead(
        res.status,
        streamed ? res.headers : { ...res.headers, 'content-length': String(res.body.length) },
      );
      out.end(res.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
