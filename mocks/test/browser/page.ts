/**
 * The page side of the browser test (bundled by esbuild, run in Chromium): voice-kit/msw's handlers
 * under msw/browser's setupWorker, driven the way a client app in a browser would use the service.
 * Each step records what it saw; browser.test.ts asserts on it.
 */
import { setupWorker } from 'msw/browser';
import { createMockService } from '../../index.js';
import { createHandlers } from '../../msw.js';

const base = 'https://voice.test';
const key = { 'X-API-Key': 'mock-key' };
const seen: Record<string, unknown> = {};

async function envelope(response: Response) {
  return { status: response.status, body: await response.json() };
}

async function decode(bytes: ArrayBuffer): Promise<{ seconds: number; sampleRate: number }> {
  const audio = await new OfflineAudioContext(1, 1, 24_000).decodeAudioData(bytes);
  return { seconds: audio.duration, sampleRate: audio.sampleRate };
}

const speak = (path: string, body: Record<string, unknown>) =>
  fetch(`${base}${path}`, {
    method: 'POST',
    headers: { ...key, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });

async function run(): Promise<void> {
  const service = createMockService();
  const worker = setupWorker(...createHandlers({ baseUrl: base, service }));
  await worker.start({ quiet: true, onUnhandledFrame: 'bypass' });

  seen.emptyList = await envelope(await fetch(`${base}/v1/voice/list`, { headers: key }));

  // A real recording, fetched from the test server as an app would get it from a file input.
  const recording = await (await fetch('/fixtures/speech-espeak.wav')).blob();
  const form = new FormData();
  form.append('scene', 'audio');
  form.append('file', recording, 'my voice.wav');
  const upload = await envelope(
    await fetch(`${base}/v1/files/upload`, { method: 'POST', headers: key, body: form }),
  );
  seen.upload = { ...upload, recordingBytes: recording.size };

  const objectKey = upload.body?.data?.object_key;
  seen.save = await envelope(
    await speak('/v1/voice/save', { voice_id: 'browser_voice', ref_audio: objectKey }),
  );
  seen.list = await envelope(await fetch(`${base}/v1/voice/list`, { headers: key }));
  const voiceUrl = (seen.list as { body: { data: { list: { voice_url: string }[] } } }).body.data.list[0]
    ?.voice_url;
  const reference = await fetch(voiceUrl ?? `${base}/none`);
  const referenceBytes = new Uint8Array(await reference.arrayBuffer());
  const recordingBytes = new Uint8Array(await recording.arrayBuffer());
  seen.voiceUrl = {
    status: reference.status,
    same:
      referenceBytes.length === recordingBytes.length &&
      referenceBytes.every((b, i) => b === recordingBytes[i]),
  };

  // Compressed references go through the WebAssembly decoders and music-metadata, in the page.
  const compressed: Record<string, unknown> = {};
  for (const name of ['speech.mp3', 'speech-opus.webm', 'speech.m4a']) {
    const file = new FormData();
    file.append('scene', 'audio');
    const blob = await (await fetch(`/fixtures/${name}`)).blob();
    file.append('file', blob, name);
    const stored = await envelope(
      await fetch(`${base}/v1/files/upload`, { method: 'POST', headers: key, body: file }),
    );
    const id = `from_${name.replace(/\W/g, '_')}`;
    const saved = await envelope(
      await speak('/v1/voice/save', { voice_id: id, ref_audio: stored.body?.data?.object_key }),
    );
    compressed[name] = { stored, saved };
  }
  seen.compressed = compressed;

  const complete = await speak('/v1/text-to-speech', {
    generate_text: 'Hello from the browser. This voice was cloned a moment ago.',
    voice_id: 'browser_voice',
  });
  const wav = await complete.arrayBuffer();
  seen.complete = {
    status: complete.status,
    type: complete.headers.get('content-type'),
    bytes: wav.byteLength,
    decoded: await decode(wav.slice(0)),
  };

  const mp3 = await speak('/v1/text-to-speech', {
    generate_text: 'And once more as MP3.',
    audio_format: 'mp3',
  });
  seen.mp3 = {
    status: mp3.status,
    type: mp3.headers.get('content-type'),
    decoded: await decode(await mp3.arrayBuffer()),
  };

  const stream = await speak('/v1/text-to-speech/stream', {
    generate_text:
      'A streamed answer arrives chunk by chunk, long enough to need several of them, as it is rendered.',
  });
  const reader = (stream.body as ReadableStream<Uint8Array>).getReader();
  const chunks: number[] = [];
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value.byteLength);
  }
  seen.stream = { status: stream.status, type: stream.headers.get('content-type'), chunks };

  seen.noKey = await envelope(await fetch(`${base}/v1/voice/list`));
  seen.badPage = await envelope(await fetch(`${base}/v1/voice/list?page_size=0`, { headers: key }));
  seen.tooLongId = await envelope(
    await speak('/v1/voice/save', { voice_id: 'x'.repeat(31), ref_audio: objectKey }),
  );
  seen.badForm = await envelope(
    await fetch(`${base}/v1/files/upload`, {
      method: 'POST',
      headers: { ...key, 'Content-Type': 'multipart/form-data; boundary=b' },
      body: '--b\r\nContent-Disposition: form-data; name="file"; filename="a.wav"\r\n\r\nRIFF',
    }),
  );

  await service.reset();
  seen.afterReset = await envelope(await fetch(`${base}/v1/voice/list`, { headers: key }));
  await worker.stop();
}

const done = run().then(
  () => ({ ok: true, seen }),
  (error: unknown) => ({ ok: false, error: String((error as Error)?.stack ?? error), seen }),
);
(globalThis as { voiceKitResult?: unknown }).voiceKitResult = done;
