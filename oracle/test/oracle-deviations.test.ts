/**
 * The oracle has teeth and no false alarms: a scenario (scenario.ts) sent to a clean mock gives no
 * verdict, nor does it behind an allowed variation; with each of the repository's deviation kits
 * between it and the mock, the oracle names the difference for every kit the scenario can show.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Deviation } from '../../conformance/test/deviation-kit.js';
import { sessionDeviations } from '../../conformance/test/deviations-session.js';
import { teethDeviations, variations } from '../../conformance/test/deviations-teeth.js';
import { uploadDeviations } from '../../conformance/test/deviations-upload.js';
import { voiceDeviations } from '../../conformance/test/deviations-voices.js';
import { allowedVariation, sequenceDeviations } from '../../conformance/test/explore-deviations.js';
import { harness } from './scenario.js';

const suiteKits: readonly Deviation[] = [
  ...uploadDeviations,
  ...voiceDeviations,
  ...teethDeviations,
  ...sessionDeviations,
];

/** The kits the scenario shows (the rest are framing, envelopes and audio: the judge's, not the oracle's). */
const shown = [
  'a refused extension (.flac) is accepted',
  'an upload without X-API-Key is accepted',
  'an upload consumes a free clone use',
  'refused extension answers error_code 10001 instead of 20012',
  'a voice_id is not normalized (a mixed-case id is refused)',
  'a 31-character voice_id is accepted (cut to 30)',
  'a duplicate voice_id is accepted',
  'a key without Voice Cloning creates a voice',
  'an object key of another project space is accepted',
  'the list repeats a voice across pages (cursor points into the current page)',
  'total counts one more voice than the page holds',
  "another organization's voice is visible",
  'delete answers success without deleting',
  'deleting system_default removes it',
  'a synthesis without X-API-Key is accepted',
  'a negative speed is accepted',
  'a custom voice is validated but the default voice speaks',
  'the list shows the system voice system_default',
  "another organization's key deletes our voice",
  'the extension check is case-sensitive (.FLAC accepted)',
  'the extension check looks at the first extension (.wav.flac accepted)',
  'a refused save consumes a free clone use',
  'created_at is two hours before the creation',
  'speed 0 is refused',
  'a negative speed is refused with HTTP 500',
  'created_at is in milliseconds',
  'a saved voice drops out of later lists (a list cache that forgot it)',
  'a deleted voice comes back in later lists (a stale list cache)',
];

let h: Awaited<ReturnType<typeof harness>>;
beforeAll(async () => {
  h = await harness();
});
afterAll(() => h?.close());

describe('the oracle', () => {
  it('finds nothing on the clean mock', async () => {
    expect(await h.run()).toEqual([]);
  });

  it.each([...variations, { name: 'a missing voice is deleted with 404', handle: allowedVariation() }])(
    'finds nothing on an allowed variation: $name',
    async (v) => {
      expect(await h.run(v.handle)).toEqual([]);
    },
  );

  it.each(sequenceDeviations)('finds a sequence deviation: $name', async (d) => {
    const verdicts = await h.run(d.make());
    expect(verdicts.length, JSON.stringify(verdicts)).toBeGreaterThan(0);
  });

  it.each(suiteKits.filter((d) => shown.includes(d.name)))('finds a suite deviation: $name', async (d) => {
    const verdicts = await h.run(d.handle);
    expect(verdicts.length, JSON.stringify(verdicts)).toBeGreaterThan(0);
    for (const v of verdicts) expect(v.seen).toMatch(/deployment:.*model/);
  });

  it('names every kit it is said to show', () => {
    expect(shown.filter((name) => !suiteKits.some((d) => d.name === name))).toEqual([]);
  });
});
