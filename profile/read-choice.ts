/**
 * What one exchange shows of a point's choice, one small function per shape: the recorder asks them
 * once it knows which point an exchange is about (from the sender's hint, or from facts that leave no
 * doubt: classify.ts). Each answers a choice, or undefined when the exchange does not fit the shape (a
 * refusal point answered with a success shows nothing: a profile has no way to say "accepted").
 */

import {
  type ExchangeFacts,
  errorCodeOf,
  header,
  isObject,
  isRefusal,
  jsonObject,
  mimeOf,
} from '../judge/exchange.js';
import { type AudioFormat, audioMediaTypes, normalizeVoiceId } from '../openapi/contract.js';
import { type PointId, points, voiceIdPlaceholder } from './points.js';
import type { Choice, DefaultFormatChoice, DurationBoundsChoice, PcmHeadersChoice } from './types.js';

/** The facts the recorder reads: an exchange of the contract, or one no operation has (`operationId` undefined). */
export type SeenFacts = Omit<ExchangeFacts, 'operationId'> & {
  readonly operationId: ExchangeFacts['operationId'] | undefined;
};

/** `{ status, error_code }` of a refusal (a 4xx other than 429 with a numeric error_code). */
export function refusalOf(f: SeenFacts): { status: number; error_code: number } | undefined {
  const code = errorCodeOf(f as ExchangeFacts);
  return isRefusal(f as ExchangeFacts) && code !== undefined
    ? { status: f.status, error_code: code }
    : undefined;
}

/** Every string equal to `id` in `v` written as the placeholder (deeply, keys left alone). */
export function withPlaceholder(v: unknown, id: string): unknown {
  if (typeof v === 'string') return v === id ? voiceIdPlaceholder : v;
  if (Array.isArray(v)) return v.map((x) => withPlaceholder(x, id));
  if (isObject(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, withPlaceholder(x, id)]));
  return v;
}

/** The voice id a save or a delete named, normalized (§2.3); undefined when it named none. */
export function requestVoiceId(f: SeenFacts): string | undefined {
  if (f.operationId === 'deleteVoice') {
    const raw = f.path.split('?')[0]?.split('/').pop() ?? '';
    try {
      return normalizeVoiceId(decodeURIComponent(raw));
    } catch {
      return undefined;
    }
  }
  const id = jsonObject(f.requestJson)?.voice_id;
  return typeof id === 'string' ? normalizeVoiceId(id) : undefined;
}

/** The `data` of a success envelope, placeholders in. */
function dataChoice(f: SeenFacts): Choice | undefined {
  const body = jsonObject(f.responseJson);
  if (f.status !== 200 || !body || !('data' in body)) return undefined;
  const id = requestVoiceId(f);
  return { data: id === undefined ? body.data : withPlaceholder(body.data, id) };
}

const formatByMime: Readonly<Record<string, AudioFormat>> = {
  ...Object.fromEntries(Object.entries(audioMediaTypes).map(([format, mime]) => [mime, format])),
  'audio/x-wav': 'wav',
  'audio/wave': 'wav',
  'audio/vnd.wave': 'wav',
  'audio/mp3': 'mp3',
  'audio/l16': 'pcm',
  'audio/x-pcm': 'pcm',
};

/** The format an audio answer's Content-Type names, when it names one of the kit's three. */
export const formatOf = (f: SeenFacts): AudioFormat | undefined =>
  formatByMime[mimeOf(header(f.responseHeaders, 'content-type'))];

/** The format answered for a request without audio_format, as `{ complete }` or `{ stream }`. */
function defaultFormat(f: SeenFacts): DefaultFormatChoice | undefined {
  const format = f.status === 200 ? formatOf(f) : undefined;
  if (!format) return undefined;
  if (f.operationId === 'synthesizeSpeech') return { complete: format };
  if (f.operationId === 'streamSpeech') return { stream: format };
  return undefined;
}

/** `X-Sample-Rate`: a header name as it is conventionally written (names are case-insensitive). */
const headerCase = (name: string) =>
  name.replace(/(^|-)([a-z])/g, (_, dash, c: string) => dash + c.toUpperCase());

/** The one header of `names` whose name and value fit, or undefined when none or several do. */
function onlyOne(
  entries: ReadonlyArray<readonly [string, number]>,
  name: RegExp,
  value: (n: number) => boolean,
): string | undefined {
  const fit = entries.filter(([k, v]) => name.test(k) && value(v));
  return fit.length === 1 ? fit[0]?.[0] : undefined;
}

/**
 * The names of a PCM answer's three headers, read by name and value: a bit depth (`bit`/`depth`, 8 to
 * 32), a channel count (`channel`, 1 to 16), a sample rate (`rate`/`sample`/`hz`, 8,000 or more).
 */
export function pcmHeadersOf(f: SeenFacts): PcmHeadersChoice | undefined {
  if (f.status !== 200 || formatOf(f) !== 'pcm') return undefined;
  const numeric = Object.entries(f.responseHeaders)
    .filter(([k]) => k !== 'content-length')
    .map(([k, v]) => [k.toLowerCase(), Number(Array.isArray(v) ? v[0] : v)] as const)
    .filter(([, v]) => Number.isInteger(v));
  const bitDepth = onlyOne(numeric, /bit|depth/, (v) => [8, 16, 24, 32].includes(v));
  const channels = onlyOne(numeric, /channel/, (v) => v >= 1 && v <= 16);
  const rest = numeric.filter(([k]) => k !== bitDepth && k !== channels);
  const sampleRate = onlyOne(rest, /rate|sample|hz/, (v) => v >= 8000);
  if (!bitDepth || !channels || !sampleRate) return undefined;
  return {
    sampleRate: headerCase(sampleRate),
    channels: headerCase(channels),
    bitDepth: headerCase(bitDepth),
  };
}

/** Exactly 3 s (`shortest`) or 60 s (`longest`) accepted, or refused with its own code (20016, 20015). */
function durationBound(f: SeenFacts, aspect: string | undefined): DurationBoundsChoice | undefined {
  if (aspect !== 'shortest' && aspect !== 'longest') return undefined;
  if (f.status === 200) return { [aspect]: 'inclusive' };
  const code = refusalOf(f)?.error_code;
  return code === (aspect === 'shortest' ? 20016 : 20015) ? { [aspect]: 'exclusive' } : undefined;
}

/**
 * The choice one exchange shows on `point`. `aspect` names the part a several-part choice is about
 * (the duration bound). max-text-length and list-order need more than one exchange (recorder.ts).
 */
export function readChoice(point: PointId, f: SeenFacts, aspect?: string): Choice | undefined {
  const info = points[point];
  switch (info.shape) {
    case 'refusal':
      return refusalOf(f);
    case 'status': {
      const refusal = refusalOf(f);
      return refusal && String(refusal.error_code) === point.split('/')[1]
        ? { status: refusal.status }
        : undefined;
    }
    case 'data':
      return dataChoice(f);
    case 'delete-missing':
      return f.status === 200 ? { status: 200 } : refusalOf(f);
    case 'pcm-headers':
      return pcmHeadersOf(f);
    case 'default-format':
      return defaultFormat(f);
    case 'text-alias':
      if (f.status === 200) return { accepted: true };
      return refusalOf(f) ? { accepted: false } : undefined;
    case 'retry-after':
      return f.status === 429
        ? { header: header(f.responseHeaders, 'retry-after') !== undefined }
        : undefined;
    case 'duration-bounds':
      return durationBound(f, aspect);
    default:
      return undefined;
  }
}
