import { voiceId as voiceIdRule } from '../../../openapi/contract.js';
import type { ServiceDeps } from '../context.js';
import { reservedIds } from '../operations/voice-save.js';
import { concat } from '../platform/storage.js';
import type { VoiceRecord } from '../state/voices.js';

/** What POST /__mock/populate, `--populate N` and `createMockService({ populate })` ask for. */
export interface PopulateOptions {
  /** How many voices, 1 to 1000. */
  readonly voices: number;
  /** Seed of the names, ids, times and recordings; default 1. The same seed gives the same voices. */
  readonly seed?: number;
  /** The API key whose organization and environment get the voices; default the first configured key. */
  readonly key?: string;
}

export interface PopulateResult {
  readonly created: number;
  readonly voices: readonly {
    readonly voice_id: string;
    readonly name: string;
    readonly created_at: number;
  }[];
}

/** Most voices one populate makes: enough for any list UI, bounded in time and disk. */
export const maxPopulateVoices = 1000;

/**
 * Most custom voices the whole mock may hold for a populate to add more (~100 KB of recording each,
 * and GET /__mock/state lists them all): past it a populate is refused with how many can still come.
 */
export const maxPopulatedTotal = 5000;

/** How far back the creation times reach: about six months before the mock clock. */
const spreadSeconds = 182 * 24 * 3600;

/**
 * What is wrong with a populate request body, or the options it asks for.
 *
 * @example
 * populateProblem({ voices: 50, seed: 7 }, deps); // { voices: 50, seed: 7, key: 'mock-key' }
 */
export function populateProblem(
  body: unknown,
  deps: Pick<ServiceDeps, 'config' | 'state'>,
): PopulateOptions | string {
  const usage = `expected a JSON body like {"voices": 50, "seed": 1}: voices an integer from 1 to ${maxPopulateVoices}, seed an integer from 0 to 4294967295, key a configured API key`;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return usage;
  const { voices, seed = 1, key = deps.config.keys[0]?.key, ...rest } = body as Record<string, unknown>;
  const extra = Object.keys(rest);
  if (extra.length > 0) return `unknown field "${extra[0]}"; ${usage}`;
  if (!Number.isInteger(voices) || (voices as number) < 1 || (voices as number) > maxPopulateVoices)
    return `voices: ${usage}`;
  if (!Number.isInteger(seed) || (seed as number) < 0 || (seed as number) > 2 ** 32 - 1)
    return `seed: ${usage}`;
  if (typeof key !== 'string' || !deps.config.keys.some((k) => k.key === key)) return `key: ${usage}`;
  const held = deps.state.voices.count;
  if (held + (voices as number) > maxPopulatedTotal) {
    const room = Math.max(0, maxPopulatedTotal - held);
    return `voices: populate adds voices up to ${maxPopulatedTotal} custom voices in the whole mock; it holds ${held}, so ${room === 0 ? 'none' : `at most ${room}`} can still be added${room === 0 ? ' (POST /__mock/reset, or delete voices, to make room)' : ''}`;
  }
  return { voices: voices as number, seed: seed as number, key };
}

/** A voice id from a name: lowercase a-z 0-9 _ only, at most 30 characters. */
const idOf = (words: string[]): string =>
  words
    .join('_')
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9_]+/g, '')
    .replace(/_+/g, '_')
    .slice(0, 24)
    .replace(/^_|_$/g, '');

/**
 * Adds `voices` plausible custom voices to the organization and environment of `key`: names and ids
 * from a seeded private Faker, creation times spread over about six months before the mock clock
 * (oldest first, so the list shows them in that order), and for each a real reference recording made
 * by the kit's own synthesizer in the voice's own profile, so voice_url plays and synthesis with the
 * voice works. The voices consume no free clone use and charge nothing. All ids are reserved before
 * anything is awaited, so a save racing a populate never meets a half-made voice; they are stored in
 * one durable write.
 *
 * @example
 * await populateVoices(deps, { voices: 50, seed: 1 });
 */
export async function populateVoices(deps: ServiceDeps, options: PopulateOptions): Promise<PopulateResult> {
  const checked = populateProblem(options, deps);
  if (typeof checked === 'string') throw new RangeError(`populate: ${checked}`);
  const { voices: count, seed = 1, key } = checked;
  const caller = deps.callers.get(key ?? '');
  if (!caller) throw new RangeError(`populate: no configured key "${key}"`);
  // Imported here, not at the top: a mock that never populates never loads Faker (~250 ms, ~2 MB).
  const { Faker, en, base } = await import('@faker-js/faker');
  const faker = new Faker({ locale: [en, base], seed });
  const space = caller.voiceSpace;
  const reserved = reservedIds({ deps });
  const nowSeconds = Math.floor(deps.clock.now() / 1000);
  const planned: { id: string; name: string; createdAt: number; pitchHz: number; text: string }[] = [];
  const taken = new Set<string>();
  for (let i = 0; i < count; i++) {
    const first = faker.person.firstName();
    const name = `${first} ${faker.person.lastName()}`;
    const base = idOf([first, faker.word.adjective()]) || 'voice';
    let id = base;
    for (let n = 2; taken.has(id) || reserved.has(id) || !deps.state.voices.reserve(space, id); n++) {
      id = `${base}_${n}`;
    }
    taken.add(id);
    planned.push({
      id,
      name,
      createdAt: nowSeconds - faker.number.int({ min: 0, max: spreadSeconds }),
      pitchHz: faker.number.int({ min: 90, max: 280 }),
      text: `Hello, this is ${name}, speaking.`,
    });
  }
  const made: Omit<VoiceRecord, 'sequence'>[] = [];
  try {
    planned.sort((a, b) => a.createdAt - b.createdAt || a.id.localeCompare(b.id));
    for (const voice of planned) {
      if (!new RegExp(voiceIdRule.pattern).test(voice.id)) throw new Error(`bad populated id ${voice.id}`);
      const profile = deps.audio.profileFromReference(voice.id, { pitchHz: voice.pitchHz }, seed);
      // 16 kHz, about three seconds: ~100 KB a voice, so 1,000 voices stay ~100 MB (in memory without a state dir).
      const synthesis = await deps.audio.synthesize({
        text: voice.text,
        voice: profile,
        format: 'wav',
        sampleRate: 16_000,
      });
      const bytes = concat([...synthesis.chunks()]);
      const ref = (await deps.signer.sign(`populate\u0000${space}\u0000${voice.id}\u0000${seed}`)).slice(
        0,
        32,
      );
      const audioId = `voice_${ref}`;
      const writer = deps.storage.create(audioId);
      await writer.write(bytes);
      await writer.close();
      made.push({
        voiceId: voice.id,
        space,
        createdAt: voice.createdAt,
        ref,
        audioId,
        audioMediaType: 'audio/wav',
        ownsAudio: true,
        populated: true,
        account: caller.account,
        profile,
      });
      // A yield between recordings: a populate of 1,000 voices must not hold the server's other answers.
      await deps.sleep(0);
    }
  } catch (error) {
    for (const voice of planned) deps.state.voices.release(space, voice.id);
    // No voice names these bytes: they would stay until the mock stops (in memory) or restarts.
    for (const voice of made) await deps.storage.remove(voice.audioId).catch(() => {});
    throw error;
  }
  for (const voice of planned) deps.state.voices.release(space, voice.id);
  let records: Awaited<ReturnType<typeof deps.decide.addVoices>>;
  try {
    records = await deps.decide.addVoices(made);
  } catch (error) {
    for (const voice of made) await deps.storage.remove(voice.audioId).catch(() => {});
    throw error;
  }
  const added = new Set(records.map((record) => record.voiceId));
  return {
    created: records.length,
    voices: planned
      .filter((v) => added.has(v.id))
      .map((v) => ({ voice_id: v.id, name: v.name, created_at: v.createdAt })),
  };
}
