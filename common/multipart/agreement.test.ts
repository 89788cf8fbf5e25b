/**
 * One table of forms read by both readers of the kit: the mock's upload (receiveUpload, which reads
 * through readMultipart) and the proxy's count (MultipartCounter, which pushes chunks as they pass). Each
 * case is cut into chunks of several sizes; both must read the file name, the file's byte count, the
 * scene and the error the table says, so the two cannot drift apart.
 */
import { describe, expect, it } from 'vitest';
import { memoryStorage } from '../../mocks/core/platform/storage.js';
import { receiveUpload } from '../../mocks/core/request/multipart-upload.js';
import { MultipartCounter } from '../../proxy/multipart-count.js';

const encoder = new TextEncoder();
const boundary = 'b0undary';
/** The file's bytes: boundary-like bytes and line breaks inside, which a reader must pass on. */
const file = encoder.encode(`RIFF\r\n--b0undar\r\n-${'x'.repeat(300)}\r\n`);

interface Reading {
  readonly fileName?: string;
  readonly fileBytes?: number;
  readonly scene?: string;
  /** The reader's message for a form that does not parse. */
  readonly error?: string;
}

const part = (disposition: string, body: string | Uint8Array, extra = '') => [
  `--${boundary}\r\nContent-Disposition: ${disposition}\r\n${extra}\r\n`,
  body,
  '\r\n',
];
const scene = part('form-data; name="scene"', 'audio');
const fileWith = (disposition: string) => part(disposition, file, 'Content-Type: audio/wav\r\n');
const close = `--${boundary}--\r\n`;

const cases: { title: string; body: (string | Uint8Array)[]; reads: Reading }[] = [
  {
    title: 'a form as a browser sends it',
    body: [...scene, ...fileWith('form-data; name="file"; filename="a b.wav"'), close],
    reads: { fileName: 'a b.wav', fileBytes: file.length, scene: 'audio' },
  },
  {
    title: 'filename* (RFC 8187, UTF-8) wins over filename',
    body: [
      ...fileWith(`form-data; name="file"; filename="fallback.ogg"; filename*=UTF-8''voix%C3%A9.wav`),
      ...scene,
      close,
    ],
    reads: { fileName: 'voixé.wav', fileBytes: file.length, scene: 'audio' },
  },
  {
    title: 'filename* in ISO-8859-1',
    body: [...scene, ...fileWith(`form-data; name="file"; filename*=ISO-8859-1''caf%E9.mp3`), close],
    reads: { fileName: 'café.mp3', fileBytes: file.length, scene: 'audio' },
  },
  {
    title: 'a filename* that does not decode leaves filename standing',
    body: [
      ...scene,
      ...fileWith(`form-data; name="file"; filename*=UTF-8''%E9.ogg; filename="plain.wav"`),
      close,
    ],
    reads: { fileName: 'plain.wav', fileBytes: file.length, scene: 'audio' },
  },
  {
    title: 'quoted-pair escapes, and a path cut to its last segment',
    body: [...scene, ...fileWith('form-data; name="file"; filename="dir/a\\"q\\".wav"'), close],
    reads: { fileName: 'a"q".wav', fileBytes: file.length, scene: 'audio' },
  },
  {
    title: 'a folded Content-Disposition line, header names and values in any case, unquoted tokens',
    body: [
      ...part('form-data; name=scene', 'audio'),
      ...part('Form-Data; NAME="file";\r\n\tFILENAME=fold.webm', file),
      close,
    ],
    reads: { fileName: 'fold.webm', fileBytes: file.length, scene: 'audio' },
  },
  {
    title: 'a preamble, transport padding, parts that are not named fields, an epilogue',
    body: [
      'a preamble line\r\n',
      ...part('attachment; name="file"; filename="not-this.wav"', 'xx'),
      ...part('form-data; filename="unnamed.wav"', 'yy'),
      `--${boundary} \t\r\n\r\nno head at all\r\n`,
      ...scene,
      ...fileWith('form-data; name="file"; filename="a.m4a"'),
      `${close}the epilogue, ignored`,
    ],
    reads: { fileName: 'a.m4a', fileBytes: file.length, scene: 'audio' },
  },
  {
    title: 'a form that never closes',
    body: [...scene, ...fileWith('form-data; name="file"; filename="a.wav"')],
    reads: { error: 'the form ends before its closing boundary' },
  },
  {
    title: 'text after a boundary',
    body: [`--${boundary}XYZ\r\n\r\nhello\r\n`, close],
    reads: { error: 'a boundary is not followed by a line break' },
  },
  {
    title: 'no boundary at all',
    body: ['just some bytes\r\n'],
    reads: { error: 'no boundary found in the body' },
  },
  {
    title: 'a head over 16 KiB',
    body: [...part('form-data; name="scene"', 'audio', `X-Long: ${'h'.repeat(16 * 1024)}\r\n`), close],
    reads: { error: 'a part head is longer than 16384 bytes' },
  },
  {
    title: 'padding after a boundary that does not end',
    body: [`--${boundary}${' '.repeat(300)}\r\n`, close],
    reads: { error: 'a boundary line that does not end' },
  },
  {
    title: 'more than 1,000 parts',
    body: [...Array.from({ length: 1001 }, () => part('form-data; name="x"', 'y')).flat(), close],
    reads: { error: 'the form has more than 1000 parts' },
  },
];

const bytesOf = (pieces: (string | Uint8Array)[]): Uint8Array => {
  const chunks = pieces.map((p) => (typeof p === 'string' ? encoder.encode(p) : p));
  const out = new Uint8Array(chunks.reduce((sum, c) => sum + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
};

const chunked = (bytes: Uint8Array, size: number): Uint8Array[] =>
  Array.from({ length: Math.ceil(bytes.length / size) }, (_, i) => bytes.slice(i * size, (i + 1) * size));

/** What the proxy's counter reads of a form pushed in the given chunks. */
function proxyReads(chunks: Uint8Array[]): Reading {
  const counter = new MultipartCounter(boundary);
  for (const chunk of chunks) counter.push(chunk);
  const form = counter.result();
  if (form.error !== undefined) return { error: form.error };
  const files = form.parts.filter((p) => p.name === 'file');
  const fileOf = files.length === 1 ? files[0] : undefined;
  const sceneOf = form.parts.find((p) => p.name === 'scene');
  return {
    ...(fileOf && { fileName: fileOf.filename, fileBytes: fileOf.bytes }),
    ...(sceneOf && { scene: sceneOf.text }),
  };
}

/** What the mock's upload reads of a form whose body arrives in the given chunks. */
async function mockReads(chunks: Uint8Array[]): Promise<Reading> {
  let next = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      const chunk = chunks[next++];
      if (chunk) controller.enqueue(chunk);
      else controller.close();
    },
  });
  const request = {
    method: 'POST',
    url: 'http://127.0.0.1/v1/files/upload',
    headers: new Headers({ 'content-type': `multipart/form-data; boundary="${boundary}"` }),
    body,
    signal: new AbortController().signal,
  };
  const received = await receiveUpload(request, memoryStorage(), 'upload-1', 1024 * 1024);
  if ('kind' in received) {
    const malformed = /^invalid multipart request: (.*)$/.exec(received.message);
    return { error: malformed ? malformed[1] : received.message };
  }
  return { fileName: received.fileName, fileBytes: received.size, scene: received.scene };
}

describe('the mock and the proxy read a form alike', () => {
  describe.each(cases)('$title', ({ body, reads }) => {
    const bytes = bytesOf(body);
    it.each([1, 7, 64, 4096, bytes.length])('in chunks of %i bytes', async (size) => {
      const chunks = chunked(bytes, size);
      expect(proxyReads(chunks)).toEqual(reads);
      expect(await mockReads(chunks)).toEqual(reads);
    });
  });
});
