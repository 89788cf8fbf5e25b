import { createHash } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { committedFixturePath, committedFixtures, readCommittedFixture } from '../../fixtures/committed.js';
import { analyze } from '../analysis/analyze.js';
import { sniffContainer } from '../containers/sniff.js';

describe('committed fixtures', () => {
  it('lists every file of fixtures/files and nothing else', async () => {
    const folder = new URL('.', committedFixturePath('speech-mp3'));
    const files = (await readdir(folder)).filter((name) => name !== 'README.md').sort();
    expect(committedFixtures.map((fixture) => fixture.file).sort()).toEqual(files);
    expect(new Set(committedFixtures.map((fixture) => fixture.id)).size).toBe(committedFixtures.length);
  });

  it('stay small (all together under 1.5 MB)', () => {
    expect(committedFixtures.reduce((sum, fixture) => sum + fixture.bytes, 0)).toBeLessThan(1_500_000);
  });

  it.each(committedFixtures.map((fixture) => [fixture.id, fixture] as const))(
    '%s: size, SHA-256, container and verdict',
    async (id, fixture) => {
      const bytes = await readCommittedFixture(id);
      expect(bytes.length).toBe(fixture.bytes);
      expect(createHash('sha256').update(bytes).digest('hex')).toBe(fixture.sha256);
      expect(sniffContainer(bytes)).toBe(fixture.container);
      const analysis = await analyze(bytes, { fileName: fixture.file });
      expect(analysis.ok ? 'accepted' : analysis.verdict).toBe(fixture.expectedVerdict);
      expect(analysis.container).toBe(fixture.container);
      if (analysis.ok) {
        expect(analysis.codec).toBe(fixture.codec);
        // Every accepted container is decoded but M4A, for want of an AAC decoder.
        expect(analysis.decoded).toBe(fixture.container !== 'm4a');
      }
    },
  );

  it('measures the espeak-ng speech: mostly speech, short pauses, a male-range pitch', async () => {
    const analysis = await analyze(await readCommittedFixture('speech-espeak-wav'));
    expect(analysis).toMatchObject({ ok: true, sampleRate: 22050, channels: 1, decoded: true });
    if (!analysis.ok) return;
    expect(analysis.speechSeconds).toBeGreaterThan(5);
    expect(analysis.longestPauseSeconds).toBeLessThan(1);
    expect(analysis.pitchHz).toBeGreaterThan(80);
    expect(analysis.pitchHz).toBeLessThan(140);
  });

  it('finds the 8 s pause in the sox-made µ-law recording', async () => {
    const analysis = await analyze(await readCommittedFixture('pause-mulaw-wav'));
    expect(analysis).toMatchObject({ ok: false, verdict: 'pause-too-long' });
    if (!analysis.ok) expect(analysis.reason).toMatch(/pause of 8\.\d+ s/);
  });
});
