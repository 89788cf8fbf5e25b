/** Deviations of the voice, list, delete and synthesis rules (§2.3–§2.5, §4.2–§4.6). */
import { errors, limits } from '../../openapi/contract.js';
import {
  buffered,
  type Deviation,
  isList,
  isSave,
  isStream,
  isSynthesis,
  pathOf,
  refuse,
  rewriteJson,
  rewriteRequestJson,
} from './deviation-kit.js';

type Obj = Record<string, unknown>;
const data = (b: Obj) => b.data as Obj;
const items = (b: Obj) => (data(b).list ?? []) as Obj[];

/** Voices saved with the other organization's key, injected into the main key's list by one deviation. */
const otherOrgVoices: string[] = [];
let systemVoiceDeleted = false;

export const voiceDeviations: readonly Deviation[] = [
  {
    name: 'a voice_id is not normalized (a mixed-case id is refused)',
    only: ['voice-save.id.normalized'],
    caughtBy: 'voice-save.id.normalized',
    handle: async (req, next) => {
      if (!isSave(req)) return next(req);
      const id = ((await req.clone().json()) as Obj).voice_id;
      if (typeof id === 'string' && id !== id.trim().toLowerCase()) {
        return refuse(errors.voiceIdInvalid.status, errors.voiceIdInvalid.code, 'invalid voice_id');
      }
      return next(req);
    },
  },
  {
    name: 'a 31-character voice_id is accepted (cut to 30)',
    only: ['voice-save.id.too-long'],
    caughtBy: 'voice-save.id.too-long',
    handle: rewriteRequestJson(isSave, (b) => ({
      ...b,
      voice_id: String(b.voice_id).trim().slice(0, limits.voiceIdMaxLength.value),
    })),
  },
  {
    name: 'a duplicate voice_id is accepted',
    only: ['voice-save.id.duplicate'],
    caughtBy: 'voice-save.id.duplicate',
    handle: rewriteJson(
      (req, res) => isSave(req) && res.status >= 400,
      (b) =>
        b.error_code === errors.voiceIdTaken.code
          ? { error_code: 0, error_message: '', succeed: true, data: {} }
          : b,
      (res) => (res.status === errors.voiceIdTaken.status ? 200 : res.status),
    ),
  },
  {
    name: 'a key without Voice Cloning creates a voice',
    only: ['voice-save.capability.no-clone'],
    caughtBy: 'voice-save.capability.no-clone',
    handle: (req, next) => {
      if (!isSave(req) || req.headers.get('x-api-key') !== 'mock-key-no-clone') return next(req);
      const headers = new Headers(req.headers);
      headers.set('x-api-key', 'mock-key');
      return next(new Request(req, { headers }));
    },
  },
  {
    name: 'an object key of another project space is accepted',
    only: ['voice-save.scope.other-project'],
    caughtBy: 'voice-save.scope.other-project',
    handle: (req, next) => {
      if (req.headers.get('x-api-key') !== 'mock-key-other-project') return next(req);
      const headers = new Headers(req.headers);
      headers.set('x-api-key', 'mock-key');
      return next(new Request(req, { headers }));
    },
  },
  {
    name: 'the list repeats a voice across pages (cursor points into the current page)',
    only: ['list.cursor.traversal'],
    caughtBy: 'list.cursor.traversal',
    handle: rewriteJson(
      (req, res) => isList(req) && res.status === 200,
      (b) => {
        const last = items(b).at(-1)?.voice_id;
        return data(b).has_more && last ? { ...b, data: { ...data(b), next_voice_id: last } } : b;
      },
    ),
  },
  {
    name: 'total counts one more voice than the page holds',
    only: ['list.page.fields'],
    caughtBy: 'list.page.fields',
    handle: rewriteJson(
      (req, res) => isList(req) && res.status === 200,
      (b) => ({ ...b, data: { ...data(b), total: items(b).length + 1 } }),
    ),
  },
  {
    name: 'created_at is in milliseconds',
    only: ['list.voice.created-at-seconds'],
    caughtBy: 'list.voice.created-at-seconds',
    handle: rewriteJson(
      (req, res) => isList(req) && res.status === 200,
      (b) => ({
        ...b,
        data: { ...data(b), list: items(b).map((v) => ({ ...v, created_at: Number(v.created_at) * 1000 })) },
      }),
    ),
  },
  {
    name: "another organization's voice is visible",
    only: ['list.scope.other-org'],
    caughtBy: 'list.scope.other-org',
    handle: async (req, next) => {
      const key = req.headers.get('x-api-key');
      if (isSave(req) && key === 'mock-key-other-org') {
        otherOrgVoices.push(String(((await req.clone().json()) as Obj).voice_id));
      }
      if (!isList(req) || key !== 'mock-key') return next(req);
      return rewriteJson(
        (_, res) => res.status === 200,
        (b) => {
          const extra = otherOrgVoices.map((voice_id) => ({
            voice_id,
            voice_url: 'http://127.0.0.1:9/x.wav',
            created_at: 1,
          }));
          return {
            ...b,
            data: { ...data(b), list: [...items(b), ...extra], total: items(b).length + extra.length },
          };
        },
      )(req, next);
    },
  },
  {
    name: 'delete answers success without deleting',
    only: ['delete.voice.removed'],
    caughtBy: 'delete.voice.removed',
    handle: async (req, next) =>
      req.method === 'DELETE'
        ? new Response(JSON.stringify({ error_code: 0, error_message: '', succeed: true, data: null }), {
            headers: { 'content-type': 'application/json' },
          })
        : next(req),
  },
  {
    name: 'deleting system_default removes it',
    only: ['delete.system-voice.survives'],
    caughtBy: 'delete.system-voice.survives',
    handle: async (req, next) => {
      if (req.method === 'DELETE' && pathOf(req).endsWith('/system_default')) systemVoiceDeleted = true;
      if (systemVoiceDeleted && isSynthesis(req)) {
        const body = (await req.clone().json()) as Obj;
        if (body.voice_id === 'system_default') return refuse(400, 10001, 'unknown voice');
      }
      return next(req);
    },
  },
  {
    name: 'a synthesis without X-API-Key is accepted',
    only: ['auth.synthesizeSpeech.missing-key'],
    caughtBy: 'auth.synthesizeSpeech.missing-key',
    handle: (req, next) => {
      if (!isSynthesis(req) || req.headers.has('x-api-key')) return next(req);
      const headers = new Headers(req.headers);
      headers.set('x-api-key', 'mock-key');
      return next(new Request(req, { headers }));
    },
  },
  {
    name: 'speed is ignored (speed 2.0 gives audio as long as 1.0)',
    only: ['synthesis.complete.speed-faster-shorter'],
    caughtBy: 'synthesis.complete.speed-faster-shorter',
    outcome: 'warn',
    handle: rewriteRequestJson(isSynthesis, (b) => ({ ...b, speed: undefined })),
  },
  {
    name: 'a negative speed is accepted',
    only: ['synthesis.complete.negative-speed'],
    caughtBy: 'synthesis.complete.negative-speed',
    handle: rewriteRequestJson(isSynthesis, (b) => (Number(b.speed) < 0 ? { ...b, speed: 1 } : b)),
  },
  {
    name: 'synthesis answers Content-Type application/octet-stream',
    only: ['synthesis.complete.system-default'],
    caughtBy: 'synthesis.complete.system-default',
    handle: async (req, next) => {
      const res = await next(req);
      if (!isSynthesis(req) || res.status !== 200) return res;
      return buffered(res, (h) => h.set('content-type', 'application/octet-stream'));
    },
  },
  {
    name: 'synthesis audio bytes are corrupt (RIFF header zeroed)',
    only: ['synthesis.complete.system-default'],
    caughtBy: 'synthesis.complete.system-default',
    handle: async (req, next) => {
      const res = await next(req);
      if (!isSynthesis(req) || res.status !== 200) return res;
      const bytes = new Uint8Array(await res.arrayBuffer());
      bytes.fill(0, 0, 12);
      return new Response(bytes, { status: 200, headers: res.headers });
    },
  },
  {
    name: 'PCM responses lack the sample-rate/channels/bit-depth headers',
    only: ['synthesis.complete.format-pcm'],
    caughtBy: 'synthesis.complete.format-pcm',
    handle: async (req, next) => {
      const res = await next(req);
      const headers = new Headers(res.headers);
      for (const [name] of res.headers) if (/^x-audio-/i.test(name)) headers.delete(name);
      return new Response(res.body, { status: res.status, headers });
    },
  },
  {
    name: 'the stream is buffered (whole body before the first byte)',
    only: ['synthesis.stream.progressive'],
    caughtBy: 'synthesis.stream.progressive',
    handle: async (req, next) => {
      const res = await next(req);
      return isStream(req) && res.status === 200 ? buffered(res, () => undefined) : res;
    },
  },
  {
    name: 'the stream carries Content-Length instead of chunked transfer',
    only: ['synthesis.stream.chunked'],
    caughtBy: 'synthesis.stream.chunked',
    handle: async (req, next) => {
      const res = await next(req);
      if (!isStream(req) || res.status !== 200) return res;
      return buffered(res, (h, size) => {
        h.delete('transfer-encoding');
        h.set('content-length', String(size));
      });
    },
  },
  {
    name: 'the stream is announced as Server-Sent Events',
    only: ['synthesis.stream.not-event-stream'],
    caughtBy: 'synthesis.stream.not-event-stream',
    handle: async (req, next) => {
      const res = await next(req);
      if (!isStream(req) || res.status !== 200) return res;
      const headers = new Headers(res.headers);
      headers.set('content-type', 'text/event-stream');
      return new Response(res.body, { status: 200, headers });
    },
  },
];
