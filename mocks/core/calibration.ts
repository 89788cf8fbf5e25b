/**
 * The mock calibrated by a profile (profile/, docs/calibration.md): what a deployment chose on the
 * points the spec leaves open, turned once, at creation, into what the operations and the renderer
 * read. Without a profile every field holds the mock's own choice, so the code paths are the same.
 */
import type { OwnChoices } from '../../judge/judge.js';
import { type AudioFormat, type ErrorName, errors, type OperationId } from '../../openapi/contract.js';
import { type PointId, points, voiceIdPlaceholder } from '../../profile/points.js';
import type {
  DataChoice,
  DefaultFormatChoice,
  DeleteMissingChoice,
  DurationBoundsChoice,
  ListOrderChoice,
  MaxTextLengthChoice,
  PcmHeadersChoice,
  Profile,
  RefusalChoice,
  RetryAfterChoice,
  StatusChoice,
  TextAliasChoice,
} from '../../profile/types.js';
import type { MockConfig } from '../config/types.js';

/** The status and error_code a refusal is answered with. */
export interface RefusalAnswer {
  readonly status: number;
  readonly code: number;
}

export interface Calibration {
  /** The profile the mock answers by; undefined without one. */
  readonly profile: Profile | undefined;
  /** The profile's points in effect, in catalogue order (empty without a profile). */
  readonly points: readonly PointId[];
  /** Catalogue entries answered with another status (and code) than the catalogue's. */
  readonly refusals: Partial<Readonly<Record<ErrorName, RefusalAnswer>>>;
  /** `data` of a successful save and delete, with `{voice_id}` placeholders; undefined: the mock's own. */
  readonly saveData: DataChoice | undefined;
  readonly deleteData: DataChoice | undefined;
  /** Deleting a missing custom voice is refused with this; undefined: success (the mock's own). */
  readonly deleteMissing: RefusalAnswer | undefined;
  readonly newestFirst: boolean;
  readonly textAlias: boolean;
  readonly uploadRetryAfter: boolean;
  /** Whether exactly 3 s and exactly 60 s are refused (the mock accepts both). */
  readonly exclusiveShortest: boolean;
  readonly exclusiveLongest: boolean;
  /** The format answered when audio_format is omitted, per endpoint; undefined: config.defaultAudioFormat. */
  readonly defaultFormat: { readonly complete?: AudioFormat; readonly stream?: AudioFormat };
  /** What the mock's own answer check must allow: the profile's refusals and `data` are the mock's choices. */
  readonly ownChoices: OwnChoices;
}

/** The mock's own choices: no profile. */
export const ownCalibration: Calibration = {
  profile: undefined,
  points: [],
  refusals: {},
  saveData: undefined,
  deleteData: undefined,
  deleteMissing: undefined,
  newestFirst: false,
  textAlias: false,
  uploadRetryAfter: true,
  exclusiveShortest: false,
  exclusiveLongest: false,
  defaultFormat: {},
  ownChoices: {},
};

type Choices = Partial<Record<PointId, unknown>>;

/** The refusals a profile answers otherwise, by catalogue entry: their status and code. */
function refusalsOf(choices: Choices): Partial<Record<ErrorName, RefusalAnswer>> {
  const out: Partial<Record<ErrorName, RefusalAnswer>> = {};
  for (const [id, choice] of Object.entries(choices) as [PointId, unknown][]) {
    const info = points[id];
    if (!('error' in info)) continue;
    const entry = errors[info.error];
    if (info.shape === 'status')
      out[info.error] = { status: (choice as StatusChoice).status, code: entry.code };
    else {
      const refusal = choice as RefusalChoice;
      out[info.error] = { status: refusal.status, code: refusal.error_code };
    }
  }
  return out;
}

/** The (operation, status, code) triples the mock's answer check must take as the mock's own. */
function ownChoicesOf(calibration: Omit<Calibration, 'ownChoices'>): OwnChoices {
  const refusals = Object.entries(calibration.refusals).flatMap(([name, answer]) =>
    errors[name as ErrorName].operations.map((operationId) => ({ operationId, ...answer })),
  );
  if (calibration.deleteMissing) refusals.push({ operationId: 'deleteVoice', ...calibration.deleteMissing });
  const data: OperationId[] = [
    ...(calibration.saveData ? (['saveVoice'] as const) : []),
    ...(calibration.deleteData ? (['deleteVoice'] as const) : []),
  ];
  return { refusals, data };
}

/**
 * What a profile (checked already: profile/parse.ts) makes the mock do; undefined gives the mock's own.
 *
 * @example calibrationOf({ kind: 'voice-kit-profile', version: 1, points: { 'list-order': { question: 'list-order', choice: { order: 'newest-first' } } } }).newestFirst // true
 */
export function calibrationOf(profile: Profile | undefined): Calibration {
  if (profile === undefined) return ownCalibration;
  const choices: Choices = Object.fromEntries(
    Object.entries(profile.points).map(([id, entry]) => [id, entry?.choice]),
  );
  const pick = <T>(id: PointId) => choices[id] as T | undefined;
  const missing = pick<DeleteMissingChoice>('delete-response-body/missing');
  const bounds = pick<DurationBoundsChoice>('reference-duration-boundaries');
  const formats = pick<DefaultFormatChoice>('default-audio-format');
  const calibration = {
    profile,
    points: (Object.keys(points) as PointId[]).filter((id) => choices[id] !== undefined),
    refusals: refusalsOf(choices),
    saveData: pick<DataChoice>('voice-save-data'),
    deleteData: pick<DataChoice>('delete-response-body'),
    deleteMissing:
      missing && missing.status !== 200
        ? { status: missing.status, code: (missing as RefusalChoice).error_code }
        : undefined,
    newestFirst: pick<ListOrderChoice>('list-order')?.order === 'newest-first',
    textAlias: pick<TextAliasChoice>('text-alias')?.accepted === true,
    uploadRetryAfter: pick<RetryAfterChoice>('upload-retry-after')?.header !== false,
    exclusiveShortest: bounds?.shortest === 'exclusive',
    exclusiveLongest: bounds?.longest === 'exclusive',
    defaultFormat: { ...formats },
  };
  return { ...calibration, ownChoices: ownChoicesOf(calibration) };
}

/**
 * The configuration with the profile's points that are configuration too: the profile wins over the
 * config for `pcmHeaders` and `maxTextLength` (docs/calibration.md).
 */
export function calibratedConfig(config: MockConfig, profile: Profile | undefined): MockConfig {
  if (profile === undefined) return config;
  const pcm = profile.points['pcm-header-names']?.choice as PcmHeadersChoice | undefined;
  const max = profile.points['max-text-length']?.choice as MaxTextLengthChoice | undefined;
  return {
    ...config,
    ...(pcm
      ? { pcmHeaders: { sampleRate: pcm.sampleRate, channels: pcm.channels, bitDepth: pcm.bitDepth } }
      : {}),
    ...(max ? { maxTextLength: max.characters } : {}),
  };
}

/**
 * A `data` choice for one voice: every string equal to `{voice_id}` (or holding it) with the id.
 *
 * @example dataFor({ data: { voice_id: '{voice_id}' } }, 'narrator') // { voice_id: 'narrator' }
 */
export function dataFor(choice: DataChoice, voiceId: string): unknown {
  const fill = (value: unknown): unknown => {
    if (typeof value === 'string') return value.split(voiceIdPlaceholder).join(voiceId);
    if (Array.isArray(value)) return value.map(fill);
    if (typeof value === 'object' && value !== null)
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fill(v)]));
    return value;
  };
  return fill(choice.data);
}
