/**
 * The mock's voices: fixed system voices, and custom voices whose profile follows the pitch measured in
 * their reference recording.
 */

import type { VoiceProfile } from '../types.js';
import { createRng, hashString, mixSeeds } from './rng.js';

/** The voice used when a request names none (`default-voice`). */
export const defaultVoiceId = 'system_default';

/**
 * Built-in voices, each with a distinct fixed profile. `system_default` is the default voice.
 *
 * @example
 * systemVoices.find((v) => v.id === 'system_male_deep')?.pitchHz; // 95
 */
export const systemVoices: readonly VoiceProfile[] = [
  {
    id: defaultVoiceId,
    pitchHz: 165,
    formantScale: 1,
    syllablesPerSecond: 4.6,
    breathiness: 0.08,
    seed: 0x5d1a,
  },
  {
    id: 'system_female_bright',
    pitchHz: 220,
    formantScale: 1.14,
    syllablesPerSecond: 4.9,
    breathiness: 0.12,
    seed: 0xfb21,
  },
  {
    id: 'system_male_deep',
    pitchHz: 95,
    formantScale: 0.88,
    syllablesPerSecond: 4,
    breathiness: 0.06,
    seed: 0x3d77,
  },
  {
    id: 'system_male_warm',
    pitchHz: 125,
    formantScale: 0.95,
    syllablesPerSecond: 4.3,
    breathiness: 0.18,
    seed: 0x9a0c,
  },
  {
    id: 'system_child',
    pitchHz: 290,
    formantScale: 1.28,
    syllablesPerSecond: 5.2,
    breathiness: 0.1,
    seed: 0xc41d,
  },
];

/**
 * A system voice by id, or undefined.
 *
 * @example
 * findSystemVoice('system_default')?.pitchHz; // 165
 */
export function findSystemVoice(id: string): VoiceProfile | undefined {
  return systemVoices.find((voice) => voice.id === id);
}

/** Newton's method with basic arithmetic only, so the result is the same on every engine (unlike `**`). */
function cubeRoot(x: number): number {
  let y = 1;
  for (let i = 0; i < 40; i++) y -= (y * y * y - x) / (3 * y * y);
  return y;
}

const clamp = (x: number, min: number, max: number): number => Math.min(max, Math.max(min, x));

/**
 * The profile of a custom voice cloned from a reference: it speaks at the measured pitch (a low
 * recording gives a low voice) with formants that follow the pitch, and pace and breathiness drawn from
 * the seed. Without a measured pitch, one is drawn from the seed and the id.
 *
 * @example
 * profileFromReference('narrator', { pitchHz: 110 }, 7).pitchHz; // 110
 */
export function profileFromReference(
  voiceId: string,
  measured: { pitchHz: number | null },
  seed: number,
): VoiceProfile {
  const voiceSeed = mixSeeds(seed, hashString(voiceId));
  const rng = createRng(voiceSeed);
  const drawn = rng.range(100, 240);
  const pitchHz = clamp(measured.pitchHz ?? drawn, 60, 400);
  // Formants scale with roughly the cube root of pitch across speakers (bigger speakers: lower both).
  const formantScale = clamp(cubeRoot(pitchHz / 160) * rng.range(0.97, 1.03), 0.8, 1.35);
  return {
    id: voiceId,
    pitchHz,
    formantScale,
    syllablesPerSecond: rng.range(4, 5),
    breathiness: rng.range(0.05, 0.2),
    seed: voiceSeed,
  };
}
