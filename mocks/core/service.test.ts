import { describe, expect, it } from 'vitest';
import { synthesizeToBytes, systemVoices } from '../../audio/index.js';
import { BytesAnswer, StreamAnswer } from './answer/answer.js';
import type { AudioEngine } from './context.js';
import { memoryStorage, type Storage } from './platform/storage.js';
import { createMockService, type MockService } from './service.js';
import { maskKey } from './state/request-log.js';
import type { StateStore } from './state/state-store.js';

const reference = synthesizeToBytes({
  text: 'This is my reference voice, recorded for cloning. It is long enough.',
  voice: systemVoices[0] as (typeof systemVoices)[0],
  format: 'wav',
});
/** The real engine, except that analysis accepts anything instantly: these tests are about state, not audio. */
const quickAudio = async (): Promise<AudioEngine> => {
  const audio = await import('../../audio/index.js');
  const accepted = await audio.analyze(reference);
  return { ...audio, analyze: async () => accepted };
};

const call = (service: MockService, path: string, init: RequestInit = {}) =>
  service
    .fetch(
      new Request(`http://mock.test${path}`, {
        ...init,
        headers: { 'X-API-Key': 'mock-key', ...init.headers },
      }),
    )
    .then(async (res) => ({
      status: res.status,
      // biome-ignore lint/suspicious/noExplicitAny: tests read answer data by path, and the schema checks its shape
      body: (await res.json()) as { error_code: number; data: any },
    }));

async function withVoices(ids: string[], validateResponses = true) {
  const service = createMockService({ audio: await quickAudio(), validateResponses });
  const form = new FormData();
  form.set('scene', 'audio');
  form.set('file', new Blob([reference.slice()]), 'r.wav');
  const upload = await call(service, '/v1/files/upload', { method: 'POST', body: form });
  for (const voice_id of ids) {
    const saved = await call(service, '/v1/voice/save', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ voice_id, ref_audio: upload.body.data.object_key }),
    });
    expect(saved.status).toBe(200);
    service.clock.advance(1000);
  }
  return service;
}

const ids = (body: { data: { list: { voice_id: string }[] } }) => body.data.list.map((v) => v.voice_id);

describe('list paging (list-order decision)', () => {
  it('walks every voice oldest first, page by page', async () => {
    const service = await withVoices(['a', 'b', 'c', 'd', 'e']);
    const seen: string[] = [];
    let cursor = '';
    for (let page = 0; page < 5; page++) {
      const { body } = await call(
        service,
        `/v1/voice/list?page_size=2${cursor ? `&voice_id=${cursor}` : ''}`,
      );
      seen.push(...ids(body));
      if (!body.data.has_more) break;
      cursor = body.data.next_voice_id;
    }
    expect(seen).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(service.responseViolations).toEqual([]);
  });

  it('resumes after the old position of a cursor whose voice was deleted', async () => {
    const service = await withVoices(['a', 'b', 'c', 'd']);
    const first = await call(service, '/v1/voice/list?page_size=2');
    expect(first.body.data.next_voice_id).toBe('c');
    await call(service, '/v1/voice/c', { method: 'DELETE' });
    const next = await call(service, '/v1/voice/list?page_size=2&voice_id=c');
    expect(ids(next.body)).toEqual(['d']);
  });

  it('counts free uses down, then records charged creations in the ledger', async () => {
    const service = await withVoices(['a', 'b', 'c', 'd', 'e']);
    const { body } = await call(service, '/v1/voice/list');
    expect(body.data.remainingFreeCloneCount).toBe(0);
    const ledger = await call(service, '/__mock/ledger');
    expect(ledger.body.data.accounts['account-1']).toMatchObject({
      freeUsesConsumed: 3,
      chargedCreations: [{ voice_id: 'd' }, { voice_id: 'e' }],
    });
  });
});

describe('kept list answers (the same bytes until something they show changes)', () => {
  /** A list's text without its voice_url signatures (they change with the clock's second). */
  const unsigned = (text: string) => text.replace(/expires=\d+&signature=\w+/, '');
  const listText = async (
    service: MockService,
    key = 'mock-key',
    origin = 'http://mock.test',
    query = '',
  ) => {
    const res = await service.fetch(
      new Request(`${origin}/v1/voice/list${query}`, { headers: { 'X-API-Key': key } }),
    );
    return res.text();
  };

  it('answers the same bytes twice, and a change of state at once', async () => {
    // Three voices use up the free clone uses: from then on a save changes nothing else in the answer.
    const service = await withVoices(['a', 'b', 'c']);
    const first = await listText(service);
    expect(await listText(service)).toBe(first);
    await withVoicesOn(service, 'd');
    expect(await listText(service)).toContain('"voice_id":"d"');
    await call(service, '/v1/voice/a', { method: 'DELETE' });
    expect(await listText(service)).not.toContain('"voice_id":"a"');
    expect(service.responseViolations).toEqual([]);
  });

  it('signs voice_url again when the clock moves a second, and for another origin', async () => {
    const service = await withVoices(['a']);
    const before = await listText(service);
    service.clock.advance(1000);
    const later = await listText(service);
    expect(later).not.toBe(before);
    expect(unsigned(later)).toBe(unsigned(before));
    expect(await listText(service, 'mock-key', 'http://other.test')).toContain(
      '"voice_url":"http://other.test/',
    );
  });

  it('gives every request that comes while voice URLs are being signed the same answer', async () => {
    const service = await withVoices(['a', 'b', 'c']);
    service.clock.advance(5000);
    const texts = await Promise.all(Array.from({ length: 8 }, () => listText(service)));
    expect(new Set(texts).size).toBe(1);
    expect(JSON.parse(texts[0] as string).data.list).toHaveLength(3);
    expect(await listText(service)).toBe(texts[0]);
  });

  it('keeps answers apart per space, page size and cursor', async () => {
    const service = await withVoices(['a', 'b', 'c']);
    await listText(service);
    expect(JSON.parse(await listText(service, 'mock-key-other-org')).data.list).toEqual([]);
    expect(JSON.parse(await listText(service, 'mock-key-other-env')).data.list).toEqual([]);
    const page = JSON.parse(
      await listText(service, 'mock-key', 'http://mock.test', '?page_size=1&voice_id=b'),
    );
    expect(page.data.list.map((v: { voice_id: string }) => v.voice_id)).toEqual(['b']);
    expect(JSON.parse(await listText(service)).data.list).toHaveLength(3);
  });

  it('shows what a restore put back, and is not changed by a client that changes its copy', async () => {
    const service = await withVoices(['a', 'b', 'c']);
    const snapshot = service.snapshot();
    const res = await service.fetch(
      new Request('http://mock.test/v1/voice/list', { headers: { 'X-API-Key': 'mock-key' } }),
    );
    new Uint8Array(await res.arrayBuffer()).fill(0x20);
    const kept = await listText(service);
    expect(JSON.parse(kept).data.list).toHaveLength(3);
    await withVoicesOn(service, 'd');
    expect(JSON.parse(await listText(service)).data.list).toHaveLength(4);
    service.restore(snapshot);
    expect(await listText(service)).toBe(kept);
  });

  describe('a repeated list (the same request to the same state: the same bytes)', () => {
    /** Lists twice and checks that the second answer is the first's bytes. */
    const repeated = async (service: MockService, key = 'mock-key') => {
      const text = await listText(service, key);
      expect(await listText(service, key)).toBe(text);
      return text;
    };
    const remaining = (text: string) => JSON.parse(text).data.remainingFreeCloneCount as number;

    it('logs each repeat as a request of its own', async () => {
      const service = await withVoices(['a']);
      const text = await repeated(service);
      const before = service.state.requests.position.lastSeq;
      expect(await listText(service)).toBe(text);
      const entry = service.state.requests.list().at(-1);
      expect(entry).toMatchObject({ seq: before + 1, status: 200, operationId: 'listVoices', key: 'm…y' });
    });

    it('gives a new answer once the voices change, the clock moves a second, or the free uses left change', async () => {
      const service = await withVoices(['a']);
      const first = await repeated(service);
      await withVoicesOn(service, 'b');
      const saved = await repeated(service);
      expect(ids(JSON.parse(saved))).toEqual(['a', 'b']);
      await call(service, '/v1/voice/a', { method: 'DELETE' });
      expect(ids(JSON.parse(await repeated(service)))).toEqual(['b']);
      const signed = await repeated(service);
      service.clock.advance(1000);
      const later = await listText(service);
      expect(later).not.toBe(signed);
      expect(unsigned(later)).toBe(unsigned(signed));
      // A free use spent elsewhere (the voices the same): the count shown changes at once.
      const before = await repeated(service);
      service.state.ledger.recordCreation('account-1', 'elsewhere', 0);
      expect(remaining(await listText(service))).toBe(remaining(before) - 1);
      expect(remaining(first)).toBeGreaterThan(remaining(before));
      expect(service.responseViolations).toEqual([]);
    });

    it('is never given to another key, a request with Prefer, or one without a key', async () => {
      const service = await withVoices(['a']);
      const own = await repeated(service);
      expect(ids(JSON.parse(await listText(service, 'mock-key-other-org')))).toEqual([]);
      const preferred = await service.fetch(
        new Request('http://mock.test/v1/voice/list', {
          headers: { 'X-API-Key': 'mock-key', Prefer: 'code=500' },
        }),
      );
      expect(preferred.status).toBe(500);
      const keyless = await service.fetch(new Request('http://mock.test/v1/voice/list'));
      expect(keyless.status).toBe(401);
      expect(await listText(service)).toBe(own);
    });

    it('after a reset, the same request gives the same bytes', async () => {
      const service = await withVoices([]);
      const text = await repeated(service);
      await service.reset();
      expect(await listText(service)).toBe(text);
    });
  });
});

describe('answer(): what adapters write', () => {
  it('works unbound: fetch and answer can be handed around as functions', async () => {
    const service = await withVoices([]);
    const { fetch: unboundFetch, answer } = service;
    const list = () =>
      new Request('http://mock.test/v1/voice/list', { headers: { 'X-API-Key': 'mock-key' } });
    expect((await unboundFetch(list())).status).toBe(200);
    expect((await answer(list())).status).toBe(200);
  });

  it('gives envelopes as bytes with their length, streams as chunks to pull, the same as fetch()', async () => {
    const service = await withVoices(['a']);
    const list = new Request('http://mock.test/v1/voice/list', { headers: { 'X-API-Key': 'mock-key' } });
    const answer = await service.answer(list);
    expect(answer).toBeInstanceOf(BytesAnswer);
    const bytes = (answer as BytesAnswer).bytes;
    const fetched = await service.fetch(list);
    expect(fetched.headers.get('content-length')).toBe(String(bytes.byteLength));
    expect(new Uint8Array(await fetched.arrayBuffer())).toEqual(bytes);
    const stream = await service.answer(
      new Request('http://mock.test/v1/text-to-speech/stream', {
        method: 'POST',
        headers: { 'X-API-Key': 'mock-key', 'Content-Type': 'application/json' },
        body: JSON.stringify({ generate_text: 'Hi.' }),
      }),
    );
    expect(stream).toBeInstanceOf(StreamAnswer);
    const { source, headers } = stream as StreamAnswer;
    expect(headers['Content-Type']).toBe('audio/wav');
    const first = await source.pull();
    expect(Buffer.from(first as Uint8Array).toString('latin1', 0, 4)).toBe('RIFF');
    source.cancel();
    expect(await source.pull()).toBeUndefined(); // cancelled: nothing more is rendered
  });
});

describe('answer(): promise turns', () => {
  it('settles a list made at once within five turns: nothing made already, nor an empty drain, is awaited', async () => {
    const service = await withVoices(['a'], false);
    const list = () =>
      new Request('http://mock.test/v1/voice/list', { headers: { 'X-API-Key': 'mock-key' } });
    await service.answer(list()); // the page is made (and its voice_url signed) once
    let settled = false;
    const answered = service.answer(list()).then(() => {
      settled = true;
    });
    let turns = 0;
    while (!settled && turns < 20) {
      await undefined;
      turns += 1;
    }
    await answered;
    // Each turn is a microtask every request pays for; awaiting what was made already took seven.
    expect(turns).toBeLessThanOrEqual(5);
  });
});

describe('answer(): a mock bug is a loud 500', () => {
  const list = () => ({
    method: 'GET',
    url: 'http://mock.test/v1/voice/list',
    headers: new Headers({ 'X-API-Key': 'mock-key' }),
    body: null,
    signal: new AbortController().signal,
  });

  it('turns an operation that throws at once into the 500 envelope, logged, and answers the next request', async () => {
    let broken = false;
    const errorsLogged: string[] = [];
    const service = createMockService({
      clock: {
        now: () => {
          if (!broken) return 1_767_225_600_000;
          broken = false;
          throw new Error('the clock broke');
        },
        advance: () => {},
      },
      logger: { error: (message) => errorsLogged.push(message) },
    });
    broken = true;
    const failed = await service.answer(list());
    expect(failed).toBeInstanceOf(BytesAnswer);
    const body = JSON.parse(new TextDecoder().decode((failed as BytesAnswer).bytes));
    expect([(failed as BytesAnswer).status, body.error_code, body.succeed]).toEqual([500, 10000, false]);
    expect(body.error_message).toContain('the clock broke');
    expect(errorsLogged).toEqual(['unexpected error on GET http://mock.test/v1/voice/list']);
    expect(((await service.answer(list())) as BytesAnswer).status).toBe(200);
    expect(service.state.requests.list().map((entry) => entry.status)).toEqual([500, 200]);
  });
});

describe('snapshot and restore', () => {
  it('puts voices, ledger and rate-limit state back', async () => {
    const service = await withVoices(['keep']);
    const snapshot = JSON.parse(JSON.stringify((await call(service, '/__mock/snapshot')).body.data));
    await withVoicesOn(service, 'extra');
    await call(service, '/v1/voice/keep', { method: 'DELETE' });
    const restored = await call(service, '/__mock/restore', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(snapshot),
    });
    expect(restored.status).toBe(200);
    expect(ids((await call(service, '/v1/voice/list')).body)).toEqual(['keep']);
    expect(service.snapshot()).toEqual(snapshot);
  });

  it('restores after a reset, bytes included: a snapshot pins the stored objects it refers to', async () => {
    const storage = memoryStorage();
    const fetched = createMockService({
      audio: await quickAudio(),
      validateResponses: true,
      storage,
      fetch: async () => new Response(reference.slice(), { headers: { 'Content-Type': 'audio/wav' } }),
    });
    const save = (voice_id: string) =>
      call(fetched, '/v1/voice/save', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ voice_id, ref_audio: 'https://refs.example.test/me.wav' }),
      });
    expect((await save('from_url')).status).toBe(200);
    const audioId = fetched.state.voices.snapshot().voices[0]?.audioId ?? '';
    expect(audioId).toMatch(/^voice_/);
    const snapshot = fetched.snapshot();
    // Deleting the voice and resetting the mock would both remove its fetched audio; the snapshot keeps it.
    await call(fetched, '/v1/voice/from_url', { method: 'DELETE' });
    await fetched.reset();
    expect(await storage.read(audioId)).toBeDefined();
    fetched.restore(snapshot);
    expect(ids((await call(fetched, '/v1/voice/list')).body)).toEqual(['from_url']);
    // Bytes of what was made after the snapshot leave with the restore (they are not pinned).
    expect((await save('later')).status).toBe(200);
    const later = fetched.state.voices.snapshot().voices.find((v) => v.voiceId === 'later')?.audioId ?? '';
    expect(await storage.read(later)).toBeDefined();
    fetched.restore(snapshot);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(await storage.read(later)).toBeUndefined();
    expect(await storage.read(audioId)).toBeDefined();
  });

  it('refuses something that is not a snapshot and keeps the state', async () => {
    const service = await withVoices(['keep']);
    const refused = await call(service, '/__mock/restore', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{"version":2}',
    });
    expect(refused.status).toBe(400);
    expect(ids((await call(service, '/v1/voice/list')).body)).toEqual(['keep']);
  });

  // biome-ignore lint/suspicious/noExplicitAny: each case spoils one field of the snapshot's JSON
  type Spoil = (snapshot: any) => void;
  const spoils: [string, Spoil, string][] = [
    [
      'a string created_at',
      (s) => {
        s.voices.voices[0].createdAt = 'yesterday';
      },
      'voices.voices[0].createdAt: must be integer',
    ],
    [
      'a voice without its profile',
      (s) => {
        delete s.voices.voices[0].profile;
      },
      'voices.voices[0]: must have required property',
    ],
    [
      'a negative upload size',
      (s) => {
        s.uploads.records[0].size = -1;
      },
      'uploads.records[0].size: must be >= 0',
    ],
    [
      'a ledger of strings',
      (s) => {
        s.ledger = { acct: 'x' };
      },
      'ledger.acct: must be object',
    ],
    [
      'no uploads at all',
      (s) => {
        delete s.uploads;
      },
      '(the snapshot): must have required property',
    ],
  ];
  it.each(spoils)(
    'refuses a snapshot with %s, naming the field, and keeps the state',
    async (_name, spoil, message) => {
      const service = await withVoices(['keep']);
      const snapshot = (await call(service, '/__mock/snapshot')).body.data;
      const before = service.snapshot();
      spoil(snapshot);
      const refused = await call(service, '/__mock/restore', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(snapshot),
      });
      expect(refused.status).toBe(400);
      expect(refused.body.error_code).toBe(10001);
      expect((refused.body as unknown as { error_message: string }).error_message).toContain(message);
      expect(service.snapshot()).toEqual(before);
      expect(() => service.restore(snapshot)).toThrow(message);
      const listed = (await call(service, '/v1/voice/list')).body.data.list;
      expect(listed.map((v: { created_at: unknown }) => typeof v.created_at)).toEqual(['number']);
    },
  );
});

async function withVoicesOn(service: MockService, voiceId: string) {
  const listed = service.state.uploads.snapshot().records[0];
  await call(service, '/v1/voice/save', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ voice_id: voiceId, ref_audio: listed?.objectKey }),
  });
}

describe('determinism', () => {
  it('gives the same object keys and synthesis bytes for the same seed and requests', async () => {
    const run = async () => {
      const service = await withVoices(['same']);
      const res = await service.fetch(
        new Request('http://mock.test/v1/text-to-speech', {
          method: 'POST',
          headers: { 'X-API-Key': 'mock-key', 'Content-Type': 'application/json' },
          body: JSON.stringify({ generate_text: 'Same words.', voice_id: 'same' }),
        }),
      );
      return { snapshot: service.snapshot(), bytes: new Uint8Array(await res.arrayBuffer()) };
    };
    const [one, two] = [await run(), await run()];
    expect(two.snapshot).toEqual(one.snapshot);
    expect(Buffer.compare(one.bytes, two.bytes)).toBe(0);
  });
});

describe('caches: owned by the state, emptied by reset, never changing an answer', () => {
  const speak = (service: MockService) =>
    service
      .fetch(
        new Request('http://mock.test/v1/text-to-speech', {
          method: 'POST',
          headers: { 'X-API-Key': 'mock-key', 'Content-Type': 'application/json' },
          body: JSON.stringify({ generate_text: 'Caches never change an answer.' }),
        }),
      )
      .then(async (res) => new Uint8Array(await res.arrayBuffer()));

  it('fills state.caches as requests come, and reset() empties every one of them', async () => {
    const service = await withVoices(['a', 'b']);
    const list = await call(service, '/v1/voice/list?page_size=1');
    const audio = await speak(service);
    const { caches } = service.state;
    expect(caches.targets.size).toBeGreaterThan(0);
    expect(caches.lists.size).toBeGreaterThan(0);
    expect(caches.completeAudio.count).toBe(1);
    expect(caches.signatures.size).toBeGreaterThan(0);
    expect(caches.maskedKeys.size).toBeGreaterThan(0);
    await service.reset();
    expect([
      caches.targets.size,
      caches.lists.size,
      caches.completeAudio.count,
      caches.signatures.size,
      caches.maskedKeys.size,
    ]).toEqual([0, 0, 0, 0, 0]);
    // The same request to the same state gives the same bytes with the caches emptied.
    expect(await speak(service)).toEqual(audio);
    const again = await withVoices(['a', 'b']);
    const first = await call(again, '/v1/voice/list?page_size=1');
    expect(first.body.data.list).toHaveLength(1);
    again.state.caches.clear();
    expect(await call(again, '/v1/voice/list?page_size=1')).toEqual(first);
    expect(list.body.data.list[0].voice_id).toBe(first.body.data.list[0].voice_id);
  });

  it('the log masks each key as ever, and keeps no long key sent nor more than 64', async () => {
    const service = createMockService({ logger: { error: () => {} } });
    const sent = [
      'mock-key',
      'k'.repeat(15_000),
      ...Array.from({ length: 100 }, (_, i) => `key-${i}-abcdefgh`),
    ];
    for (const key of [...sent, 'mock-key'])
      await service.fetch(new Request('http://mock.test/v1/voice/list', { headers: { 'X-API-Key': key } }));
    const logged = service.state.requests.list().map((entry) => entry.key);
    expect(logged).toEqual([...sent, 'mock-key'].map(maskKey));
    const { maskedKeys } = service.state.caches;
    expect(maskedKeys.size).toBeLessThanOrEqual(64);
    expect([...maskedKeys.keys()].every((key) => key.length < 15_000)).toBe(true);
  });

  it('restore() empties them too: a list after a restore shows the restored voices', async () => {
    const service = await withVoices(['a']);
    const before = service.snapshot();
    expect((await call(service, '/v1/voice/a', { method: 'DELETE' })).status).toBe(200);
    expect(ids((await call(service, '/v1/voice/list')).body)).toEqual([]);
    expect(service.state.caches.lists.size).toBe(1);
    service.restore(before);
    expect(service.state.caches.lists.size).toBe(0);
    expect(ids((await call(service, '/v1/voice/list')).body)).toEqual(['a']);
  });
});

describe('the clock (POST /__mock/clock/advance)', () => {
  const advance = (service: MockService, seconds: number) =>
    call(service, '/__mock/clock/advance', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ seconds }),
    });

  it.each([1e300, 1e12, 300_000_000_000])(
    'refuses a move of %d seconds past 9999-12-31, and the clock stays',
    async (seconds) => {
      const service = await withVoices(['a']);
      const before = service.clock.now();
      const refused = await advance(service, seconds);
      expect(refused.status).toBe(400);
      expect(refused.body.error_code).toBe(10001);
      expect(service.clock.now()).toBe(before);
      expect((await call(service, '/__mock/clock')).status).toBe(200);
    },
  );

  it('keeps every feature working after the largest move it accepts', async () => {
    const service = await withVoices(['a']);
    const room = Math.floor((Date.UTC(9999, 11, 31, 23, 59, 59) - service.clock.now()) / 1000) - 7200;
    expect((await advance(service, room)).status).toBe(200);
    const clock = await call(service, '/__mock/clock');
    expect(clock.body.data.iso).toMatch(/^9999-12-31T2/);
    const listed = await call(service, '/v1/voice/list');
    expect(listed.status).toBe(200);
    const voiceUrl = new URL(listed.body.data.list[0].voice_url);
    const audio = await service.fetch(new Request(voiceUrl));
    expect(audio.status).toBe(200);
  });

  it('reset() puts the clock back where it started', async () => {
    const service = await withVoices([]);
    const start = service.clock.now();
    await advance(service, 86_400);
    expect(service.clock.now()).toBeGreaterThan(start);
    await call(service, '/__mock/reset', { method: 'POST' });
    expect(service.clock.now()).toBe(start);
  });
});

describe('voice_url signatures', () => {
  const urlOf = async (service: MockService) =>
    (await call(service, '/v1/voice/list')).body.data.list[0].voice_url;

  it('are signed with a random secret without a seed: another mock cannot make them, nor accept them', async () => {
    const [one, two] = [await withVoices(['a']), await withVoices(['a'])];
    const [a, b] = [await urlOf(one), await urlOf(two)];
    expect(new URL(a).pathname).toBe(new URL(b).pathname);
    expect(a).not.toBe(b);
    expect((await one.fetch(new Request(a))).status).toBe(200);
    expect((await one.fetch(new Request(b))).status).toBe(403);
  });

  it('are reproducible (and so forgeable) with an explicit seed', async () => {
    const seeded = async () => {
      const service = createMockService({ audio: await quickAudio(), seed: 7 });
      const form = new FormData();
      form.set('scene', 'audio');
      form.set('file', new Blob([reference.slice()]), 'r.wav');
      const upload = await call(service, '/v1/files/upload', { method: 'POST', body: form });
      await call(service, '/v1/voice/save', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ voice_id: 'a', ref_audio: upload.body.data.object_key }),
      });
      return service;
    };
    const [one, two] = [await seeded(), await seeded()];
    const url = await urlOf(one);
    expect(await urlOf(two)).toBe(url);
    expect((await two.fetch(new Request(url))).status).toBe(200);
  });
});

const gate = () => {
  let open = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
};

/**
 * A reset that overlaps an upload: the upload that lands after the reset (its row is in the new state,
 * and it was acknowledged) keeps its bytes. The reset removes the bytes of what it dropped, not
 * whatever the storage holds when its own durable write returns.
 */
describe('reset racing an upload', () => {
  it('keeps the bytes of an upload acknowledged after the reset', async () => {
    const closing = gate();
    const closeNow = gate();
    const resetStored = gate();
    const inner = memoryStorage();
    // The upload's bytes stay in close() until the test lets them through.
    const storage: Storage = {
      ...inner,
      create(id) {
        const writer = inner.create(id);
        return {
          write: (chunk) => writer.write(chunk),
          abort: () => writer.abort(),
          async close() {
            closing.open();
            await closeNow.opened;
            await writer.close();
          },
        };
      },
    };
    // A durable store whose write of the reset takes as long as the test wants.
    const store: StateStore = {
      durable: true,
      commit: async (change) => {
        if (change.clear) await resetStored.opened;
      },
      read: async () => [],
      close: async () => {},
    };
    const service = createMockService({
      storage,
      persistence: { store, rows: [] },
      logger: { error: () => {} },
    });
    await service.ready;
    const reference = synthesizeToBytes({
      text: 'This is my reference voice, recorded for cloning. It is long enough.',
      voice:
        systemVoices.find((v) => v.id === 'system_male_deep') ??
        (systemVoices[0] as (typeof systemVoices)[0]),
      format: 'wav',
    });
    const form = new FormData();
    form.set('scene', 'audio');
    form.set('file', new Blob([reference.slice()]), 'ref.wav');
    const uploading = service.fetch(
      new Request('http://mock.test/v1/files/upload', {
        method: 'POST',
        headers: { 'X-API-Key': 'mock-key' },
        body: form,
      }),
    );
    await closing.opened;
    const resetting = service.reset();
    closeNow.open();
    const uploaded = (await (await uploading).json()) as { succeed: boolean; data: { object_key: string } };
    expect(uploaded.succeed).toBe(true);
    resetStored.open();
    await resetting;
    const saved = await service.fetch(
      new Request('http://mock.test/v1/voice/save', {
        method: 'POST',
        headers: { 'X-API-Key': 'mock-key', 'Content-Type': 'application/json' },
        body: JSON.stringify({ voice_id: 'after_reset', ref_audio: uploaded.data.object_key }),
      }),
    );
    expect(((await saved.json()) as { error_message: string }).error_message).toBe('');
    expect(saved.status).toBe(200);
  });
});
