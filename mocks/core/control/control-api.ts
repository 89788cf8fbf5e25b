import { type Answer, BytesAnswer } from '../answer/answer.js';
import { excerpt, fail, isFailure, ok, render } from '../answer/envelope.js';
import type { CoreRequest, ServiceDeps } from '../context.js';
import { analysisView } from '../operations/voice-save.js';
import { clockMoveProblem } from '../platform/clock.js';
import { verifyVoiceUrl, voiceAudioPath } from '../reference/signed-url.js';
import { jsonBodyCap, readJsonBody, readOptionalJsonBody } from '../request/request-body.js';
import { controlPrefix } from '../request/target.js';
import type { MockSnapshot } from '../state/mock-state.js';
import { rateResetChange } from '../state/persisted-rows.js';
import { voiceAudioMediaTypes } from '../state/voices.js';
import { handleJournal, journalIndex } from './journal.js';
import { type PopulateOptions, type PopulateResult, populateProblem } from './populate.js';
import { stateAnswer, stateVoicesAnswer } from './state-view.js';

/** What the control API can do to the service that hosts it. */
export interface Controls {
  reset(): Promise<void>;
  snapshot(): MockSnapshot;
  restore(snapshot: MockSnapshot): void | Promise<void>;
  /** Moves the clock forward (checked before) and stores how far it has moved. */
  advanceClock(ms: number): Promise<void>;
  populate(options: PopulateOptions): Promise<PopulateResult>;
  /** Answers a request of the public API as any caller's request is answered (and logged). */
  answer(request: CoreRequest): Promise<Answer>;
}

type Handler = (request: CoreRequest, deps: ServiceDeps, controls: Controls) => Promise<Answer>;

/** The JSON body cap of control requests: POST /__mock/speak carries a text as long as a synthesis. */
const bodyCap = (deps: ServiceDeps) => jsonBodyCap(deps.config.maxTextLength);

const clockData = (deps: ServiceDeps) => {
  const now = deps.clock.now();
  return { now: Math.floor(now / 1000), iso: new Date(now).toISOString() };
};

/**
 * The snapshot in a restore body: the snapshot itself (`data` of GET /__mock/snapshot), or that whole
 * answer, envelope and all, as a client that saved it verbatim posts it back.
 */
function snapshotOf(body: unknown): MockSnapshot {
  const envelope = body as { succeed?: unknown; data?: unknown } | null;
  const isEnvelope =
    typeof envelope === 'object' && envelope !== null && !('version' in envelope) && 'data' in envelope;
  return (isEnvelope ? envelope.data : body) as MockSnapshot;
}

/** What GET /__mock/ answers: every control operation, with what it does (a test checks each one answers). */
export const controlIndex: readonly { method: string; path: string; does: string }[] = [
  { method: 'GET', path: '/__mock/', does: 'this index' },
  {
    method: 'POST',
    path: '/__mock/reset',
    does: 'back to the initial state: no uploads, no custom voices, fresh quotas and ledger, empty request log, the clock as it started',
  },
  {
    method: 'GET',
    path: '/__mock/snapshot',
    does: 'the whole state as JSON; the stored bytes it refers to are kept until the mock stops',
  },
  {
    method: 'POST',
    path: '/__mock/restore',
    does: 'puts a snapshot back: the answer of GET /__mock/snapshot as it came, or its data',
  },
  { method: 'GET', path: '/__mock/clock', does: "the mock's clock (Unix seconds and ISO)" },
  {
    method: 'POST',
    path: '/__mock/clock/advance',
    does: 'moves the clock forward: {"seconds": 3600}; at most up to 9999-12-31T23:59:59Z',
  },
  {
    method: 'POST',
    path: '/__mock/rate-limit/reset',
    does: 'a fresh upload window for the user of {"key": "<API key>"}, or for every user without a body',
  },
  {
    method: 'POST',
    path: '/__mock/populate',
    does: 'adds fake custom voices with real reference recordings, for UI work: {"voices": 50, "seed": 1} (1 to 1000 voices; optional "key", default the first configured key); the same seed gives the same voices',
  },
  {
    method: 'GET',
    path: '/__mock/requests',
    does: 'the recent request log, oldest first: seq, time, method, path, key (masked), operation, status, duration, error code and message of refusals, the timing of streamed bodies, the JSON body of synthesis requests, the query, the Prefer directives that forced the answer, its X-Mock-Warning and its contract verdict; ?after=N lists only requests numbered above N',
  },
  ...journalIndex,
  {
    method: 'POST',
    path: '/__mock/requests/replay',
    does: 'sends a logged synthesis request again with its key and body, {"seq": N}, and answers its audio (logged and billed as a new request)',
  },
  {
    method: 'GET',
    path: '/__mock/state',
    does: 'what the mock holds, for people: voices per organization and environment (with a playable voice_url and their upload), uploads with their analysis, upload quotas left per user, free clone uses and the ledger per account, the clock, and the request log position; voicesTag names the version of the voices, ?voices=none leaves them out; a strong ETag, If-None-Match answered 304',
  },
  {
    method: 'GET',
    path: '/__mock/state/voices',
    does: 'the voices of /__mock/state alone, {"voices": [...]}, with the ETag voicesTag names (If-None-Match answered 304): read them only when they changed',
  },
  {
    method: 'POST',
    path: '/__mock/uploads/analyze',
    does: 'runs the reference analysis on an upload, {"objectKey": "obj_…"}: its verdict, container, codec and duration (shown in /__mock/state from then on)',
  },
  {
    method: 'POST',
    path: '/__mock/speak',
    does: 'speaks with a voice as a key of its organization and environment would: {"organization", "environment", "voiceId", "text", "format"?}; sent to POST /v1/text-to-speech (logged and billed like any request)',
  },
  {
    method: 'GET',
    path: '/__mock/ledger',
    does: 'billing per account: free uses consumed, charged creations, synthesized characters',
  },
  {
    method: 'GET',
    path: `${voiceAudioPath}<ref>?expires=…&signature=…`,
    does: 'the reference audio of a voice: the target of every signed voice_url of the list',
  },
];

const routes: Record<string, Partial<Record<string, Handler>>> = {
  '': { GET: async () => ok({ operations: controlIndex }) },
  reset: {
    POST: async (_r, _d, controls) => {
      await controls.reset();
      return ok(null);
    },
  },
  snapshot: { GET: async (_r, _d, controls) => ok(controls.snapshot()) },
  restore: {
    POST: async (request, _d, controls) => {
      const body = await readJsonBody(request, 64 * 1_048_576);
      if (isFailure(body)) return render(body);
      let stored: void | Promise<void>;
      try {
        stored = controls.restore(snapshotOf(body));
      } catch (error) {
        return render(fail('invalidRequest', `cannot restore: ${(error as Error).message}`));
      }
      // A failed durable write is no bad request: it rejects, and is answered as a 500.
      await stored;
      return ok(null);
    },
  },
  clock: { GET: async (_r, deps) => ok(clockData(deps)) },
  'clock/advance': {
    POST: async (request, deps, controls) => {
      const body = (await readJsonBody(request, bodyCap(deps))) as { seconds?: unknown };
      if (isFailure(body)) return render(body);
      const seconds = body?.seconds;
      if (typeof seconds !== 'number') {
        return render(fail('invalidRequest', 'expected a JSON body like {"seconds": 3600} (a number >= 0)'));
      }
      // Checked before it is applied: a refused move leaves the clock where it was.
      const problem = clockMoveProblem(deps.clock.now(), seconds * 1000);
      if (problem)
        return render(fail('invalidRequest', `cannot move the clock by ${seconds} seconds: ${problem}`));
      await controls.advanceClock(seconds * 1000);
      return ok(clockData(deps));
    },
  },
  'rate-limit/reset': {
    // A fresh upload window without moving the clock: suites that run one after another against one
    // mock (the conformance suite does ~18 uploads a run; the quota is 30 an hour) start from zero.
    POST: async (request, deps) => {
      const body = await readOptionalJsonBody(request, bodyCap(deps));
      if (isFailure(body)) return render(body);
      const key = (body as { key?: unknown } | null)?.key;
      if (key === undefined) {
        deps.state.rateLimit.clear();
        await deps.persist(rateResetChange());
        return ok({ reset: 'all users' });
      }
      const user = deps.config.keys.find((k) => k.key === key)?.user;
      if (user === undefined)
        return render(fail('invalidRequest', 'expected {"key": "<a configured API key>"} or no body'));
      deps.state.rateLimit.clear(user);
      await deps.persist(rateResetChange(user));
      return ok({ reset: user });
    },
  },
  populate: {
    POST: async (request, deps, controls) => {
      const body = await readOptionalJsonBody(request, bodyCap(deps));
      if (isFailure(body)) return render(body);
      const problem = populateProblem(body, deps);
      if (typeof problem === 'string') return render(fail('invalidRequest', problem));
      return ok(await controls.populate(problem));
    },
  },
  requests: {
    GET: async (request, deps) => {
      const after = new URL(request.url).searchParams.get('after') ?? '0';
      if (!/^\d{1,15}$/.test(after))
        return render(
          fail('invalidRequest', `after must be a request number (0 or more), got ${JSON.stringify(after)}`),
        );
      // A mock of a shared store lists the journal of every mock of it.
      if (deps.sharedJournal)
        return ok(await deps.sharedJournal.list(Number(after), deps.config.requestLogSize));
      return ok(deps.state.requests.list(Number(after)));
    },
  },
  'requests/replay': { POST: replay },
  state: { GET: (request, deps) => stateAnswer(deps, request) },
  'state/voices': { GET: (request, deps) => stateVoicesAnswer(deps, request) },
  'uploads/analyze': { POST: analyzeUpload },
  speak: { POST: speak },
  ledger: {
    GET: async (_r, deps) => {
      const accounts = deps.state.ledger.snapshot();
      const remaining = Object.fromEntries(
        Object.keys(accounts).map((account) => [account, deps.state.ledger.remainingFreeUses(account)]),
      );
      return ok({
        accounts,
        remainingFreeCloneUses: remaining,
        freeCloneUsesPerAccount: deps.config.freeCloneUses,
      });
    },
  },
};

/** POST /__mock/uploads/analyze {"objectKey"}: the reference analysis of an upload, kept for the state view. */
async function analyzeUpload(request: CoreRequest, deps: ServiceDeps): Promise<Answer> {
  const body = await readJsonBody(request, bodyCap(deps));
  if (isFailure(body)) return render(body);
  const objectKey = (body as { objectKey?: unknown } | null)?.objectKey;
  const upload = typeof objectKey === 'string' ? deps.state.uploads.get(objectKey) : undefined;
  if (!upload)
    return render(fail('invalidRequest', 'expected {"objectKey": "<the object key of an upload>"}'));
  const bytes = await deps.storage.read(upload.objectKey);
  if (!bytes) return render(fail('routeNotFound', 'the stored bytes of this upload are gone'));
  const { maxPauseSeconds, minSpeechSeconds } = deps.config.reference;
  const analysis = analysisView(
    await deps.audio.analyze(bytes, { maxPauseSeconds, minSpeechSeconds, fileName: upload.fileName }),
  );
  deps.state.analyses.set(upload.objectKey, analysis);
  return ok(analysis);
}

/**
 * POST /__mock/speak: a synthesis with a custom voice for a person who has no key at hand (the
 * dashboard's "speak" box). It is sent to the public API with a configured key of the voice's
 * organization and environment that may synthesize, so it is answered, logged and billed exactly as
 * that key's request would be; the key itself never leaves the mock.
 */
async function speak(request: CoreRequest, deps: ServiceDeps, controls: Controls): Promise<Answer> {
  const body = (await readJsonBody(request, bodyCap(deps))) as Record<string, unknown> | null;
  if (isFailure(body)) return render(body);
  const { organization, environment, voiceId, text, format } = body ?? {};
  if (typeof organization !== 'string' || typeof environment !== 'string' || typeof text !== 'string')
    return render(
      fail(
        'invalidRequest',
        'expected {"organization": "…", "environment": "…", "voiceId": "…", "text": "…", "format"?: "wav"}',
      ),
    );
  const key = deps.config.keys.find(
    (k) => k.organization === organization && k.environment === environment && k.capabilities.tts,
  );
  if (!key)
    return render(
      fail('invalidRequest', `no configured key of ${organization}/${environment} may synthesize speech`),
    );
  const synthesis = new Request(new URL('/v1/text-to-speech', request.url), {
    method: 'POST',
    headers: { 'X-API-Key': key.key, 'Content-Type': 'application/json' },
    body: JSON.stringify({
      generate_text: text,
      ...(typeof voiceId === 'string' ? { voice_id: voiceId } : {}),
      ...(typeof format === 'string' ? { audio_format: format } : {}),
    }),
  });
  return controls.answer(synthesis);
}

/**
 * POST /__mock/requests/replay {"seq": N}: sends a logged synthesis request again, with its key and
 * body, and answers what the public API answers now (the same audio while the voice is unchanged:
 * synthesis is deterministic). It is a new request: logged and billed. The log keeps no audio.
 */
async function replay(request: CoreRequest, deps: ServiceDeps, controls: Controls): Promise<Answer> {
  const body = await readJsonBody(request, bodyCap(deps));
  if (isFailure(body)) return render(body);
  const seq = (body as { seq?: unknown } | null)?.seq;
  const logged = typeof seq === 'number' ? deps.state.requests.replay(seq) : undefined;
  if (!logged)
    return render(
      fail(
        'invalidRequest',
        'expected {"seq": N} of a synthesis request still in the log (see GET /__mock/requests)',
      ),
    );
  return controls.answer(
    new Request(new URL(logged.path, request.url), {
      method: logged.method,
      headers: { 'X-API-Key': logged.key, 'Content-Type': 'application/json' },
      body: logged.body,
    }),
  );
}

async function voiceAudio(request: CoreRequest, deps: ServiceDeps): Promise<Answer> {
  const ref = await verifyVoiceUrl(deps, new URL(request.url));
  if (!ref) return render(fail('signedUrlInvalid'));
  const voice = deps.state.voices.findByRef(ref);
  const bytes = voice && (await deps.storage.read(voice.audioId));
  if (!voice || !bytes) return render(fail('routeNotFound', 'this voice no longer exists'));
  if (!(voiceAudioMediaTypes as readonly string[]).includes(voice.audioMediaType))
    throw new Error(`voice ${voice.voiceId} has a non-audio media type ${voice.audioMediaType}`);
  return new BytesAnswer(200, bytes, { 'Content-Type': voice.audioMediaType, ...voiceAudioHeaders });
}

/**
 * Voice audio is served from the mock's own origin, which the control API trusts: whatever the bytes
 * are, a browser must neither sniff them into a page nor run anything in them (red-team D4).
 */
export const voiceAudioHeaders = {
  'X-Content-Type-Options': 'nosniff',
  'Content-Security-Policy': "sandbox; default-src 'none'",
  'Content-Disposition': 'inline',
} as const;

/**
 * The control API under /__mock/ (JSON envelopes, no API key): GET /__mock/ (an index), POST reset, GET snapshot, POST restore,
 * GET clock, POST clock/advance {seconds}, POST rate-limit/reset [{key}], POST populate {voices, seed}, GET requests, GET ledger; and GET voice-audio/<ref>?…, the
 * target of every signed voice_url.
 *
 * @example
 * await fetch(`${url}/__mock/clock/advance`, { method: 'POST', body: '{"seconds":3600}', headers: { 'Content-Type': 'application/json' } });
 */
export async function handleControl(
  request: CoreRequest,
  deps: ServiceDeps,
  controls: Controls,
): Promise<Answer> {
  const { pathname } = new URL(request.url);
  if (pathname.startsWith(voiceAudioPath) && request.method === 'GET') return voiceAudio(request, deps);
  // Own names only: `/__mock/constructor` or `/__mock/__proto__` is no control operation (404, not 405).
  const name = pathname.slice(controlPrefix.length);
  const journal = handleJournal(request, deps, name);
  if (journal) return journal;
  const route = Object.hasOwn(routes, name) ? routes[name] : undefined;
  const handler = route && Object.hasOwn(route, request.method) ? route[request.method] : undefined;
  if (handler) return handler(request, deps, controls);
  if (route) {
    const allowed = Object.keys(route).join(', ');
    return render(
      fail(
        'methodNotAllowed',
        `method ${request.method} is not allowed on ${excerpt(pathname)}; allowed: ${allowed}`,
      ),
    );
  }
  return render(
    fail(
      'routeNotFound',
      `no control operation at ${request.method} ${excerpt(pathname)}; see ${controlPrefix}`,
    ),
  );
}
