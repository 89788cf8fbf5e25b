/**
 * The model the oracle compares a deployment with: an in-process mock core (manual clock, explicit
 * seed, the deployment's calibration profile when there is one) that follows the deployment's visible
 * state. Voices a deployment showed that the model never saw (they were there before) are adopted with
 * their own `created_at`; the free uses a list showed first set the model's ledger; a write the
 * deployment refused (or accepted) against the model's answer, for a reason the spec leaves open, is
 * undone (or done) in the model, so that later answers are compared from the same state.
 */
import type { KeyScope } from '../judge/index.js';
import type { KeyConfig } from '../mocks/config/types.js';
import { manualClock } from '../mocks/core/platform/clock.js';
import { memoryStorage, type Storage } from '../mocks/core/platform/storage.js';
import { createMockService, type MockService } from '../mocks/core/service.js';
import type { MockSnapshot } from '../mocks/core/state/mock-state.js';
import type { VoiceRecord } from '../mocks/core/state/voices.js';
import { apiKeyHeader, pcmHeaders } from '../openapi/contract.js';
import type { OracleAnswer, OracleAudio, OracleRequest } from './exchange.js';

/** Where a key of the deployment belongs, and whether it may clone (§5.3; unknown when left out). */
export interface OracleKey extends KeyScope {
  readonly voiceCloning?: boolean;
}

/** The model's free uses per account: the first list a deployment answers says how many are left. */
const plentyOfFreeUses = 1000;
const templateKey = 'oracle-template';
const origin = 'http://oracle.invalid';

/** A model answer, as the oracle compares it. */
export interface ModelAnswer extends OracleAnswer {
  readonly code: number | undefined;
}

const u32 = (b: Uint8Array, at: number) =>
  ((b[at] ?? 0) | ((b[at + 1] ?? 0) << 8) | ((b[at + 2] ?? 0) << 16) | ((b[at + 3] ?? 0) << 24)) >>> 0;

function audioOf(type: string, headers: Headers, bytes: Uint8Array): OracleAudio | undefined {
  if (/wav/i.test(type)) {
    const rate = bytes.byteLength >= 44 ? u32(bytes, 28) : 0;
    return {
      kind: 'wav',
      bytes: bytes.byteLength,
      seconds: rate > 0 ? (bytes.byteLength - 44) / rate : undefined,
    };
  }
  if (/mpeg|mp3/i.test(type)) return { kind: 'mp3', bytes: bytes.byteLength };
  if (/pcm|L16|octet/i.test(type)) {
    const rate = Number(headers.get(pcmHeaders.sampleRate) ?? 0);
    const channels = Number(headers.get(pcmHeaders.channels) ?? 1) || 1;
    const bits = Number(headers.get(pcmHeaders.bitDepth) ?? 16) || 16;
    const seconds = rate > 0 ? bytes.byteLength / (rate * channels * (bits / 8)) : undefined;
    return { kind: 'pcm', bytes: bytes.byteLength, seconds };
  }
  return undefined;
}

export class ShadowModel {
  private adopted = 0;

  private readonly initial: MockSnapshot;

  private constructor(
    readonly service: MockService,
    private readonly keys: ReadonlyMap<string, KeyConfig>,
    private readonly template: VoiceRecord,
    private readonly storage: Storage,
    private readonly knownCloning: ReadonlySet<string>,
  ) {
    this.initial = service.snapshot();
  }

  /** The template voice's recording: what an upload whose bytes the oracle was not given stands for. */
  private async standIn(): Promise<Uint8Array> {
    return (await this.storage.read(this.template.audioId)) ?? new Uint8Array(0);
  }

  /** Back to the state it was made in (the template voice alone), its clock at its start. */
  async reset(): Promise<void> {
    this.service.clock.reset?.();
    await this.restore(structuredClone(this.initial));
  }

  /** A model with these keys, from `startMs` (the first exchange's time). */
  static async create(options: {
    keys: Readonly<Record<string, OracleKey>>;
    profile?: unknown;
    seed: number;
    startMs: number;
  }): Promise<ShadowModel> {
    const keys: KeyConfig[] = Object.entries(options.keys).map(([key, s]) => ({
      key,
      // Uploads are counted per user (§8): one user per organization is the closest reading.
      user: s.organization,
      organization: s.organization,
      project: s.project,
      environment: s.environment,
      // Free uses belong to the billing account; an organization is the closest visible reading.
      account: s.organization,
      capabilities: { tts: true, upload: true, voiceCloning: s.voiceCloning ?? true },
    }));
    const template: KeyConfig = {
      key: templateKey,
      user: templateKey,
      organization: templateKey,
      project: templateKey,
      environment: templateKey,
      account: templateKey,
      capabilities: { tts: true, upload: true, voiceCloning: true },
    };
    const storage = memoryStorage();
    const service = createMockService({
      config: { keys: [...keys, template], freeCloneUses: plentyOfFreeUses },
      seed: options.seed,
      clock: manualClock(Math.floor(options.startMs / 1000) * 1000),
      storage,
      // The model never reaches the network: a ref_audio URL is the deployment's business.
      fetch: (() => Promise.reject(new Error('the oracle fetches no URL'))) as typeof fetch,
      ...(options.profile !== undefined ? { profile: options.profile } : {}),
    });
    // One voice with a real recording: adopted voices share it (they speak like any saved voice).
    await service.populate({ voices: 1, key: templateKey, seed: options.seed });
    const record = service.state.voices.all().find((v) => v.account === templateKey);
    if (!record) throw new Error('the oracle could not make its template voice');
    const knownCloning = new Set(
      Object.entries(options.keys)
        .filter(([, k]) => k.voiceCloning !== undefined)
        .map(([key]) => key),
    );
    return new ShadowModel(service, new Map(keys.map((k) => [k.key, k])), record, storage, knownCloning);
  }

  /** Whether the oracle was told if the key may clone (else a refusal for that reason is the deployment's). */
  cloningKnown(apiKey: string | undefined): boolean {
    return apiKey !== undefined && this.knownCloning.has(apiKey);
  }

  /** The key's configuration, or undefined for a key the oracle was not given. */
  keyOf(apiKey: string | undefined): KeyConfig | undefined {
    return apiKey === undefined ? undefined : this.keys.get(apiKey);
  }

  spaceOf(k: KeyConfig): string {
    return `${k.organization}\u0000${k.environment}`;
  }

  uploadSpaceOf(k: KeyConfig): string {
    return `${k.organization}\u0000${k.project}\u0000${k.environment}`;
  }

  /** Moves the model's clock to `at` (forward only). */
  moveTo(at: number): void {
    const ms = Math.floor(at / 1000) * 1000 - this.service.clock.now();
    if (ms > 0) this.service.clock.advance(ms);
  }

  live(space: string): VoiceRecord[] {
    return this.service.state.voices.inSpace(space);
  }

  find(space: string, id: string): VoiceRecord | undefined {
    return this.service.state.voices.find(space, id);
  }

  /** 'another organization' when a voice of that id lives in another organization's scope (§4.3). */
  elsewhere(space: string, id: string): string | undefined {
    const org = space.split('\u0000')[0];
    const other = this.service.state.voices
      .all()
      .find(
        (v) => v.voiceId === id && v.account !== this.template.account && v.space.split('\u0000')[0] !== org,
      );
    return other ? 'another organization' : undefined;
  }

  wasDeleted(space: string, id: string): boolean {
    return this.service.state.voices.deletedSequence(space, id) !== undefined;
  }

  remaining(account: string): number {
    return this.service.state.ledger.remainingFreeUses(account);
  }

  /** The model's answer to the same request (Prefer dropped: faults are the caller's business). */
  async answer(request: OracleRequest, mapRef: (json: unknown) => unknown): Promise<ModelAnswer> {
    const headers = new Headers();
    const key = request.headers[apiKeyHeader.toLowerCase()];
    if (key !== undefined) headers.set(apiKeyHeader, key);
    let body: BodyInit | undefined;
    if (request.form) {
      const form = new FormData();
      form.set('scene', request.form.scene);
      const bytes = request.form.bytes ?? (await this.standIn());
      form.set('file', new Blob([bytes as Uint8Array<ArrayBuffer>]), request.form.fileName);
      body = form;
    } else if (request.json !== undefined) {
      headers.set('content-type', request.headers['content-type'] ?? 'application/json');
      body = JSON.stringify(this.cheaper(mapRef(request.json)));
    }
    const res = await this.service.fetch(
      new Request(`${origin}${request.path}`, { method: request.method, headers, ...(body ? { body } : {}) }),
    );
    const type = res.headers.get('content-type') ?? '';
    const bytes = new Uint8Array(await res.arrayBuffer());
    if (/json/i.test(type)) {
      const json = JSON.parse(new TextDecoder().decode(bytes)) as { error_code?: unknown };
      return {
        status: res.status,
        json,
        code: typeof json.error_code === 'number' ? json.error_code : undefined,
      };
    }
    return { status: res.status, audio: audioOf(type, res.headers, bytes), code: undefined };
  }

  /**
   * The oracle compares an MP3's format with the request, never its bytes or (unstated) length: the
   * model renders WAV instead, about a hundred times cheaper, when its configuration has both.
   */
  private cheaper(json: unknown): unknown {
    const formats = this.service.config.audioFormats;
    const body = json as { audio_format?: unknown } | null;
    if (body?.audio_format !== 'mp3' || !formats.includes('mp3') || !formats.includes('wav')) return json;
    return { ...body, audio_format: 'wav' };
  }

  snapshot(): MockSnapshot {
    return this.service.snapshot();
  }

  async restore(snapshot: MockSnapshot): Promise<void> {
    await this.service.restore(snapshot);
  }

  /** Adds a voice the deployment has (listed, or saved from a reference the model cannot read). */
  async adopt(k: KeyConfig, id: string, createdAt: number, creation: boolean): Promise<void> {
    const s = this.snapshot();
    const space = this.spaceOf(k);
    if (s.voices.voices.some((v) => v.space === space && v.voiceId === id)) return;
    s.voices.sequence += 1;
    this.adopted += 1;
    s.voices.voices.push({
      ...structuredClone(this.template),
      voiceId: id,
      space,
      sequence: s.voices.sequence,
      createdAt,
      ref: `${this.template.ref}-${this.adopted}`,
      ownsAudio: false,
      populated: true,
      account: k.account,
    });
    if (creation) chargeOne(s, k.account, id, createdAt);
    await this.restore(s);
  }

  /** Sets how many free uses the account has left. */
  async setRemaining(account: string, left: number): Promise<void> {
    if (this.remaining(account) === left) return;
    const s = this.snapshot();
    const usage = usageIn(s, account);
    usage.freeUsesConsumed = Math.max(0, plentyOfFreeUses - Math.max(0, left));
    await this.restore(s);
  }

  /** Removes a voice the deployment no longer has (a delete it did, a save it did not keep). */
  async forget(k: KeyConfig, id: string): Promise<void> {
    await this.forgetIn(this.spaceOf(k), id);
  }

  /** Removes a voice of `space` the deployment no longer shows (another client deleted it). */
  async forgetIn(space: string, id: string): Promise<void> {
    if (!this.find(space, id)) return;
    const s = this.snapshot();
    s.voices.voices = s.voices.voices.filter((v) => !(v.space === space && v.voiceId === id));
    await this.restore(s);
  }

  close(): Promise<void> {
    return this.service.close();
  }
}

function chargeOne(s: MockSnapshot, account: string, id: string, createdAt: number): void {
  const usage = usageIn(s, account);
  if (usage.freeUsesConsumed < plentyOfFreeUses) usage.freeUsesConsumed += 1;
  else usage.chargedCreations.push({ voice_id: id, created_at: createdAt });
}

function usageIn(s: MockSnapshot, account: string): MockSnapshot['ledger'][string] {
  const usage = s.ledger[account] ?? { freeUsesConsumed: 0, chargedCreations: [], synthesizedCharacters: 0 };
  s.ledger[account] = usage;
  return usage;
}
