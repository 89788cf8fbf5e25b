/**
 * Deviations a red team's proxy slipped past the suite, each now caught by a named case, and variations
 * the spec allows that must not fail a case (false failures it once reported).
 */
import { errors, limits, pcmHeaders } from '../../openapi/contract.js';
import type { FetchLike } from '../toolkit/http.js';
import {
  type Deviation,
  isList,
  isSave,
  isStream,
  isSynthesis,
  isUpload,
  refuse,
  rewriteJson,
  rewriteRequestJson,
  type Variation,
} from './deviation-kit.js';

type Obj = Record<string, unknown>;

/** A voice id of the run (custom), not a system voice. */
const isCustom = (id: unknown) => typeof id === 'string' && id.startsWith('vk_');

/** The same request with the main key: a deployment that ignores the key it was given. */
function withMainKey(req: Request, next: FetchLike): Promise<Response> {
  const headers = new Headers(req.headers);
  headers.set('x-api-key', 'mock-key');
  return next(new Request(req, { headers }));
}

/** Names and sizes of the uploads the proxy saw, by object key: a deviation can judge a save by its file. */
const uploadsByKey = new Map<string, { readonly name: string; readonly size: number }>();

/** Record successful uploads; refuse a save whose uploaded file `refused` selects. */
function refuseSavesOf(
  refused: (file: { readonly name: string; readonly size: number }) => boolean,
  status: number,
  code: number,
): (req: Request, next: FetchLike) => Promise<Response> {
  return async (req, next) => {
    if (isSave(req)) {
      const file = uploadsByKey.get(String(((await req.clone().json()) as Obj).ref_audio));
      if (file && refused(file)) return refuse(status, code, 'reference refused');
      return next(req);
    }
    const res = await next(req);
    if (isUpload(req) && res.status === 200) {
      const d = ((await res.clone().json()) as Obj).data as Obj;
      uploadsByKey.set(String(d.object_key), { name: String(d.file_name), size: Number(d.size) });
    }
    return res;
  };
}

/** Rename the uploaded file before the mock sees it: an extension check that reads the name wrongly. */
function renameUpload(
  rename: (name: string) => string,
): (req: Request, next: FetchLike) => Promise<Response> {
  return async (req, next) => {
    if (!isUpload(req)) return next(req);
    const form = await req.clone().formData();
    const file = form.get('file');
    if (!(file instanceof File) || rename(file.name) === file.name) return next(req);
    form.set('file', file, rename(file.name));
    const headers = new Headers(req.headers);
    headers.delete('content-type');
    return next(new Request(req.url, { method: 'POST', headers, body: form }));
  };
}

/** Refused saves the proxy saw (the deviation that bills them). */
let refusedSaves = 0;

/** Answer a synthesis whose JSON body `when` selects with a server error. */
function serverErrorWhen(when: (body: Obj) => boolean): Deviation['handle'] {
  return async (req, next) => {
    if (isSynthesis(req) && when((await req.clone().json()) as Obj))
      return refuse(500, errors.unexpected.code, 'unexpected error');
    return next(req);
  };
}

export const teethDeviations: readonly Deviation[] = [
  {
    name: 'a body with `text` instead of generate_text is answered with HTTP 500',
    only: ['synthesis.open.text-alias'],
    caughtBy: 'synthesis.open.text-alias',
    handle: serverErrorWhen((b) => b.generate_text === undefined && b.text !== undefined),
  },
  {
    name: 'an emotion the voice lacks is answered with HTTP 500',
    only: ['synthesis.open.options'],
    caughtBy: 'synthesis.open.options',
    handle: serverErrorWhen((b) => b.emotion_class !== undefined),
  },
  {
    name: 'a save without X-API-Key is answered for the request (the key is ignored: 400/20012)',
    only: ['auth.saveVoice.missing-key'],
    caughtBy: 'auth.saveVoice.missing-key',
    handle: (req, next) =>
      isSave(req) && !req.headers.has('x-api-key') ? withMainKey(req, next) : next(req),
  },
  {
    name: 'a custom voice is validated but the default voice speaks',
    only: ['synthesis.custom-voice.speed-and-tags'],
    caughtBy: 'synthesis.custom-voice.speed-and-tags',
    handle: rewriteRequestJson(isSynthesis, (b) =>
      isCustom(b.voice_id) ? { ...b, voice_id: 'system_default' } : b,
    ),
  },
  {
    name: 'speed is ignored for custom voices',
    only: ['synthesis.custom-voice.speed-and-tags'],
    caughtBy: 'synthesis.custom-voice.speed-and-tags',
    handle: rewriteRequestJson(isSynthesis, (b) => {
      if (!isCustom(b.voice_id)) return b;
      const { speed: _ignored, ...rest } = b;
      return rest;
    }),
  },
  {
    name: 'the list shows the system voice system_default',
    only: ['list.cursor.traversal'],
    caughtBy: 'list.cursor.traversal',
    handle: rewriteJson(
      (req, res) => isList(req) && res.status === 200 && !new URL(req.url).searchParams.has('voice_id'),
      (b) => {
        const d = b.data as Obj;
        const list = [{ voice_id: 'system_default', voice_url: 'http://127.0.0.1:9/s.wav', created_at: 1 }];
        return { ...b, data: { ...d, list: [...list, ...(d.list as Obj[])], total: Number(d.total) + 1 } };
      },
    ),
  },
  {
    name: 'an M4A (AAC) reference is refused as unsupported',
    only: ['voice-save.reference.formats'],
    caughtBy: 'voice-save.reference.formats',
    handle: refuseSavesOf((f) => f.name.endsWith('.m4a'), 400, errors.refAudioUnsupported.code),
  },
  {
    name: 'a WAV of exactly 3.000 s is refused as too short',
    only: ['voice-save.reference.duration-in-range'],
    caughtBy: 'voice-save.reference.duration-in-range',
    handle: refuseSavesOf((f) => f.name === 'valid-3s.wav', 400, errors.refAudioTooShort.code),
  },
  {
    name: 'a WAV of exactly 60.000 s is refused as too long',
    only: ['voice-save.reference.duration-in-range'],
    caughtBy: 'voice-save.reference.duration-in-range',
    handle: refuseSavesOf((f) => f.name === 'valid-60s.wav', 400, errors.refAudioTooLong.code),
  },
  {
    name: 'a reference of exactly 20 MiB is refused as too large',
    only: ['voice-save.reference.size-at-limit'],
    caughtBy: 'voice-save.reference.size-at-limit',
    handle: refuseSavesOf((f) => f.size >= limits.referenceMaxBytes.value, 400, errors.refAudioTooLarge.code),
  },
  {
    name: 'a reference given as an http(s) URL is refused',
    only: ['voice-save.reference.url'],
    caughtBy: 'voice-save.reference.url',
    handle: async (req, next) => {
      if (!isSave(req)) return next(req);
      const ref = String(((await req.clone().json()) as Obj).ref_audio);
      return /^https?:/.test(ref) ? refuse(400, errors.refAudioNotAccessible.code, 'URL refused') : next(req);
    },
  },
  {
    name: "another organization's key deletes our voice",
    only: ['delete.scope.other-org'],
    caughtBy: 'delete.scope.other-org',
    handle: (req, next) =>
      req.method === 'DELETE' && req.headers.get('x-api-key') === 'mock-key-other-org'
        ? withMainKey(req, next)
        : next(req),
  },
  {
    name: 'upload lowercases file_name',
    only: ['upload.accepts.wav'],
    caughtBy: 'upload.accepts.wav',
    handle: rewriteJson(
      (req, res) => isUpload(req) && res.status === 200,
      (b) => ({
        ...b,
        data: { ...(b.data as Obj), file_name: String((b.data as Obj).file_name).toLowerCase() },
      }),
    ),
  },
  {
    name: 'the extension check is case-sensitive (.FLAC accepted)',
    only: ['upload.extension.flac-uppercase-refused'],
    caughtBy: 'upload.extension.flac-uppercase-refused',
    handle: renameUpload((name) => name.replace(/\.FLAC$/, '.wav')),
  },
  {
    name: 'the extension check looks at the first extension (.wav.flac accepted)',
    only: ['upload.extension.double-wav-flac-refused'],
    caughtBy: 'upload.extension.double-wav-flac-refused',
    handle: renameUpload((name) => (name.includes('.wav.') ? name.replace(/\.wav\..*$/, '.wav') : name)),
  },
  {
    name: 'the PCM sample-rate header states twice the real rate',
    only: ['synthesis.complete.format-pcm'],
    caughtBy: 'synthesis.complete.format-pcm',
    handle: editHeaders((h) => {
      const rate = h.get(pcmHeaders.sampleRate);
      if (rate) h.set(pcmHeaders.sampleRate, String(Number(rate) * 2));
    }),
  },
  {
    name: 'synthesis answers a well-formed WAV of silence',
    only: ['synthesis.complete.system-default'],
    caughtBy: 'synthesis.complete.system-default',
    handle: async (req, next) => {
      const res = await next(req);
      if (!isSynthesis(req) || res.status !== 200) return res;
      const bytes = new Uint8Array(await res.arrayBuffer());
      bytes.fill(0, 44);
      return new Response(bytes, { status: 200, headers: res.headers });
    },
  },
  {
    name: 'a refused save consumes a free clone use',
    only: ['voice-save.reference.too-short'],
    caughtBy: 'voice-save.reference.too-short',
    handle: async (req, next) => {
      const res = await next(req);
      if (isSave(req) && res.status >= 400) refusedSaves += 1;
      if (!isList(req) || res.status !== 200) return res;
      return rewriteJson(
        () => true,
        (b) => {
          const d = b.data as Obj;
          return {
            ...b,
            data: {
              ...d,
              remainingFreeCloneCount: Math.max(0, Number(d.remainingFreeCloneCount) - refusedSaves),
            },
          };
        },
      )(req, async () => res);
    },
  },
  {
    name: 'the free-use counter is already 0 (upload accounting cannot be verified)',
    only: ['upload.side-effects.no-voice-no-clone-use'],
    caughtBy: 'upload.side-effects.no-voice-no-clone-use',
    outcome: 'warn',
    handle: rewriteJson(
      (req, res) => isList(req) && res.status === 200,
      (b) => ({ ...b, data: { ...(b.data as Obj), remainingFreeCloneCount: 0 } }),
    ),
  },
  {
    name: 'created_at is two hours before the creation',
    only: ['list.voice.created-at-seconds'],
    caughtBy: 'list.voice.created-at-seconds',
    handle: rewriteJson(
      (req, res) => isList(req) && res.status === 200,
      (b) => {
        const d = b.data as Obj;
        const list = (d.list as Obj[]).map((v) => ({ ...v, created_at: Number(v.created_at) - 7200 }));
        return { ...b, data: { ...d, list } };
      },
    ),
  },
  {
    name: 'speed 0 is refused',
    only: ['synthesis.complete.speed-zero'],
    caughtBy: 'synthesis.complete.speed-zero',
    handle: async (req, next) => {
      if (!isSynthesis(req) || ((await req.clone().json()) as Obj).speed !== 0) return next(req);
      return refuse(400, errors.invalidUpload.code, 'speed must be positive');
    },
  },
  {
    name: 'a negative speed is refused with HTTP 500',
    only: ['synthesis.complete.negative-speed'],
    caughtBy: 'synthesis.complete.negative-speed',
    // A server error fails any case, a should case too.
    handle: rewriteJson(
      (req, res) => isSynthesis(req) && res.status === 400,
      (b) => ({ ...b, error_code: 10000 }),
      () => 500,
    ),
  },
  {
    name: 'synthesis accepts a text/plain body',
    only: ['synthesis.request.wrong-content-type'],
    caughtBy: 'synthesis.request.wrong-content-type',
    handle: (req, next) => {
      if (!isSynthesis(req)) return next(req);
      const headers = new Headers(req.headers);
      headers.set('content-type', 'application/json');
      return next(new Request(req, { headers }));
    },
  },
  {
    name: 'the stream is cut off mid-body (the connection closes)',
    only: ['synthesis.stream.chunked'],
    caughtBy: 'synthesis.stream.chunked',
    handle: async (req, next) => {
      const res = await next(req);
      if (!isStream(req) || res.status !== 200) return res;
      const bytes = new Uint8Array(await res.arrayBuffer());
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(bytes.subarray(0, Math.floor(bytes.byteLength / 2)));
          controller.error(new TypeError('terminated'));
        },
      });
      return new Response(body, { status: 200, headers: res.headers });
    },
  },
  {
    name: 'the list leaves voice_url out',
    only: ['list.voice.url-fetchable'],
    caughtBy: 'list.voice.url-fetchable',
    handle: rewriteJson(
      (req, res) => isList(req) && res.status === 200,
      (b) => {
        const d = b.data as Obj;
        const list = (d.list as Obj[]).map(({ voice_url: _dropped, ...v }) => v);
        return { ...b, data: { ...d, list } };
      },
    ),
  },
];

/** Rewrite the headers of synthesis successes (the body passes through). */
function editHeaders(edit: (h: Headers) => void): (req: Request, next: FetchLike) => Promise<Response> {
  return async (req, next) => {
    const res = await next(req);
    if (!isSynthesis(req) || res.status !== 200) return res;
    const headers = new Headers(res.headers);
    edit(headers);
    return new Response(res.body, { status: res.status, headers });
  };
}

/** The last page (has_more false) with next_voice_id as `value` (undefined: omitted). */
const lastPageCursor = (value: string | null | undefined) =>
  rewriteJson(
    (req, res) => isList(req) && res.status === 200,
    (b) => {
      const d = b.data as Obj;
      if (d.has_more) return b;
      const { next_voice_id: _dropped, ...rest } = d;
      return { ...b, data: value === undefined ? rest : { ...rest, next_voice_id: value } };
    },
  );

export const variations: readonly Variation[] = [
  {
    name: 'next_voice_id is null on the last page',
    only: ['list.cursor.traversal'],
    passes: 'list.cursor.traversal',
    handle: lastPageCursor(null),
  },
  {
    name: 'next_voice_id is omitted on the last page',
    only: ['list.page.fields'],
    passes: 'list.page.fields',
    handle: lastPageCursor(undefined),
  },
  {
    name: 'next_voice_id is "" on the last page',
    only: ['list.page-size.boundaries'],
    passes: 'list.page-size.boundaries',
    handle: lastPageCursor(''),
  },
  {
    name: 'PCM headers without a prefix: Sample-Rate, Channel-Count, Bits-Per-Sample',
    only: ['synthesis.complete.format-pcm'],
    passes: 'synthesis.complete.format-pcm',
    handle: editHeaders((h) => {
      const rename = (from: string, to: string) => {
        const v = h.get(from);
        h.delete(from);
        if (v !== null) h.set(to, v);
      };
      rename(pcmHeaders.sampleRate, 'Sample-Rate');
      rename(pcmHeaders.channels, 'Channel-Count');
      rename(pcmHeaders.bitDepth, 'Bits-Per-Sample');
    }),
  },
];

export type { Obj };
