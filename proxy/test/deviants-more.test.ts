/**
 * The proxy as the hidden checks use it, adversarially: one deviant upstream per rule a single exchange
 * can show, each answering like the contract but for that one thing. Each must give exactly the
 * violation named (rule, operation, section) and nothing else; the documented errors of the spec give
 * none; and malformed requests, resets, silent upstreams and aborts leave the proxy serving.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import http from 'node:http';
import { connect } from 'node:net';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../entries/node.js';
import { type ProxyServer, startProxy } from '../index.js';
import type { Violation } from '../types.js';
import { envelope, sendJson, upstream, wav } from './upstreams.js';

type Handle = (req: IncomingMessage, body: Buffer, res: ServerResponse) => void;

/**
 * One upstream and one proxy for the whole file: the upstream dispatches on the `X-Deviant` request
 * header to the case's handler, so each case costs one request, not two servers.
 */
const handlers = new Map<string, Handle>();
let proxy: ProxyServer;
let mock: MockServer;
let closeUp: () => Promise<void>;
let mp3: Buffer;

beforeAll(async () => {
  mock = await startMockServer({ port: 0 });
  const up = await upstream((req, body, res) => {
    const h = handlers.get(String(req.headers['x-deviant']));
    if (h) return h(req, body, res);
    sendJson(res, 500, envelope(500, 10000));
  });
  closeUp = up.close;
  proxy = await startProxy({ upstream: up.url, port: 0, upstreamTimeoutMs: 1500 });
  const fromMock = await fetch(
    `${mock.url}/v1/text-to-speech`,
    synthInit('mp3', { 'X-API-Key': 'mock-key' }),
  );
  expect(fromMock.headers.get('content-type')).toBe('audio/mpeg');
  mp3 = Buffer.from(await fromMock.arrayBuffer());
});
afterAll(async () => {
  await proxy.close();
  await closeUp();
  await mock.close();
});

const key = { 'X-API-Key': 'k' };
function synthInit(format: string, headers: Record<string, string> = {}): RequestInit {
  return {
    method: 'POST',
    headers: { ...key, 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ generate_text: 'Hello there.', audio_format: format }),
  };
}
function uploadInit(headers: Record<string, string> = key, bytes = 1234, name = 'a.wav'): RequestInit {
  const form = new FormData();
  form.set('scene', 'audio');
  form.set('file', new Blob([new Uint8Array(bytes)]), name);
  return { method: 'POST', headers, body: form };
}
const saveInit = (headers: Record<string, string> = key, voiceId = 'my_voice'): RequestInit => ({
  method: 'POST',
  headers: { ...headers, 'content-type': 'application/json' },
  body: JSON.stringify({ voice_id: voiceId, ref_audio: 'upl_1' }),
});
const tooLongId = 'a_voice_id_longer_than_thirty_chars';

let n = 0;
/** Sends one request through the proxy to `handle`; the violations of that exchange alone. */
async function through(
  handle: Handle,
  path: string,
  init: RequestInit = { headers: key },
): Promise<Violation[]> {
  const name = `case-${++n}`;
  handlers.set(name, handle);
  const headers = new Headers(init.headers);
  headers.set('x-deviant', name);
  // Each case is one exchange of its own: its own key keeps the session rules of the others out of it.
  if (headers.get('x-api-key')) headers.set('x-api-key', `${headers.get('x-api-key')}-${name}`);
  const before = proxy.report().counts.exchanges;
  const res = await fetch(proxy.url + path, { ...init, headers });
  await res.arrayBuffer().catch(() => undefined);
  for (let i = 0; i < 100 && proxy.report().counts.exchanges === before; i++)
    await new Promise((r) => setTimeout(r, 5));
  const exchange = proxy.report().exchanges.at(-1);
  return proxy.report().violations.filter((v) => v.exchange === exchange?.id);
}
const ruleIds = (vs: readonly Violation[]) => vs.map((v) => v.rule);

const json =
  (status: number, body: unknown, headers: Record<string, string> = {}): Handle =>
  (_req, _body, res) =>
    sendJson(res, status, typeof body === 'string' ? body : JSON.stringify(body), headers);
const audio =
  (type: string, bytes: Buffer, headers: Record<string, string> = {}): Handle =>
  (_req, _body, res) => {
    res.writeHead(200, { 'content-type': type, ...headers });
    res.end(bytes);
  };

const ok = (data: unknown) => ({ error_code: 0, error_message: '', succeed: true, data });
const fail = (code: number) => ({ error_code: code, error_message: 'refused', succeed: false, data: null });
const voice = (i: number) => ({
  voice_id: `v${i}`,
  voice_url: `https://x.invalid/v${i}?sig=1`,
  created_at: 1767225600,
});
const page = (count: number, extra: Record<string, unknown> = {}) => ({
  list: Array.from({ length: count }, (_, i) => voice(i)),
  has_more: false,
  total: count,
  remainingFreeCloneCount: 3,
  ...extra,
});
const uploaded = (over: Record<string, unknown> = {}) => ({
  object_key: 'upl_1',
  file_name: 'a.wav',
  size: 1234,
  scene: 'audio',
  ...over,
});
const pcm = { 'x-audio-sample-rate': '24000', 'x-audio-channels': '1', 'x-audio-bit-depth': '16' };
const pcmBody = wav(4800).subarray(44);

/** A WAV with its fmt chunk's fields overridden. */
function wavWith(fields: {
  sampleRate?: number;
  byteRate?: number;
  blockAlign?: number;
  channels?: number;
  bits?: number;
}) {
  const b = Buffer.from(wav(4800));
  if (fields.channels !== undefined) b.writeUInt16LE(fields.channels, 22);
  if (fields.sampleRate !== undefined) b.writeUInt32LE(fields.sampleRate, 24);
  if (fields.byteRate !== undefined) b.writeUInt32LE(fields.byteRate, 28);
  if (fields.blockAlign !== undefined) b.writeUInt16LE(fields.blockAlign, 32);
  if (fields.bits !== undefined) b.writeUInt16LE(fields.bits, 34);
  return b;
}

interface Case {
  readonly name: string;
  readonly handle: () => Handle;
  readonly path: string;
  readonly init?: () => RequestInit;
  readonly rules: readonly string[];
  readonly operationId: string;
  readonly section?: string;
  readonly seen?: RegExp;
}

const listPath = '/v1/voice/list';
const cases: Case[] = [
  // §2.1 envelope and Content-Type of JSON answers
  {
    name: 'JSON answered as text/plain',
    handle: () => json(200, ok(page(1)), { 'content-type': 'text/plain' }),
    path: listPath,
    rules: ['content-type.documented'],
    operationId: 'listVoices',
    section: '§2.1, §2.5',
  },
  {
    name: 'succeed a string',
    handle: () => json(200, { ...ok(page(1)), succeed: 'true' }),
    path: listPath,
    rules: ['envelope.shape'],
    operationId: 'listVoices',
    seen: /succeed is "true"/,
  },
  {
    name: 'error_message missing on success',
    handle: () => json(200, { error_code: 0, succeed: true, data: page(1) }),
    path: listPath,
    rules: ['envelope.shape'],
    operationId: 'listVoices',
    seen: /error_message/,
  },
  {
    name: 'error_code 0 with succeed false on a 400',
    handle: () => json(400, { ...fail(10001), error_code: 0 }),
    path: listPath,
    rules: ['envelope.shape'],
    operationId: 'listVoices',
    seen: /error_code is 0 on HTTP 400/,
  },
  {
    name: 'data non-null on an error',
    handle: () => json(400, { ...fail(10001), data: {} }),
    path: listPath,
    rules: ['envelope.shape'],
    operationId: 'listVoices',
    seen: /data is \{\} on HTTP 400/,
  },
  {
    name: 'an empty error_message on an error',
    handle: () => json(400, { ...fail(10001), error_message: '' }),
    path: listPath,
    rules: ['envelope.shape'],
    operationId: 'listVoices',
  },
  {
    name: 'HTTP 200 with an error envelope',
    handle: () => json(200, fail(10001)),
    path: listPath,
    rules: ['envelope.shape'],
    operationId: 'listVoices',
    seen: /succeed is false on HTTP 200/,
  },
  {
    name: 'HTTP 500 with a success envelope',
    handle: () => json(500, ok(page(1))),
    path: listPath,
    rules: ['envelope.shape'],
    operationId: 'listVoices',
    seen: /succeed is true on HTTP 500/,
  },
  {
    name: 'a body that is not JSON',
    handle: () => json(200, '{"error_code":0,'),
    path: listPath,
    rules: ['envelope.shape'],
    operationId: 'listVoices',
    seen: /not JSON/,
  },
  {
    name: 'an empty JSON answer',
    handle: () => json(200, ''),
    path: listPath,
    rules: ['envelope.shape'],
    operationId: 'listVoices',
    seen: /empty/,
  },
  {
    name: 'a brotli-compressed error envelope on HTTP 200',
    handle: () => (_req, _body, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'br' });
      res.end(brotliCompressSync(JSON.stringify(fail(10001))));
    },
    path: listPath,
    rules: ['envelope.shape'],
    operationId: 'listVoices',
    seen: /succeed is false on HTTP 200/,
  },
  {
    name: 'an array instead of the envelope',
    handle: () => json(200, [ok(page(1))]),
    path: listPath,
    rules: ['envelope.shape'],
    operationId: 'listVoices',
    seen: /array/,
  },
  // §4.3 the list
  {
    name: 'a list without has_more',
    handle: () => json(200, ok({ list: [voice(1)], total: 1, remainingFreeCloneCount: 1 })),
    path: listPath,
    rules: ['schema.response'],
    operationId: 'listVoices',
    seen: /has_more/,
  },
  {
    name: 'a list without total',
    handle: () => json(200, ok({ list: [voice(1)], has_more: false, remainingFreeCloneCount: 1 })),
    path: listPath,
    rules: ['schema.response'],
    operationId: 'listVoices',
    seen: /total/,
  },
  {
    name: 'has_more true without next_voice_id',
    handle: () => json(200, ok(page(1, { has_more: true }))),
    path: listPath,
    rules: ['schema.response'],
    operationId: 'listVoices',
    seen: /next_voice_id/,
  },
  {
    name: 'voice_url that is no URL',
    handle: () => json(200, ok(page(1, { list: [{ ...voice(1), voice_url: 'not a url' }] }))),
    path: listPath,
    rules: ['schema.response'],
    operationId: 'listVoices',
    seen: /voice_url/,
  },
  {
    name: 'created_at a string',
    handle: () => json(200, ok(page(1, { list: [{ ...voice(1), created_at: '2026-01-01' }] }))),
    path: listPath,
    rules: ['schema.response'],
    operationId: 'listVoices',
    seen: /created_at/,
  },
  {
    name: 'created_at in milliseconds as a float',
    handle: () => json(200, ok(page(1, { list: [{ ...voice(1), created_at: 1767225600.5 }] }))),
    path: listPath,
    rules: ['schema.response'],
    operationId: 'listVoices',
    seen: /created_at/,
  },
  {
    name: 'a page larger than page_size',
    handle: () => json(200, ok(page(6))),
    path: `${listPath}?page_size=5`,
    rules: ['list.page-size'],
    operationId: 'listVoices',
    section: '§4.3, §8',
    seen: /^6 voices in a page of page_size 5$/,
  },
  {
    name: 'a page larger than the default 20',
    handle: () => json(200, ok(page(21))),
    path: listPath,
    rules: ['list.page-size'],
    operationId: 'listVoices',
    seen: /^21 voices in a page of page_size 20 \(the default\)$/,
  },
  {
    name: 'total the overall count',
    handle: () => json(200, ok(page(2, { total: 7 }))),
    path: listPath,
    rules: ['list.page-size'],
    operationId: 'listVoices',
    seen: /total is 7 for a page of 2/,
  },
  // §2.2, §4.1 upload
  {
    name: 'upload file_name not echoed',
    handle: () => json(200, ok(uploaded({ file_name: 'other.wav' }))),
    path: '/v1/files/upload',
    init: () => uploadInit(),
    rules: ['upload.file-name'],
    operationId: 'uploadFile',
    section: '§2.2',
  },
  {
    name: 'upload size wrong',
    handle: () => json(200, ok(uploaded({ size: 1233 }))),
    path: '/v1/files/upload',
    init: () => uploadInit(),
    rules: ['upload.size'],
    operationId: 'uploadFile',
    seen: /^size is 1233; the uploaded file has 1234 bytes$/,
  },
  {
    name: 'upload size a string',
    handle: () => json(200, ok(uploaded({ size: '1234' }))),
    path: '/v1/files/upload',
    init: () => uploadInit(),
    rules: ['schema.response'],
    operationId: 'uploadFile',
    seen: /size/,
  },
  {
    name: 'upload answer without object_key',
    handle: () => json(200, ok({ file_name: 'a.wav', size: 1234, scene: 'audio' })),
    path: '/v1/files/upload',
    init: () => uploadInit(),
    rules: ['schema.response'],
    operationId: 'uploadFile',
    seen: /object_key/,
  },
  {
    name: 'upload data null on success',
    handle: () => json(200, ok(null)),
    path: '/v1/files/upload',
    init: () => uploadInit(),
    rules: ['envelope.shape'],
    operationId: 'uploadFile',
    seen: /data is null on success/,
  },
  // §7.1, §5.5, §4.2 status and error_code pairs
  {
    name: 'upload 400 with 20010',
    handle: () => json(400, fail(20010)),
    path: '/v1/files/upload',
    init: () => uploadInit(),
    rules: ['error-code.for-status'],
    operationId: 'uploadFile',
    section: '§4.2, §5.5, §7.1',
  },
  {
    name: 'upload 429 with 10001',
    handle: () => json(429, fail(10001), { 'retry-after': '60' }),
    path: '/v1/files/upload',
    init: () => uploadInit(),
    rules: ['error-code.for-status'],
    operationId: 'uploadFile',
  },
  {
    name: 'upload 413 with 10003',
    handle: () => json(413, fail(10003)),
    path: '/v1/files/upload',
    init: () => uploadInit(),
    rules: ['error-code.for-status'],
    operationId: 'uploadFile',
  },
  {
    name: 'upload 502 (not in the §7.1 table)',
    handle: () => json(502, fail(10000)),
    path: '/v1/files/upload',
    init: () => uploadInit(),
    rules: ['status.documented'],
    operationId: 'uploadFile',
  },
  {
    name: 'save 409 with 10001 (§4.2 rule 1 is 400)',
    handle: () => json(409, fail(10001)),
    path: '/v1/voice/save',
    init: () => saveInit(key, tooLongId),
    rules: ['error-code.for-status'],
    operationId: 'saveVoice',
    seen: /§4\.2 rule 1/,
  },
  {
    name: 'a 401 with 10005 on synthesis',
    handle: () => json(401, fail(10005)),
    path: '/v1/text-to-speech',
    init: () => synthInit('wav'),
    rules: ['error-code.for-status'],
    operationId: 'synthesizeSpeech',
  },
  {
    name: 'a 401 answered as 403 (missing key)',
    handle: () => json(403, fail(10003)),
    path: listPath,
    init: () => ({}),
    rules: ['auth.missing-key'],
    operationId: 'listVoices',
    section: '§5.1, §5.5',
  },
  {
    name: 'a missing key answered 400',
    handle: () => json(400, fail(10001)),
    path: '/v1/files/upload',
    init: () => uploadInit({}),
    rules: ['auth.missing-key'],
    operationId: 'uploadFile',
  },
  {
    name: 'a missing key answered with audio',
    handle: () => audio('audio/wav', wav(2400)),
    path: '/v1/text-to-speech',
    init: () => ({
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"generate_text":"hi"}',
    }),
    rules: ['auth.missing-key'],
    operationId: 'synthesizeSpeech',
  },
  {
    name: 'an empty X-API-Key answered 200',
    handle: () => json(200, ok(page(0))),
    path: listPath,
    init: () => ({ headers: { 'X-API-Key': ' ' } }),
    rules: ['auth.missing-key'],
    operationId: 'listVoices',
  },
  {
    name: 'delete answering 204 without a body',
    handle: () => (_req, _body, res) => {
      res.writeHead(204);
      res.end();
    },
    path: '/v1/voice/my_voice',
    init: () => ({ method: 'DELETE', headers: key }),
    rules: ['status.documented'],
    operationId: 'deleteVoice',
    seen: /^HTTP 204; deleteVoice documents 200/,
  },
  {
    name: 'delete answering 200 with text',
    handle: () => json(200, 'deleted', { 'content-type': 'text/plain' }),
    path: '/v1/voice/my_voice',
    init: () => ({ method: 'DELETE', headers: key }),
    rules: ['content-type.documented', 'envelope.shape'],
    operationId: 'deleteVoice',
  },
  // §4.4 leaves the status of a refused deletion open; the OpenAPI records the kit's answer to that open
  // question (200 for a voice already missing, 403 for a system voice), and it is what the proxy judges by.
  {
    name: 'a 3xx redirect on list',
    handle: () => json(302, '', { location: '/elsewhere' }),
    path: listPath,
    init: () => ({ headers: key, redirect: 'manual' }),
    rules: ['status.documented'],
    operationId: 'listVoices',
  },
  // §2.5 audio
  {
    name: 'audio as application/json',
    handle: () => audio('application/json', wav(2400)),
    path: '/v1/text-to-speech',
    init: () => synthInit('wav'),
    rules: ['content-type.documented'],
    operationId: 'synthesizeSpeech',
    section: '§2.1, §2.5',
  },
  {
    name: 'HTTP 200 with an error envelope on synthesis',
    handle: () => json(200, fail(10001)),
    path: '/v1/text-to-speech',
    init: () => synthInit('wav'),
    rules: ['content-type.documented'],
    operationId: 'synthesizeSpeech',
  },
  {
    name: 'audio/ogg for a wav request',
    handle: () => audio('audio/ogg', Buffer.from('OggS0000')),
    path: '/v1/text-to-speech',
    init: () => synthInit('wav'),
    rules: ['content-type.documented'],
    operationId: 'synthesizeSpeech',
  },
  {
    name: 'a stream as SSE',
    handle: () => audio('text/event-stream', Buffer.from('data: AAAA\n\n')),
    path: '/v1/text-to-speech/stream',
    init: () => synthInit('wav'),
    rules: ['content-type.documented'],
    operationId: 'streamSpeech',
  },
  {
    name: 'a WAV whose RIFF size is off',
    handle: () => audio('audio/wav', wav(2400, { riff: 36 + 4800 + 2 })),
    path: '/v1/text-to-speech',
    init: () => synthInit('wav'),
    rules: ['audio.body'],
    operationId: 'synthesizeSpeech',
    section: '§2.5',
    seen: /RIFF size/,
  },
  {
    name: 'a WAV cut short (sizes claim more)',
    handle: () => audio('audio/wav', wav(2400).subarray(0, 3000)),
    path: '/v1/text-to-speech',
    init: () => synthInit('wav'),
    rules: ['audio.body'],
    operationId: 'synthesizeSpeech',
    seen: /RIFF size [^;]*; WAV: the data chunk claims/,
  },
  {
    name: 'a WAV whose byte rate disagrees with its sample rate',
    handle: () => audio('audio/wav', wavWith({ byteRate: 44100 * 2 })),
    path: '/v1/text-to-speech',
    init: () => synthInit('wav'),
    rules: ['audio.body'],
    operationId: 'synthesizeSpeech',
    seen: /byte rate/,
  },
  {
    name: 'a WAV whose block align disagrees with channels × bits',
    handle: () => audio('audio/wav', wavWith({ channels: 2 })),
    path: '/v1/text-to-speech',
    init: () => synthInit('wav'),
    rules: ['audio.body'],
    operationId: 'synthesizeSpeech',
    seen: /block align/,
  },
  {
    name: 'a WAV with sample rate 0',
    handle: () => audio('audio/wav', wavWith({ sampleRate: 0, byteRate: 0 })),
    path: '/v1/text-to-speech',
    init: () => synthInit('wav'),
    rules: ['audio.body'],
    operationId: 'synthesizeSpeech',
    seen: /sample rate/,
  },
  {
    name: 'an MP3 answered as audio/wav',
    handle: () => audio('audio/wav', mp3),
    path: '/v1/text-to-speech',
    init: () => synthInit('wav'),
    rules: ['audio.body'],
    operationId: 'synthesizeSpeech',
    seen: /not RIFF/,
  },
  {
    name: 'a WAV answered as audio/mpeg',
    handle: () => audio('audio/mpeg', wav(2400)),
    path: '/v1/text-to-speech',
    init: () => synthInit('mp3'),
    rules: ['audio.body'],
    operationId: 'synthesizeSpeech',
    seen: /^MP3: no MPEG audio frame at byte 0/,
  },
  {
    name: 'garbage after the first MP3 frame',
    handle: () =>
      audio('audio/mpeg', Buffer.concat([mp3.subarray(0, firstFrameEnd()), Buffer.alloc(300, 0x5a)])),
    path: '/v1/text-to-speech',
    init: () => synthInit('mp3'),
    rules: ['audio.body'],
    operationId: 'synthesizeSpeech',
    seen: /after 1 frames/,
  },
  {
    name: 'an MP3 whose last frame is cut',
    handle: () => audio('audio/mpeg', mp3.subarray(0, mp3.length - 7)),
    path: '/v1/text-to-speech',
    init: () => synthInit('mp3'),
    rules: ['audio.body'],
    operationId: 'synthesizeSpeech',
    seen: /last MPEG frame is cut/,
  },
  {
    name: 'an empty audio body',
    handle: () => audio('audio/wav', Buffer.alloc(0)),
    path: '/v1/text-to-speech',
    init: () => synthInit('wav'),
    rules: ['audio.body'],
    operationId: 'synthesizeSpeech',
    seen: /empty/,
  },
  {
    name: 'PCM with an odd byte count',
    handle: () => audio('audio/pcm', Buffer.concat([pcmBody, Buffer.alloc(1)]), pcm),
    path: '/v1/text-to-speech',
    init: () => synthInit('pcm'),
    rules: ['audio.body'],
    operationId: 'synthesizeSpeech',
    seen: /not a multiple of the frame size 2/,
  },
  {
    name: 'PCM with a WAV header',
    handle: () => audio('audio/pcm', wav(2400), pcm),
    path: '/v1/text-to-speech',
    init: () => synthInit('pcm'),
    rules: ['audio.body'],
    operationId: 'synthesizeSpeech',
    seen: /RIFF header/,
  },
  {
    name: 'PCM without the sample rate header',
    handle: () => audio('audio/pcm', pcmBody, { 'x-audio-channels': '1', 'x-audio-bit-depth': '16' }),
    path: '/v1/text-to-speech',
    init: () => synthInit('pcm'),
    rules: ['audio.pcm-headers'],
    operationId: 'synthesizeSpeech',
    seen: /X-Audio-Sample-Rate header is missing/,
  },
  {
    name: 'PCM channels 0',
    handle: () => audio('audio/pcm', pcmBody, { ...pcm, 'x-audio-channels': '0' }),
    path: '/v1/text-to-speech',
    init: () => synthInit('pcm'),
    rules: ['audio.pcm-headers'],
    operationId: 'synthesizeSpeech',
  },
  {
    name: 'PCM bit depth "16bit"',
    handle: () => audio('audio/pcm', pcmBody, { ...pcm, 'x-audio-bit-depth': '16bit' }),
    path: '/v1/text-to-speech/stream',
    init: () => synthInit('pcm'),
    rules: ['audio.pcm-headers'],
    operationId: 'streamSpeech',
  },
  {
    name: 'wav asked, mp3 given',
    handle: () => audio('audio/mpeg', mp3),
    path: '/v1/text-to-speech',
    init: () => synthInit('wav'),
    rules: ['audio.requested-format'],
    operationId: 'synthesizeSpeech',
    section: '§2.4, §2.5',
  },
  {
    name: 'a stream with Content-Length',
    handle: () =>
      audio('audio/wav', wav(2400, { riff: 0, data: 0 }), { 'content-length': String(wav(2400).length) }),
    path: '/v1/text-to-speech/stream',
    init: () => synthInit('wav'),
    rules: ['stream.chunked'],
    operationId: 'streamSpeech',
    section: '§4.6',
  },
];

/** Where the mock's first MPEG frame ends (its length from the frame header: 144 × bitrate / rate + padding). */
function firstFrameEnd(): number {
  const byte = (i: number) => mp3[i] ?? 0;
  let at = 0;
  if (mp3.subarray(0, 3).toString('latin1') === 'ID3')
    at = 10 + ((byte(6) << 21) | (byte(7) << 14) | (byte(8) << 7) | byte(9));
  const bitrates = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320];
  const rates = [44100, 48000, 32000];
  const b2 = byte(at + 2);
  const versionBits = (byte(at + 1) >> 3) & 3;
  const mpeg1 = versionBits === 3;
  const rate = (rates[(b2 >> 2) & 3] ?? Number.NaN) / (mpeg1 ? 1 : versionBits === 2 ? 2 : 4);
  const kbps =
    (mpeg1 ? bitrates : [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160])[b2 >> 4] ??
    Number.NaN;
  return at + Math.floor(((mpeg1 ? 144 : 72) * kbps * 1000) / rate) + ((b2 >> 1) & 1);
}

describe('the proxy against one deviant upstream per rule', () => {
  it.each(cases)('$name → $rules', async (c) => {
    const vs = await through(c.handle(), c.path, c.init?.());
    expect(ruleIds(vs), vs.map((v) => v.seen).join('\n')).toEqual(c.rules);
    for (const v of vs) {
      expect(v.operationId).toBe(c.operationId);
      expect(v.section).toMatch(/^§/);
    }
    if (c.section) expect(vs[0]?.section).toBe(c.section);
    if (c.seen) expect(vs.map((v) => v.seen).join('\n')).toMatch(c.seen);
  });
});

/** A streamed WAV (placeholder sizes) of `seconds`, sent after `waitMs` as `pieceMs`-of-audio writes, all in one turn. */
const late =
  (seconds: number, waitMs: number, pieceMs: number): Handle =>
  (_req, _body, res) => {
    const body = wav(24000 * seconds, { riff: 0xffffffff, data: 0xffffffff });
    const piece = 48 * pieceMs;
    setTimeout(() => {
      res.writeHead(200, { 'content-type': 'audio/wav' });
      res.write(body.subarray(0, 44));
      for (let at = 44; at < body.length; at += piece) res.write(body.subarray(at, at + piece));
      res.end();
    }, waitMs);
  };

describe('stream.progressive tells a lump from a generator that started late', () => {
  it('a 30 s lump in one write after 1.1 s is one lump (its copy takes longer than a tenth of the wait)', async () => {
    const vs = await through(late(30, 1100, 30_000), '/v1/text-to-speech/stream', synthInit('wav'));
    expect(ruleIds(vs)).toEqual(['stream.progressive']);
    expect(vs[0]).toMatchObject({ operationId: 'streamSpeech', section: '§4.6' });
  });
  it('100 ms chunks sent all at once after 1.2 s are one lump', async () => {
    expect(ruleIds(await through(late(2, 1200, 100), '/v1/text-to-speech/stream', synthInit('wav')))).toEqual(
      ['stream.progressive'],
    );
  });
  it('a whole body with Content-Length after 600 ms is stream.chunked alone (the length says it was whole)', async () => {
    const body = wav(48000);
    const vs = await through(
      (_req, _body, res) => {
        setTimeout(() => {
          res.writeHead(200, { 'content-type': 'audio/wav', 'content-length': String(body.length) });
          res.end(body);
        }, 600);
      },
      '/v1/text-to-speech/stream',
      synthInit('wav'),
    );
    expect(ruleIds(vs)).toEqual(['stream.chunked']);
  });
  it("100 ms chunks sent all at once after 500 ms (the clean mock's cold start on a loaded machine) are not", async () => {
    expect(await through(late(2, 500, 100), '/v1/text-to-speech/stream', synthInit('wav'))).toEqual([]);
  });
  it('the same 2 s after 500 ms in one write are not either: the proxy cannot see the writes, only the wait', async () => {
    expect(await through(late(2, 500, 2000), '/v1/text-to-speech/stream', synthInit('wav'))).toEqual([]);
  });
});

describe('documented errors of the upstream are no violations', () => {
  const none: Array<Omit<Case, 'rules' | 'operationId'>> = [
    {
      name: 'upload 401/10003 without a key',
      handle: () => json(401, fail(10003)),
      path: '/v1/files/upload',
      init: () => uploadInit({}),
    },
    {
      name: 'upload 401/10003 for a bad key',
      handle: () => json(401, fail(10003)),
      path: '/v1/files/upload',
      init: () => uploadInit(),
    },
    {
      name: 'upload 400/10001',
      handle: () => json(400, fail(10001)),
      path: '/v1/files/upload',
      init: () => uploadInit(),
    },
    {
      name: 'upload 400/20012',
      handle: () => json(400, fail(20012)),
      path: '/v1/files/upload',
      init: () => uploadInit({ ...key }, 10, 'a.flac'),
    },
    {
      name: 'upload 413/20010',
      handle: () => json(413, fail(20010)),
      path: '/v1/files/upload',
      init: () => uploadInit(),
    },
    {
      name: 'upload 429/10005 with Retry-After',
      handle: () => json(429, fail(10005), { 'retry-after': '60' }),
      path: '/v1/files/upload',
      init: () => uploadInit(),
    },
    {
      name: 'upload 429/10005 without Retry-After (the spec does not ask for it)',
      handle: () => json(429, fail(10005)),
      path: '/v1/files/upload',
      init: () => uploadInit(),
    },
    {
      name: 'upload 504/10006',
      handle: () => json(504, fail(10006)),
      path: '/v1/files/upload',
      init: () => uploadInit(),
    },
    {
      name: 'upload 503/20002',
      handle: () => json(503, fail(20002)),
      path: '/v1/files/upload',
      init: () => uploadInit(),
    },
    {
      name: 'upload 500/10000',
      handle: () => json(500, fail(10000)),
      path: '/v1/files/upload',
      init: () => uploadInit(),
    },
    {
      name: 'save 400/10001 for a voice ID too long',
      handle: () => json(400, fail(10001)),
      path: '/v1/voice/save',
      init: () => saveInit(key, tooLongId),
    },
    {
      name: 'save 400/10001 for a voice ID with a space',
      handle: () => json(400, fail(10001)),
      path: '/v1/voice/save',
      init: () => saveInit(key, 'bad id'),
    },
    // What the spec leaves open (x-open-question): tolerated, not judged against the kit's choice.
    {
      name: 'delete answering 404 for an already-missing voice (§4.4 may)',
      handle: () => json(404, fail(10001)),
      path: '/v1/voice/unknown',
      init: () => ({ method: 'DELETE', headers: key }),
    },
    {
      name: 'save 422/20016 (voice-save-statuses)',
      handle: () => json(422, fail(20016)),
      path: '/v1/voice/save',
      init: () => saveInit(),
    },
    {
      name: 'save 409/20012 (voice-save-statuses)',
      handle: () => json(409, fail(20012)),
      path: '/v1/voice/save',
      init: () => saveInit(),
    },
    {
      name: 'save 400/10018 (voice-save-statuses)',
      handle: () => json(400, fail(10018)),
      path: '/v1/voice/save',
      init: () => saveInit(),
    },
    {
      name: 'save 422/10001 for an invalid character (voice-id-invalid-characters)',
      handle: () => json(422, fail(10001)),
      path: '/v1/voice/save',
      init: () => saveInit(key, 'bad!'),
    },
    {
      name: 'list 422/10001 for page_size 0 (list-errors)',
      handle: () => json(422, fail(10001)),
      path: `${listPath}?page_size=0`,
    },
    {
      name: 'synthesis 422/10001 for a negative speed (synthesis-errors)',
      handle: () => json(422, fail(10001)),
      path: '/v1/text-to-speech',
      init: () => synthInit('wav'),
    },
    {
      name: 'delete 409 for a system voice (delete-refused-status)',
      handle: () => json(409, fail(10001)),
      path: '/v1/voice/system_default',
      init: () => ({ method: 'DELETE', headers: key }),
    },
    {
      name: 'save 409/10018',
      handle: () => json(409, fail(10018)),
      path: '/v1/voice/save',
      init: () => saveInit(),
    },
    {
      name: 'save 400/20016',
      handle: () => json(400, fail(20016)),
      path: '/v1/voice/save',
      init: () => saveInit(),
    },
    {
      name: 'save 401/10003 without a key',
      handle: () => json(401, fail(10003)),
      path: '/v1/voice/save',
      init: () => saveInit({}),
    },
    {
      name: 'save 200 with data null (§4.2 does not show data)',
      handle: () => json(200, ok(null)),
      path: '/v1/voice/save',
      init: () => saveInit(),
    },
    {
      name: 'list 429 rate limit (§7.3: not shown)',
      handle: () => json(429, fail(10005), { 'retry-after': '1' }),
      path: listPath,
    },
    { name: 'list 503 (§7.3: not shown)', handle: () => json(503, fail(10000)), path: listPath },
    {
      name: 'list 401/10003 without a key',
      handle: () => json(401, fail(10003)),
      path: listPath,
      init: () => ({}),
    },
    {
      name: 'list 400/10001 for page_size 0',
      handle: () => json(400, fail(10001)),
      path: `${listPath}?page_size=0`,
    },
    {
      name: 'list of 20 without page_size',
      handle: () => json(200, ok(page(20, { has_more: true, next_voice_id: 'v19' }))),
      path: listPath,
    },
    {
      name: 'list last page with next_voice_id null',
      handle: () => json(200, ok(page(2, { next_voice_id: null }))),
      path: `${listPath}?page_size=2`,
    },
    {
      name: 'list with extra fields',
      handle: () => json(200, { ...ok(page(1)), request_id: 'r1' }),
      path: listPath,
    },
    {
      name: 'list with application/json; charset=utf-8',
      handle: () => json(200, ok(page(1)), { 'content-type': 'application/json; charset=utf-8' }),
      path: listPath,
    },
    {
      name: 'delete 200 data null for a missing voice',
      handle: () => json(200, ok(null)),
      path: '/v1/voice/gone',
      init: () => ({ method: 'DELETE', headers: key }),
    },
    {
      name: 'delete 403 for a system voice',
      handle: () => json(403, fail(10001)),
      path: '/v1/voice/system_default',
      init: () => ({ method: 'DELETE', headers: key }),
    },
    {
      name: 'synthesis 400 for a negative speed',
      handle: () => json(400, fail(10001)),
      path: '/v1/text-to-speech',
      init: () => synthInit('wav'),
    },
    {
      name: 'synthesis 401/10003 without a key',
      handle: () => json(401, fail(10003)),
      path: '/v1/text-to-speech/stream',
      init: () => ({
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"generate_text":"hi"}',
      }),
    },
    {
      name: 'synthesis 429 (§7.3: not shown)',
      handle: () => json(429, fail(10005), { 'retry-after': '2' }),
      path: '/v1/text-to-speech',
      init: () => synthInit('wav'),
    },
    {
      name: 'WAV as audio/x-wav',
      handle: () => audio('audio/x-wav', wav(2400)),
      path: '/v1/text-to-speech',
      init: () => synthInit('wav'),
    },
    {
      name: 'a streamed WAV with placeholder sizes',
      handle: () => audio('audio/wav', wav(2400, { riff: 0xffffffff, data: 0xffffffff })),
      path: '/v1/text-to-speech/stream',
      init: () => synthInit('wav'),
    },
    {
      name: 'a valid MP3',
      handle: () => audio('audio/mpeg', mp3),
      path: '/v1/text-to-speech',
      init: () => synthInit('mp3'),
    },
    {
      name: 'PCM with audio/L16; rate=24000',
      handle: () => audio('audio/L16; rate=24000', pcmBody, pcm),
      path: '/v1/text-to-speech',
      init: () => synthInit('pcm'),
    },
    {
      name: 'a gzip-compressed list',
      handle: () => (_req, _body, res) => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
        res.end(gzipSync(JSON.stringify(ok(page(2)))));
      },
      path: listPath,
    },
    {
      name: 'a gzip-compressed WAV (framing not checked, noted)',
      handle: () => audio('audio/wav', gzipSync(wav(2400)), { 'content-encoding': 'gzip' }),
      path: '/v1/text-to-speech',
      init: () => synthInit('wav'),
    },
  ];
  it.each(none)('$name', async (c) => {
    const vs = await through(c.handle(), c.path, c.init?.() ?? { headers: key });
    expect(vs.map((v) => `${v.rule}: ${v.seen}`)).toEqual([]);
  });
});

/** A raw HTTP/1.1 exchange on a fresh socket: the status line the proxy answers (or '' when it closes). */
function raw(text: string): Promise<string> {
  const { port } = new URL(proxy.url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), '127.0.0.1', () => socket.write(text));
    let got = '';
    socket.on('data', (c) => {
      got += c.toString('latin1');
    });
    socket.on('close', () => resolve(got.split('\r\n')[0] ?? ''));
    socket.on('error', () => resolve(got.split('\r\n')[0] ?? ''));
    setTimeout(() => socket.destroy(), 3000);
  });
}

async function stillServing(): Promise<void> {
  const vs = await through(json(200, ok(page(1))), listPath);
  expect(vs).toEqual([]);
}

describe('robustness: nothing a client or an upstream does stops the proxy', () => {
  it('a broken multipart form and invalid JSON are passed on, reported as the client’s, never violations', async () => {
    const echo400: Handle = (_req, _body, res) => sendJson(res, 400, envelope(400, 10001));
    const before = proxy.report().counts.exchanges;
    expect(
      await through(echo400, '/v1/files/upload', {
        method: 'POST',
        headers: { ...key, 'content-type': 'multipart/form-data; boundary=xyz' },
        body: '--xyz\r\nContent-Disposition: form-data; name="file"; filename="a.wav"\r\n\r\nabc',
      }),
    ).toEqual([]);
    const form = proxy.report().exchanges.at(-1);
    expect(form?.requestProblems.join('\n')).toMatch(/multipart form does not parse/);
    expect(
      await through(echo400, '/v1/text-to-speech', {
        method: 'POST',
        headers: { ...key, 'content-type': 'application/json' },
        body: '{"generate_text":',
      }),
    ).toEqual([]);
    expect(proxy.report().exchanges.at(-1)?.requestProblems.join('\n')).toMatch(/not JSON/);
    expect(proxy.report().counts.exchanges).toBe(before + 2);
    await stillServing();
  });

  it('a chunked request body streams through', async () => {
    let got = 0;
    const vs = await through(
      (_req, body, res) => {
        got = body.length;
        sendJson(res, 200, envelope(200, 0, uploaded({ size: 3000 })));
      },
      '/v1/files/upload',
      (() => {
        const form = uploadInit(key, 3000);
        const encoded = new Response(form.body as FormData);
        return {
          method: 'POST',
          headers: { ...key, 'content-type': encoded.headers.get('content-type') ?? '' },
          body: encoded.body,
          duplex: 'half',
        } as RequestInit;
      })(),
    );
    expect(got).toBeGreaterThan(3000);
    expect(vs).toEqual([]);
  });

  it('an unknown path, a HEAD and an OPTIONS preflight pass through, unjudged', async () => {
    const plain: Handle = (req, _body, res) => {
      res.writeHead(req.method === 'OPTIONS' ? 204 : 404, {
        'access-control-allow-origin': '*',
        'content-length': '0',
      });
      res.end();
    };
    expect(await through(plain, '/v2/nothing')).toEqual([]);
    expect(proxy.report().exchanges.at(-1)?.notes.join()).toMatch(/no path of the contract/);
    expect(await through(plain, listPath, { method: 'HEAD', headers: key })).toEqual([]);
    expect(
      await through(plain, '/v1/text-to-speech', {
        method: 'OPTIONS',
        headers: { origin: 'http://127.0.0.1:1', 'access-control-request-method': 'POST' },
      }),
    ).toEqual([]);
    await stillServing();
  });

  it('a head over the size limit and a request line that is not HTTP get a 4xx, and the proxy keeps serving', async () => {
    expect(
      await raw(`GET /v1/voice/list HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`),
    ).toMatch(/^HTTP\/1\.1 4\d\d/);
    expect(await raw('NONSENSE\r\n\r\n')).toMatch(/^HTTP\/1\.1 400/);
    await stillServing();
  });

  it('an upstream that resets mid-body cuts the client, is recorded as cut, and breaks answer.complete', async () => {
    handlers.set('reset', (_req, _body, res) => {
      res.writeHead(200, { 'content-type': 'audio/wav' });
      res.write(wav(24000).subarray(0, 10_000));
      setTimeout(() => res.socket?.resetAndDestroy(), 30);
    });
    const res = await fetch(
      `${proxy.url}/v1/text-to-speech/stream`,
      synthInit('wav', { 'x-deviant': 'reset' }),
    );
    await expect(res.arrayBuffer()).rejects.toThrow();
    await new Promise((r) => setTimeout(r, 50));
    const last = proxy.report().exchanges.at(-1);
    expect(last).toMatchObject({ aborted: 'upstream', violations: 1 });
    expect(proxy.report().violations.at(-1)).toMatchObject({
      rule: 'answer.complete',
      severity: 'must',
      operationId: 'streamSpeech',
      exchange: last?.id,
      seen: expect.stringMatching(
        /^HTTP 200: the upstream cut its answer after 10000 bytes and no last chunk/,
      ),
    });
    await stillServing();
  });

  it('a complete answer shorter than its Content-Length breaks answer.complete', async () => {
    handlers.set('short', (_req, _body, res) => {
      const audio = wav(24000);
      res.writeHead(200, { 'content-type': 'audio/wav', 'content-length': String(audio.length) });
      res.write(audio.subarray(0, 20_000));
      setTimeout(() => res.destroy(), 30);
    });
    const res = await fetch(`${proxy.url}/v1/text-to-speech`, synthInit('wav', { 'x-deviant': 'short' }));
    await expect(res.arrayBuffer()).rejects.toThrow();
    await new Promise((r) => setTimeout(r, 50));
    expect(proxy.report().violations.at(-1)).toMatchObject({
      rule: 'answer.complete',
      operationId: 'synthesizeSpeech',
      seen: expect.stringMatching(
        /^HTTP 200: the upstream cut its answer after 20000 bytes of the \d+ bytes its Content-Length promised/,
      ),
    });
    await stillServing();
  });

  it('an upstream that never answers gets a 504 envelope after the upstream timeout, not a hang', async () => {
    handlers.set('silent', () => undefined);
    const t0 = performance.now();
    const res = await fetch(`${proxy.url}${listPath}`, { headers: { ...key, 'x-deviant': 'silent' } });
    const waited = performance.now() - t0;
    expect(res.status).toBe(504);
    expect(await res.json()).toMatchObject({ error_code: 10000, succeed: false, data: null });
    // Not before the 1.5 s upstream timeout; that it ends at all is the 504 (a hang fails by the test's timeout).
    expect(waited).toBeGreaterThan(1400);
    await new Promise((r) => setTimeout(r, 20));
    expect(proxy.report().exchanges.at(-1)).toMatchObject({
      aborted: 'upstream-unreachable',
      violations: 0,
      upstreamError: 'the upstream sent nothing for 1500 ms',
    });
    await stillServing();
  });

  it('an upstream that stalls mid-stream is cut after the upstream timeout', async () => {
    handlers.set('stall', (_req, _body, res) => {
      res.writeHead(200, { 'content-type': 'audio/wav' });
      res.write(wav(24000, { riff: 0, data: 0 }).subarray(0, 10_000));
    });
    const res = await fetch(
      `${proxy.url}/v1/text-to-speech/stream`,
      synthInit('wav', { 'x-deviant': 'stall' }),
    );
    await expect(res.arrayBuffer()).rejects.toThrow();
    await new Promise((r) => setTimeout(r, 20));
    expect(proxy.report().exchanges.at(-1)).toMatchObject({
      aborted: 'upstream',
      violations: 1,
      upstreamError: 'the upstream sent nothing for 1500 ms',
    });
    expect(proxy.report().violations.at(-1)).toMatchObject({
      rule: 'answer.complete',
      seen: expect.stringContaining('(the upstream sent nothing for 1500 ms)'),
    });
    await stillServing();
  });

  it('a client that aborts mid-stream cuts the upstream, and the proxy keeps serving', async () => {
    let upstreamClosed = false;
    handlers.set('long', (_req, _body, res) => {
      res.writeHead(200, { 'content-type': 'audio/wav' });
      const audio = wav(240_000, { riff: 0, data: 0 });
      let at = 0;
      const timer = setInterval(() => {
        res.write(audio.subarray(at, at + 4800));
        at += 4800;
      }, 10);
      res.on('close', () => {
        clearInterval(timer);
        upstreamClosed = true;
      });
    });
    const controller = new AbortController();
    const res = await fetch(`${proxy.url}/v1/text-to-speech/stream`, {
      ...synthInit('wav', { 'x-deviant': 'long' }),
      signal: controller.signal,
    });
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    await reader.read();
    controller.abort();
    for (let i = 0; i < 100 && !upstreamClosed; i++) await new Promise((r) => setTimeout(r, 10));
    expect(upstreamClosed).toBe(true);
    expect(proxy.report().exchanges.at(-1)).toMatchObject({ aborted: 'client', violations: 0 });
    await stillServing();
  });

  it('many requests in a row over keep-alive do not leak: the session stays consistent', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
    handlers.set('ka', json(200, ok(page(1))));
    const { port } = new URL(proxy.url);
    const before = proxy.report().counts.exchanges;
    await Promise.all(
      Array.from(
        { length: 40 },
        () =>
          new Promise<void>((resolve, reject) => {
            http
              .get(
                { host: '127.0.0.1', port, path: listPath, agent, headers: { ...key, 'x-deviant': 'ka' } },
                (res) => {
                  res.resume();
                  res.on('end', resolve);
                },
              )
              .on('error', reject);
          }),
      ),
    );
    agent.destroy();
    await new Promise((r) => setTimeout(r, 20));
    expect(proxy.report().counts.exchanges).toBe(before + 40);
    expect(proxy.report().violations.filter((v) => v.exchange > before)).toEqual([]);
  });
});

describe('the clean mock behind the proxy gives no violation for odd traffic', () => {
  it('every documented status by Prefer: code, an undocumented one, odd requests, faults, HEAD and OPTIONS', async () => {
    const clean = await startProxy({ upstream: mock.url, port: 0 });
    try {
      const mk = { 'X-API-Key': 'mock-key' };
      const jsonInit = (method: string, body: string, headers: Record<string, string> = {}): RequestInit => ({
        method,
        headers: { ...mk, 'content-type': 'application/json', ...headers },
        body,
      });
      const synth = (extra: Record<string, unknown> = {}, headers: Record<string, string> = {}) =>
        jsonInit(
          'POST',
          JSON.stringify({ generate_text: 'Odd traffic, clean answers.', audio_format: 'wav', ...extra }),
          headers,
        );
      const form = (name: string, bytes: number, scene = 'audio') => {
        const f = new FormData();
        f.set('scene', scene);
        f.set('file', new Blob([new Uint8Array(wav(bytes))]), name);
        return { method: 'POST', headers: mk, body: f };
      };
      const requests: Array<[string, () => RequestInit]> = [
        ['/v1/voice/list?page_size=0', () => ({ headers: mk })],
        ['/v1/voice/list?page_size=abc', () => ({ headers: mk })],
        ['/v1/voice/list?page_size=21', () => ({ headers: mk })],
        ['/v1/voice/list?voice_id=not-a-cursor', () => ({ headers: mk })],
        ['/v1/voice/list', () => ({ headers: { 'X-API-Key': 'wrong-key' } })],
        ['/v1/voice/list', () => ({ headers: mk, method: 'HEAD' })],
        [
          '/v1/voice/list',
          () => ({
            headers: { origin: 'http://localhost:3000', 'access-control-request-method': 'GET' },
            method: 'OPTIONS',
          }),
        ],
        ['/v1/voice/nobody-has-this', () => ({ headers: mk, method: 'DELETE' })],
        ['/v1/voice/system_default', () => ({ headers: mk, method: 'DELETE' })],
        [
          '/v1/voice/save',
          () => jsonInit('POST', JSON.stringify({ voice_id: 'x'.repeat(31), ref_audio: 'upl_nope' })),
        ],
        [
          '/v1/voice/save',
          () => jsonInit('POST', JSON.stringify({ voice_id: 'ok_id', ref_audio: 'upl_nope' })),
        ],
        ['/v1/voice/save', () => jsonInit('POST', '{not json')],
        ['/v1/voice/save', () => ({ method: 'POST', headers: mk, body: 'voice_id=a' })],
        ['/v1/text-to-speech', () => synth({ speed: -1 })],
        ['/v1/text-to-speech', () => synth({ voice_id: 'nobody-has-this' })],
        ['/v1/text-to-speech', () => synth({ audio_format: 'flac' })],
        ['/v1/text-to-speech', () => synth({ generate_text: '' })],
        ['/v1/text-to-speech', () => synth({ audio_format: 'pcm' })],
        ['/v1/text-to-speech/stream', () => synth({ audio_format: 'mp3' })],
        [
          '/v1/text-to-speech/stream',
          () => synth({ audio_format: 'pcm' }, { Prefer: 'fault=slow-chunks=5' }),
        ],
        ['/v1/text-to-speech/stream', () => synth({}, { Prefer: 'latency=300' })],
        ['/v1/files/upload', () => form('a.flac', 100)],
        ['/v1/files/upload', () => form('a.wav', 0)],
        ['/v1/files/upload', () => form('a.wav', 100, 'video')],
        ['/v1/files/upload', () => form('a.wav', 4800)],
        [
          '/v1/files/upload',
          () => ({ method: 'POST', headers: { ...mk, 'content-type': 'application/json' }, body: '{}' }),
        ],
        ['/v2/unknown', () => ({ headers: mk })],
      ];
      for (const op of [
        'uploadFile',
        'saveVoice',
        'listVoices',
        'deleteVoice',
        'synthesizeSpeech',
        'streamSpeech',
      ] as const) {
        const path = {
          uploadFile: '/v1/files/upload',
          saveVoice: '/v1/voice/save',
          listVoices: '/v1/voice/list',
          deleteVoice: '/v1/voice/my_voice',
          synthesizeSpeech: '/v1/text-to-speech',
          streamSpeech: '/v1/text-to-speech/stream',
        }[op];
        for (const code of [400, 401, 403, 409, 413, 418, 429, 500, 503, 504]) {
          const init = (): RequestInit => {
            const base =
              op === 'uploadFile'
                ? form('a.wav', 100)
                : op === 'listVoices'
                  ? { headers: mk }
                  : op === 'deleteVoice'
                    ? { method: 'DELETE', headers: mk }
                    : op === 'saveVoice'
                      ? jsonInit('POST', '{"voice_id":"a1","ref_audio":"upl_x"}')
                      : synth();
            const headers = new Headers(base.headers);
            headers.set('Prefer', `code=${code}`);
            return { ...base, headers };
          };
          requests.push([path, init]);
        }
      }
      for (const [path, init] of requests) {
        const res = await fetch(clean.url + path, init());
        await res.arrayBuffer();
      }
      await new Promise((r) => setTimeout(r, 50));
      const report = clean.report();
      expect(report.counts.exchanges).toBe(requests.length);
      expect(report.violations.map((v) => `${v.method} ${v.path} → ${v.rule}: ${v.seen}`)).toEqual([]);
    } finally {
      await clean.close();
    }
  });
});
