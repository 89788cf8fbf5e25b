import { claimedAudio } from '../../judge/audio.js';
import { limits } from '../../openapi/contract.js';
import {
  createVoice,
  type ListData,
  listAll,
  listedIds,
  listPage,
  referenceKey,
  saveVoice,
} from '../toolkit/actions.js';
import type { CaseContext, ConformanceCase } from '../toolkit/context.js';
import { expectOk } from '../toolkit/expect.js';
import { send } from '../toolkit/http.js';

const maxPage = limits.pageSizeMax.value;
const minPage = limits.pageSizeMin.value;

/** §4.3: the page-level fields of one page. */
function checkPage(ctx: CaseContext, page: ListData, pageSize: number, request: string): void {
  const n = page.list.length;
  ctx.check(
    Number.isInteger(page.total) && page.total === n,
    `total is ${page.total}; this page holds ${n} voices`,
    {
      request,
    },
  );
  ctx.check(n <= pageSize, `the page holds ${n} voices, more than page_size ${pageSize}`, { request });
  ctx.check(typeof page.has_more === 'boolean', `has_more is ${JSON.stringify(page.has_more)}`, { request });
  if (page.has_more) {
    ctx.check(
      typeof page.next_voice_id === 'string' && page.next_voice_id !== '',
      'has_more is true but next_voice_id is empty',
      { request },
    );
    ctx.check(n === pageSize, `has_more is true on a page of ${n} < page_size ${pageSize}`, {
      request,
      level: 'should',
    });
  }
  const free = page.remainingFreeCloneCount;
  ctx.check(Number.isInteger(free) && free >= 0, `remainingFreeCloneCount is ${JSON.stringify(free)}`, {
    request,
  });
  for (const v of page.list) {
    ctx.check(
      typeof v.voice_id === 'string' && v.voice_id !== '',
      `a voice_id is ${JSON.stringify(v.voice_id)}`,
      { request },
    );
    ctx.check(
      typeof v.voice_url === 'string' && /^https?:\/\//.test(v.voice_url),
      `voice_url ${v.voice_url} is not an address`,
      {
        request,
      },
    );
    ctx.check(
      Number.isInteger(v.created_at),
      `created_at of ${v.voice_id} is ${JSON.stringify(v.created_at)}, not an integer`,
      {
        request,
      },
    );
  }
}

/** Create `n` voices; their ids in creation order. */
async function createMany(ctx: CaseContext, n: number, tag: string): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const id = await createVoice(ctx, tag);
    if (id) ids.push(id);
  }
  return ids;
}

const cases: ConformanceCase[] = [
  {
    id: 'list.page.fields',
    section: '§4.3',
    severity: 'must',
    title: 'a list page has list, has_more, next_voice_id, total (= page length) and remainingFreeCloneCount',
    async run(ctx) {
      const { ex, data } = await listPage(ctx);
      if (expectOk(ctx, ex, 'listing voices') && data)
        checkPage(ctx, data, limits.pageSizeDefault.value, ex.request);
    },
  },
  {
    id: 'list.page-size.boundaries',
    section: '§4.3, §8',
    severity: 'must',
    title: `page_size ${minPage} and ${maxPage} are accepted`,
    covers: { limits: ['pageSizeMin', 'pageSizeMax'] },
    async run(ctx) {
      for (const size of [minPage, maxPage]) {
        const { ex, data } = await listPage(ctx, { page_size: size });
        if (expectOk(ctx, ex, `listing with page_size=${size}`) && data)
          checkPage(ctx, data, size, ex.request);
      }
    },
  },
  {
    id: 'list.cursor.traversal',
    section: '§4.3',
    severity: 'must',
    title: 'following next_voice_id with page_size 1, 2 and 20 visits every voice exactly once',
    openQuestion: 'list-order',
    needs: { billable: true },
    covers: { limits: ['pageSizeMin', 'pageSizeMax'] },
    async run(ctx) {
      const made = await createMany(ctx, 3, 'page');
      let reference: string[] | undefined;
      for (const size of [minPage, 2, maxPage]) {
        const walk = await listAll(ctx, 'main', size);
        walk.pages.forEach((p) => {
          checkPage(ctx, p, size, `GET /v1/voice/list?page_size=${size}`);
        });
        const ids = walk.voices.map((v) => v.voice_id);
        ctx.check(
          !ids.includes('system_default'),
          `page_size=${size}: the list shows the system voice system_default; it lists custom voices only (§2.3, §4.3)`,
        );
        const dupes = ids.filter((id, i) => ids.indexOf(id) !== i);
        ctx.check(
          dupes.length === 0,
          `page_size=${size}: voices seen twice: ${[...new Set(dupes)].join(', ')}`,
        );
        const missing = made.filter((id) => !ids.includes(id));
        ctx.check(
          missing.length === 0,
          `page_size=${size}: created voices never listed: ${missing.join(', ')}`,
        );
        if (reference) {
          const a = [...new Set(ids)].sort().join();
          ctx.check(
            a === [...reference].sort().join(),
            `page_size=${size} lists a different set of voices than page_size=1`,
          );
        } else reference = [...new Set(ids)];
        if (size === maxPage) {
          const order = made.map((id) => ids.indexOf(id));
          const ascending = order.every((x, i) => i === 0 || x > (order[i - 1] ?? -1));
          ctx.observe(
            'list-order',
            ascending ? 'creation order (oldest first)' : `not creation order: ${order.join(',')}`,
          );
        }
      }
    },
  },
  {
    id: 'list.page-size.default',
    section: '§4.3, §8',
    severity: 'must',
    title: `without page_size a page holds ${limits.pageSizeDefault.value} voices when more exist`,
    needs: { billable: true, include: ['many-voices'] },
    covers: { limits: ['pageSizeDefault'] },
    async run(ctx) {
      const want = limits.pageSizeDefault.value + 1;
      const have = (await listedIds(ctx)).length;
      await createMany(ctx, Math.max(0, want - have), 'many');
      const { ex, data } = await listPage(ctx);
      if (!expectOk(ctx, ex, 'listing without page_size') || !data) return;
      ctx.check(
        data.list.length === limits.pageSizeDefault.value,
        `the default page holds ${data.list.length} voices`,
      );
      ctx.check(data.has_more === true, 'has_more is false although more voices exist');
    },
  },
  {
    id: 'list.voice.created-at-seconds',
    section: '§2.3, §4.3',
    severity: 'must',
    title:
      "created_at is Unix seconds of the creation: within 300 s of the save response's Date header (else 1 h of the runner's clock)",
    needs: { billable: true },
    async run(ctx) {
      const ref = await referenceKey(ctx);
      if (!ref) return;
      const id = ctx.newVoiceId('ts');
      const saved = await saveVoice(ctx, { voice_id: id, ref_audio: ref });
      if (!expectOk(ctx, saved, `saving ${id}`)) return;
      const v = (await listAll(ctx)).voices.find((x) => x.voice_id === id);
      if (!ctx.check(v !== undefined, `the new voice ${id} is not listed`) || !v) return;
      ctx.check(v.created_at < 1e11, `created_at ${v.created_at} looks like milliseconds, not seconds`);
      // The service's own clock when it answered the save is the best reference; an in-process service
      // (no Date header) is judged against the runner's clock (the `now` option, for a manual clock).
      const date = Date.parse(saved.headers.get('date') ?? '');
      const [reference, tolerance, source] = Number.isFinite(date)
        ? [date / 1000, 300, 'the Date header of the save response']
        : [ctx.state.now() / 1000, 3600, "the runner's clock"];
      const skew = Math.abs(v.created_at - reference);
      ctx.check(
        skew <= tolerance,
        `created_at ${v.created_at} is ${Math.round(skew)} s away from ${source} (${Math.round(reference)}); at most ${tolerance} s expected`,
      );
    },
  },
  {
    id: 'list.voice.url-fetchable',
    section: '§2.3, §4.3',
    severity: 'must',
    title: 'voice_url is a signed address whose GET returns the reference audio',
    openQuestion: 'voice-url-lifetime',
    needs: { billable: true },
    async run(ctx) {
      const id = await createVoice(ctx, 'url');
      const v = (await listAll(ctx)).voices.find((x) => x.voice_id === id);
      if (!ctx.check(v !== undefined, `the new voice ${id} is not listed`) || !v) return;
      if (
        !ctx.check(
          typeof v.voice_url === 'string' && URL.canParse(v.voice_url),
          `voice_url of ${id} is ${JSON.stringify(v.voice_url)}: missing or not an address (§2.3)`,
        )
      )
        return;
      const ex = await send(ctx.state.fetch, new Request(v.voice_url));
      ctx.check(ex.status === 200, `GET voice_url answered HTTP ${ex.status}`, { request: ex.request });
      const ct = ex.headers.get('content-type');
      const audio = /^audio\//i.test(ct ?? '') || claimedAudio(ct) !== 'other';
      const riff = String.fromCharCode(...ex.bytes.subarray(0, 4));
      ctx.check(
        audio || riff === 'RIFF',
        `GET voice_url gave ${ct} (${ex.bytes.byteLength} bytes), not audio`,
        {
          request: ex.request,
        },
      );
    },
  },
  {
    id: 'list.scope.other-org',
    section: '§4.3, §5.4',
    severity: 'must',
    title: "another organization's voices never appear in the list, and ours never in theirs",
    needs: { billable: true, keys: ['otherOrg'] },
    async run(ctx) {
      const theirs = await createVoice(ctx, 'org', { key: 'otherOrg' });
      const ours = await createVoice(ctx, 'org');
      if (!theirs || !ours) return;
      const mine = await listedIds(ctx, 'main');
      const other = await listedIds(ctx, 'otherOrg');
      ctx.check(!mine.includes(theirs), `the other organization's voice ${theirs} appears in our list`);
      ctx.check(!other.includes(ours), `our voice ${ours} appears in the other organization's list`);
      ctx.check(other.includes(theirs), `the other organization does not see its own voice ${theirs}`);
    },
  },
  {
    id: 'list.page-size.out-of-range',
    section: '§4.3',
    severity: 'observe',
    title: 'what page_size 0, 21, -1, 1.5 and "abc" do',
    openQuestion: 'page-size-out-of-range',
    async run(ctx) {
      for (const size of ['0', String(maxPage + 1), '-1', '1.5', 'abc']) {
        const { ex, data } = await listPage(ctx, { page_size: size }, 'main', {
          probes: 'page-size-out-of-range',
        });
        const code = (ex.json as { error_code?: unknown } | undefined)?.error_code;
        const detail = data ? `${data.list.length} voices` : `error_code ${JSON.stringify(code)}`;
        ctx.observe('page-size-out-of-range', `page_size=${size}: HTTP ${ex.status}, ${detail}`);
      }
    },
  },
  {
    id: 'list.cursor.unknown',
    section: '§4.3',
    severity: 'observe',
    title: 'what a cursor no response returned does',
    openQuestion: 'list-errors',
    async run(ctx) {
      const { ex } = await listPage(ctx, { voice_id: `${ctx.state.prefix}nocursor` }, 'main', {
        probes: 'list-errors/unknown-cursor',
      });
      const code = (ex.json as { error_code?: unknown } | undefined)?.error_code;
      ctx.observe('list-errors', `unknown cursor: HTTP ${ex.status}, error_code ${JSON.stringify(code)}`);
    },
  },
];

export const listCases: ConformanceCase[] = cases;
