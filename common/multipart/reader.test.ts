import { describe, expect, it } from 'vitest';
import { boundaryOf, extensionOf, isFormData, keptName, type PartHead, parameters } from './head.js';
import { readMultipart } from './reader.js';
import { MultipartError } from './scanner.js';

const encoder = new TextEncoder();

const concat = (chunks: readonly Uint8Array[]): Uint8Array => {
  const out = new Uint8Array(chunks.reduce((sum, c) => sum + c.byteLength, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
};

/** A body stream that delivers `bytes` cut at the given offsets. */
function streamOf(bytes: Uint8Array, cuts: number[] = []): ReadableStream<Uint8Array> {
  const edges = [0, ...cuts.filter((c) => c > 0 && c < bytes.length).sort((a, b) => a - b), bytes.length];
  let i = 0;
  return new ReadableStream({
    pull(controller) {
      if (i + 1 >= edges.length) controller.close();
      else controller.enqueue(bytes.slice(edges[i], edges[++i]));
    },
  });
}

interface ReadPart extends PartHead {
  body: Uint8Array;
  ended: boolean;
}

async function parse(bytes: Uint8Array, boundary: string, cuts?: number[]): Promise<ReadPart[]> {
  const parts: ReadPart[] = [];
  await readMultipart(streamOf(bytes, cuts), boundary, (head) => {
    const chunks: Uint8Array[] = [];
    const part: ReadPart = { ...head, body: new Uint8Array(0), ended: false };
    parts.push(part);
    return {
      data: (chunk) => {
        chunks.push(chunk.slice());
      },
      end: () => {
        part.body = concat(chunks);
        part.ended = true;
      },
    };
  });
  return parts;
}

const crlf = (text: string) => encoder.encode(text.replaceAll('\n', '\r\n'));

describe('isFormData, boundaryOf and parameters', () => {
  it('keeps a name whole up to its cap, else its start (or its end, for a file name)', () => {
    expect(keptName('file', 256)).toBe('file');
    expect(keptName(`${'x'.repeat(300)}.wav`, 8)).toBe('xxxxxxxx');
    expect(keptName(`${'x'.repeat(300)}.wav`, 8, true)).toBe('xxxx.wav');
  });

  it.each([
    ['a.WAV', 'wav'],
    ['a.b.mp3', 'mp3'],
    ['.wav', ''],
    ['a.', ''],
    ['noext', ''],
  ])('the extension of %s is %j', (name, extension) => {
    expect(extensionOf(name)).toBe(extension);
  });

  it.each([
    ['multipart/form-data; boundary=b', true],
    [' Multipart/Form-Data ;boundary=b', true],
    ['multipart/form-data', true],
    ['multipart/form-data-x; boundary=b', false],
    ['multipart/mixed; boundary=b', false],
    ['', false],
  ])('%s is form data: %s', (header, expected) => {
    expect(isFormData(header)).toBe(expected);
  });

  it.each([
    ['multipart/form-data; boundary=abc', 'abc'],
    ['multipart/form-data; boundary="a b;c"', 'a b;c'],
    ['multipart/form-data;BOUNDARY=x-1', 'x-1'],
    ['multipart/form-data', undefined],
    ['multipart/form-data; boundary=', undefined],
    [`multipart/form-data; boundary=${'x'.repeat(71)}`, undefined],
  ])('%s → %s', (header, boundary) => {
    expect(boundaryOf(header)).toBe(boundary);
  });

  it('reads quoted escapes and RFC 8187 values, the first of a name winning', () => {
    const params = parameters(`; name="a\\"b"; filename*=UTF-8''gr%C3%BC%C3%9Fe.wav; name=other`);
    expect(params.get('name')).toBe('a"b');
    expect(params.get('filename*')).toBe('grüße.wav');
  });
});

describe('readMultipart', () => {
  const form = crlf(
    'preamble line\n--XyZ\nContent-Disposition: form-data; name="scene"\n\naudio\n' +
      '--XyZ\nContent-Disposition: form-data; name="file"; filename="C:\\\\dir\\\\grüße.wav"\nContent-Type: audio/wav\n\n' +
      'RIFF\n--XyNotTheBoundary\ndata\n--XyZ--\nepilogue',
  );

  it('gives each part its field name, a file name without its path, and its exact bytes', async () => {
    const parts = await parse(form, 'XyZ');
    expect(parts.map((p) => [p.name, p.filename, new TextDecoder().decode(p.body), p.ended])).toEqual([
      ['scene', undefined, 'audio', true],
      ['file', 'grüße.wav', 'RIFF\r\n--XyNotTheBoundary\r\ndata', true],
    ]);
  });

  it('gives the same parts however the body is cut into chunks (every single cut, and 200 random cuttings)', async () => {
    const whole = await parse(form, 'XyZ');
    for (let cut = 1; cut < form.length; cut++) expect(await parse(form, 'XyZ', [cut])).toEqual(whole);
    let seed = 7;
    const next = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed;
    };
    for (let round = 0; round < 200; round++) {
      const cuts = Array.from({ length: 1 + (next() % 12) }, () => next() % form.length);
      expect(await parse(form, 'XyZ', cuts)).toEqual(whole);
    }
  });

  it('agrees with the Fetch FormData reader on a form a browser would send', async () => {
    const audio = new Uint8Array(70_000).map((_, i) => (i * 7919) % 256); // every byte value, CRs included
    const data = new FormData();
    data.append('scene', 'audio');
    data.append('file', new Blob([audio]), 'take 1.wav');
    const request = new Request('http://x.test/', { method: 'POST', body: data });
    const boundary = boundaryOf(request.headers.get('content-type') ?? '') as string;
    const bytes = new Uint8Array(await request.arrayBuffer());
    const parts = await parse(bytes, boundary, [1000, 1001, 33_333, 65_536]);
    expect(parts.map((p) => [p.name, p.filename])).toEqual([
      ['scene', undefined],
      ['file', 'take 1.wav'],
    ]);
    expect(parts[1]?.body).toEqual(audio);
  });

  it('hands a large body on in pieces without gathering it', async () => {
    const size = 4 * 1_048_576;
    const head = crlf('--b\nContent-Disposition: form-data; name="file"; filename="a.wav"\n\n');
    const tail = crlf('\n--b--\n');
    const pieces: number[] = [];
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(head);
        for (let i = 0; i < size / 65_536; i++) controller.enqueue(new Uint8Array(65_536).fill(13));
        controller.enqueue(tail);
        controller.close();
      },
    });
    await readMultipart(body, 'b', () => ({ data: (chunk) => void pieces.push(chunk.byteLength) }));
    expect(pieces.reduce((a, b) => a + b, 0)).toBe(size);
    expect(Math.max(...pieces)).toBeLessThanOrEqual(65_536 + 8);
  });

  it.each([
    ['no boundary at all', 'just some bytes', /no boundary/],
    [
      'the end before the closing boundary',
      '--b\nContent-Disposition: form-data; name="file"\n\nRIFF',
      /ends before/,
    ],
    ['a boundary followed by garbage', '--bXX\n\n', /line break/],
    ['a head that never ends', `--b\nX-Long: ${'a'.repeat(20_000)}`, /head is longer/],
  ])('refuses %s with a MultipartError', async (_name, text, message) => {
    await expect(parse(crlf(text), 'b')).rejects.toThrow(MultipartError);
    await expect(parse(crlf(text), 'b')).rejects.toThrow(message);
  });

  it('refuses more parts than allowed', async () => {
    const text = `${'--b\nContent-Disposition: form-data; name="x"\n\n1\n'.repeat(5)}--b--\n`;
    const run = readMultipart(streamOf(crlf(text)), 'b', () => ({ data() {} }), { maxParts: 4 });
    await expect(run).rejects.toThrow(/more than 4 parts/);
  });

  it('skips parts that are not named form-data fields, and accepts a part with an empty head', async () => {
    const text =
      '--b\nContent-Disposition: attachment; name="x"\n\nskip\n--b\nContent-Type: text/plain\n\nskip\n' +
      '--b\n\nnothing\n--b\nContent-Disposition: form-data; name="kept"\n\nyes\n--b--';
    const parts = await parse(crlf(text), 'b');
    expect(parts.map((p) => [p.name, new TextDecoder().decode(p.body)])).toEqual([['kept', 'yes']]);
  });

  // Releasing the reader of a finished stream rejects a promise, which left a Node process slower at
  // answering HTTP from then on (readMultipart lets go only of a body it did not finish): a form read to its end keeps its reader.
  it('leaves a body read to its end locked, and unlocks one that broke off for the caller to drain', async () => {
    const whole = streamOf(form, [7, 40]);
    await readMultipart(whole, 'XyZ', () => ({ data() {} }));
    expect(whole.locked).toBe(true);

    const broken = streamOf(
      crlf(`--b\nContent-Disposition: form-data; name="file"\n\nRIFF\n--b\nX: 1\n\nmore`),
      [12],
    );
    const stopped = readMultipart(broken, 'b', (head) => ({
      data() {
        if (head.name === 'file') throw new Error('stop reading');
      },
    }));
    await expect(stopped).rejects.toThrow('stop reading');
    expect(broken.locked).toBe(false);
    // The caller drains what the reader left, to its end.
    const rest = broken.getReader();
    while (!(await rest.read()).done) {
      // discard
    }
    expect(broken.locked).toBe(true);
  });
});
