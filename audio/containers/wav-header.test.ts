import { describe, expect, it } from 'vitest';
import { writeWav } from '../test/signals.js';
import { readWavHeader, type WavHeader, type WavHeaderRead } from './wav-header.js';

const text = (s: string) => [...s].map((c) => c.charCodeAt(0));
const u32 = (n: number) => [n & 0xff, (n >>> 8) & 0xff, (n >>> 16) & 0xff, n >>> 24];

/** One chunk: its id, its size field (the body's length unless given) and its body, padded to even. */
function chunk(id: string, body: readonly number[], size = body.length): number[] {
  return [...text(id), ...u32(size), ...body, ...(body.length & 1 ? [0] : [])];
}

/** A RIFF/WAVE file of these chunks; the RIFF size is right unless given. */
function wave(chunks: readonly number[][], riffSize?: number, magic = 'RIFF'): Uint8Array {
  const body = chunks.flat();
  return Uint8Array.from([...text(magic), ...u32(riffSize ?? 4 + body.length), ...text('WAVE'), ...body]);
}

/** A PCM fmt chunk body: 16 bytes. */
const fmt16 = (channels = 1, rate = 8000, bits = 16) => {
  const align = channels * (bits / 8);
  return [1, 0, channels, 0, ...u32(rate), ...u32(rate * align), align, 0, bits, 0];
};

function header(read: WavHeaderRead): WavHeader {
  if (read.status !== 'ok') throw new Error(`expected a header, got ${read.status}: ${read.reason}`);
  return read.header;
}

describe('readWavHeader', () => {
  const samples = [1, 2, 3, 4, 5, 6, 7, 8];
  const plain = wave([chunk('fmt ', fmt16()), chunk('data', samples)]);

  it('reads the RIFF size, the fmt fields and where the data is', () => {
    expect(header(readWavHeader(plain))).toEqual({
      magic: 'RIFF',
      riffSize: plain.length - 8,
      fmt: {
        offset: 20,
        size: 16,
        formatTag: 1,
        subFormat: undefined,
        channels: 1,
        sampleRate: 8000,
        byteRate: 16000,
        blockAlign: 2,
        bitsPerSample: 16,
      },
      dataOffset: 44,
      dataSize: 8,
      ds64DataSize: undefined,
      chunks: ['fmt ', 'data'],
    });
  });

  it('asks for more bytes until the data chunk header is whole, then reads the same header', () => {
    const statuses = Array.from({ length: 45 }, (_, n) => readWavHeader(plain.subarray(0, n)).status);
    expect(statuses.slice(0, 44)).toEqual(Array(44).fill('more'));
    expect(header(readWavHeader(plain.subarray(0, 44))).dataOffset).toBe(44);
    expect(header(readWavHeader(plain.subarray(0, 44))).fmt).toEqual(header(readWavHeader(plain)).fmt);
  });

  it.each([
    ['8 bytes', plain.subarray(0, 8), 'the WAV header is truncated (8 bytes)'],
    ['the RIFF header alone', plain.subarray(0, 12), 'the WAV file has no readable fmt chunk'],
    ['a fmt chunk cut short', plain.subarray(0, 30), 'the fmt chunk is truncated'],
    ['no data chunk yet', plain.subarray(0, 36), 'the WAV file has no data chunk'],
    [
      'an extensible fmt chunk cut before its SubFormat',
      writeWav([Float32Array.of(0.5)], { sampleRate: 8000, extensible: true }).subarray(0, 20 + 30),
      'the fmt chunk is truncated',
    ],
    [
      'a chunk longer than the bytes before the data',
      wave([chunk('fmt ', fmt16()), chunk('LIST', [1, 2], 0x7fffffff)]),
      'the "LIST" chunk runs past the end of the file',
    ],
  ])('says what is missing from %s', (_name, bytes, reason) => {
    expect(readWavHeader(bytes)).toEqual({ status: 'more', reason });
  });

  it.each([
    ['not RIFF', Uint8Array.from(text('OggS\0\0\0\0WAVEfmt ')), /^not RIFF\/WAVE: starts with "OggS/],
    ['RIFF but not WAVE', Uint8Array.from(text('RIFF\0\0\0\0AVI LIST')), /not RIFF\/WAVE/],
    [
      'a fmt chunk under 16 bytes',
      wave([chunk('fmt ', fmt16().slice(0, 14)), chunk('data', samples)]),
      /14 bytes, shorter than 16/,
    ],
  ])('refuses %s whatever follows', (_name, bytes, reason) => {
    const read = readWavHeader(bytes);
    expect(read.status).toBe('bad');
    if (read.status === 'bad') expect(read.reason).toMatch(reason);
  });

  it('reads RF64 and BW64 unless told to read RIFF only', () => {
    for (const magic of ['RF64', 'BW64']) {
      const bytes = wave([chunk('fmt ', fmt16()), chunk('data', samples)], 0xffffffff, magic);
      expect(header(readWavHeader(bytes)).magic).toBe(magic);
      expect(readWavHeader(bytes, { riffOnly: true })).toEqual({
        status: 'bad',
        reason: `not RIFF/WAVE: starts with "${magic}\u00ff\u00ff\u00ff\u00ffWAVE"`,
      });
    }
  });

  it('reads the data size of a ds64 chunk before the data', () => {
    const ds64 = [...u32(0), ...u32(0), ...u32(8), ...u32(1), ...u32(0), 0, 0, 0, 0];
    const bytes = wave(
      [chunk('ds64', ds64), chunk('fmt ', fmt16()), chunk('data', samples, 0xffffffff)],
      0xffffffff,
      'RF64',
    );
    expect(header(readWavHeader(bytes))).toMatchObject({ ds64DataSize: 8 + 2 ** 32, dataSize: 0xffffffff });
  });

  it('takes no ds64 chunk after the data: RF64 puts it first', () => {
    const ds64 = [...u32(0), ...u32(0), ...u32(8), ...u32(0), ...u32(0), 0, 0, 0, 0];
    const bytes = wave(
      [chunk('fmt ', fmt16()), chunk('data', samples), chunk('ds64', ds64)],
      0xffffffff,
      'RF64',
    );
    expect(header(readWavHeader(bytes))).toMatchObject({
      ds64DataSize: undefined,
      chunks: ['fmt ', 'data', 'ds64'],
    });
  });

  it('reads the SubFormat of WAVE_FORMAT_EXTENSIBLE, and not of a cut one', () => {
    const float = writeWav([Float32Array.of(0.5, -0.5)], {
      sampleRate: 8000,
      encoding: 'float',
      bits: 32,
      extensible: true,
    });
    expect(header(readWavHeader(float)).fmt).toMatchObject({
      formatTag: 0xfffe,
      subFormat: 3,
      size: 40,
      bitsPerSample: 32,
    });
    const short = [...fmt16(), 0, 0];
    short[0] = 0xfe;
    short[1] = 0xff;
    const cut = wave([chunk('fmt ', short), chunk('data', samples)]);
    expect(header(readWavHeader(cut)).fmt).toMatchObject({
      formatTag: 0xfffe,
      subFormat: undefined,
      size: 18,
    });
  });

  it.each([0, 0xffffffff, 0x7fffffff])(
    'reads placeholder sizes (%d) as written and stops at the data',
    (size) => {
      // Samples that would read as a chunk if the walk went on into them.
      const looksLikeChunks = [...text('fmt '), ...u32(2), 9, 9, ...text('LIST'), ...u32(0)];
      const bytes = wave([chunk('fmt ', fmt16()), chunk('data', looksLikeChunks, size)], size);
      expect(header(readWavHeader(bytes))).toMatchObject({
        riffSize: size,
        dataSize: size,
        dataOffset: 44,
        chunks: ['fmt ', 'data'],
      });
    },
  );

  it('walks on past an empty data chunk when the RIFF size is a real one', () => {
    const bytes = wave([chunk('fmt ', fmt16()), chunk('data', []), chunk('LIST', [1, 2])]);
    expect(header(readWavHeader(bytes)).chunks).toEqual(['fmt ', 'data', 'LIST']);
  });

  it('skips the pad byte after a chunk of odd size', () => {
    const bytes = wave([chunk('fmt ', fmt16()), chunk('LIST', [1, 2, 3, 4, 5]), chunk('data', samples)]);
    expect(header(readWavHeader(bytes))).toMatchObject({
      dataOffset: 12 + 24 + 14 + 8,
      chunks: ['fmt ', 'LIST', 'data'],
    });
  });

  it('reads the header whole whatever is wrong after the data', () => {
    const shortFmt = chunk('fmt ', fmt16().slice(0, 14));
    const bytes = wave([chunk('fmt ', fmt16()), chunk('data', samples), chunk('fmt ', fmt16(2)), shortFmt]);
    expect(header(readWavHeader(bytes))).toMatchObject({
      chunks: ['fmt ', 'data', 'fmt ', 'fmt '],
      fmt: { channels: 1 },
    });
    const late = wave([chunk('data', samples), shortFmt]);
    expect(header(readWavHeader(late))).toMatchObject({ fmt: undefined, chunks: ['data', 'fmt '] });
  });

  it('lists whole chunks after the data, and stops quietly at a cut one', () => {
    const bytes = wave([chunk('data', samples), chunk('fmt ', fmt16()), chunk('cue ', [1, 2, 3, 4], 40)]);
    const read = header(readWavHeader(bytes));
    expect(read.chunks).toEqual(['data', 'fmt ', 'cue ']);
    expect(read.fmt?.offset).toBeGreaterThan(read.dataOffset);
  });

  it('gives up on a data chunk past the head cap, and only with a cap', () => {
    const junk = chunk('JUNK', Array(70_000).fill(0));
    const bytes = wave([chunk('fmt ', fmt16()), junk]);
    expect(readWavHeader(bytes, { headCap: 65_536 })).toEqual({
      status: 'bad',
      reason: 'no data chunk in the first 65536 bytes',
    });
    expect(readWavHeader(bytes)).toEqual({ status: 'more', reason: 'the WAV file has no data chunk' });
    expect(readWavHeader(bytes.subarray(0, 60_000), { headCap: 65_536 }).status).toBe('more');
  });
});
