/**
 * The oracle has teeth and no false alarms: a scenario (scenario.ts) sent to a clean mock gives no
 * verdict, nor does it behind an allowed variation; with each of the repository's deviation kits
 * between it and the mock, the oracle names the difference for every kit the scenario can show.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Deviation } from '../../conformance/test/deviation-kit.js';
import { round4Deviations } from '../../conformance/test/deviations-round4.js';
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

/** The later round's kits the scenario shows, with the rule that must name each. */
const shownRound4: Readonly<Record<string, string>> = {
  'a too-long voice_id is refused with error_code 20012': 'oracle.error-code',
  'a successful delete says succeed false': 'oracle.succeed',
  'a refused synthesis says succeed true': 'oracle.succeed',
  'has_more is true on an exactly full last page': 'oracle.page',
  'total is one less than the page holds after a delete': 'oracle.page',
  'page_size above 2 is read as 2': 'oracle.page',
  'a walk of page_size 2 never ends (its last page points back to the first)': 'oracle.walk-repeats',
  'a save refused as a duplicate (10018) still spends a free use': 'oracle.free-uses',
  'created_at is two hours late on cursor pages': 'oracle.created-at',
};

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

  it.each(round4Deviations.filter((d) => d.name in shownRound4))(
    'finds a later deviation: $name',
    async (d) => {
      const verdicts = await h.run(d.handle);
      expect(
        verdicts.map((v) => v.rule),
        JSON.stringify(verdicts),
      ).toContain(shownRound4[d.name]);
    },
  );

  it.each(suiteKits.filter((d) => shown.includes(d.name)))('finds a suite deviation: $name', async (d) => {
    const verdicts = await h.run(d.handle);
    expect(verdicts.length, JSON.stringify(verdicts)).toBeGreaterThan(0);
    for (const v of verdicts) expect(v.seen).toMatch(/deployment:.*model/);
  });

  it('names every kit it is said to show', () => {
    expect(shown.filter((name) => !suiteKits.some((d) => d.name === name))).toEqual([]);
  });
});
