import { encodeWav } from '../../audio/synthesis/wav-encode.js';
import { speechOfDuration } from '../../fixtures/generate-speech.js';
import { fixtureManifest, loadFixture } from '../../fixtures/index.js';
import type { FixtureFile, FixtureRole } from '../toolkit/run-state.js';

/** Recordings inside the accepted range that the manifest does not hold: made here, like the kit's. */
const madeHere: Partial<Record<FixtureRole, () => FixtureFile>> = {
  'valid-3.2s': () => speech('valid-3.2s.wav', 3.2),
  'valid-59.5s': () => speech('valid-59.5s.wav', 59.5),
};

function speech(name: string, seconds: number): FixtureFile {
  const format = { sampleRate: 24_000, channels: 1, bitDepth: 16 } as const;
  return { name, bytes: encodeWav(speechOfDuration(seconds, format.sampleRate), format) };
}

/** Which kit fixture plays each role of the cases. */
export const fixtureIds: Readonly<Record<FixtureRole, string>> = {
  'valid-3s': 'valid-3s',
  'valid-3.2s': 'valid-3.2s',
  'valid-59.5s': 'valid-59.5s',
  'exactly-20mib': 'exactly-20mib',
  'mp3-3s': 'speech-3s-mp3',
  'mp3-60s': 'speech-60s-mp3',
  'valid-10s': 'valid-10s',
  'valid-60s': 'valid-60s',
  'short-2.9s': 'too-short-2.9s',
  'long-60.5s': 'too-long-60.5s',
  silence: 'silence-10s',
  'near-silence': 'noise-floor-10s',
  'long-pause': 'long-pause-8s',
  'over-20mib': 'too-large-21mb',
  corrupt: 'corrupt-wav',
  'flac-named-wav': 'flac-named-wav',
  mp3: 'speech-mp3',
  m4a: 'speech-m4a',
  ogg: 'speech-opus-ogg',
  webm: 'speech-opus-webm',
};

// Generating a fixture costs time (the 60 s ones most): one promise per role and process.
const cache = new Map<FixtureRole, Promise<FixtureFile | undefined>>();

async function load(role: FixtureRole): Promise<FixtureFile | undefined> {
  const make = madeHere[role];
  if (make) return make();
  const id = fixtureIds[role];
  const entry = fixtureManifest.find((f) => f.id === id);
  if (!entry) return undefined;
  try {
    return { name: entry.fileName, bytes: await loadFixture(id) };
  } catch {
    return undefined;
  }
}

/**
 * The kit's fixture for a role, or undefined when the kit does not have it.
 *
 * @example
 * const ref = await kitFixtures('valid-10s'); // { name: 'valid-10s.wav', bytes }
 */
export function kitFixtures(role: FixtureRole): Promise<FixtureFile | undefined> {
  let p = cache.get(role);
  if (!p) {
    p = load(role);
    cache.set(role, p);
  }
  return p;
}
