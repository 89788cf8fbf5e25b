/** What the oracle is told of one exchange: the request as it was sent and the answer as it was read. */
import type { AudioKind } from '../judge/index.js';

export interface OracleRequest {
  readonly method: string;
  /** The path with its query, as sent (`/v1/voice/list?page_size=2`). */
  readonly path: string;
  /** Header names in lower case. */
  readonly headers: Readonly<Record<string, string>>;
  /** The JSON body as sent (save, synthesis). */
  readonly json?: unknown;
  /**
   * The upload form as sent; `bytes` is the file (the model analyses it when a save names it). Without
   * them (a proxy passes bytes on, keeping none) the model uploads a stand-in recording under the same
   * name: how a deployment reads a recording is open anyway, so a save from it is compared on the rest.
   */
  readonly form?: {
    readonly scene: string;
    readonly fileName: string;
    readonly bytes?: Uint8Array | undefined;
  };
}

export interface OracleAudio {
  readonly kind: AudioKind;
  /** Seconds of audio, when the container says (WAV, PCM with its headers). */
  readonly seconds?: number | undefined;
  readonly bytes: number;
}

export interface OracleAnswer {
  readonly status: number;
  /** The parsed JSON body, when it was JSON. */
  readonly json?: unknown;
  readonly audio?: OracleAudio | undefined;
}

export interface OracleExchange {
  /** The exchange number verdicts name. */
  readonly seq: number;
  /** When the answer came (ms since the epoch): the model's clock moves there before it answers. */
  readonly at: number;
  readonly request: OracleRequest;
  readonly answer: OracleAnswer;
}

export type OracleOperation =
  | 'uploadFile'
  | 'saveVoice'
  | 'listVoices'
  | 'deleteVoice'
  | 'synthesizeSpeech'
  | 'streamSpeech';

/** The operation a request names, or undefined (an unknown path the oracle leaves to the judge). */
export function operationOf(method: string, path: string): OracleOperation | undefined {
  const p = path.split('?')[0] ?? '';
  const m = method.toUpperCase();
  if (m === 'POST' && p === '/v1/files/upload') return 'uploadFile';
  if (m === 'POST' && p === '/v1/voice/save') return 'saveVoice';
  if (m === 'GET' && p === '/v1/voice/list') return 'listVoices';
  if (m === 'DELETE' && p.startsWith('/v1/voice/') && p.length > '/v1/voice/'.length) return 'deleteVoice';
  if (m === 'POST' && p === '/v1/text-to-speech') return 'synthesizeSpeech';
  if (m === 'POST' && p === '/v1/text-to-speech/stream') return 'streamSpeech';
  return undefined;
}

/** The envelope fields of a JSON answer, read defensively. */
export function envelopeOf(json: unknown): {
  code: number | undefined;
  succeed: boolean | undefined;
  data: Record<string, unknown> | undefined;
} {
  const o = typeof json === 'object' && json !== null ? (json as Record<string, unknown>) : {};
  const data =
    typeof o.data === 'object' && o.data !== null ? (o.data as Record<string, unknown>) : undefined;
  return {
    code: typeof o.error_code === 'number' ? o.error_code : undefined,
    succeed: typeof o.succeed === 'boolean' ? o.succeed : undefined,
    data,
  };
}
