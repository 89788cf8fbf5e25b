/**
 * A round of deviations no case was written for: each breaks one rule in a way a single case's own
 * expectations may not look at (a cursor page only, an exact multiple of page_size, one error code, the
 * stream but not the complete endpoint...). The suite catches them through the differential oracle
 * (toolkit/oracled.ts) comparing every exchange with the contract's model, and through its views
 * checks. Each deviation keeps its own state for the one run it is in.
 */
import {
  cursorOf,
  type Deviation,
  isDelete,
  isList,
  isSave,
  isStream,
  isSynthesis,
  isUpload,
  jsonLike,
  keyOf,
  pageSizeOf,
  refuse,
} from './deviation-kit.js';

type Obj = Record<string, unknown>;

async function bodyOf(req: Request): Promise<Obj> {
  return (await req
    .clone()
    .json()
    .catch(() => ({}))) as Obj;
}

async function jsonOf(res: Response): Promise<Obj | undefined> {
  if (!(res.headers.get('content-type') ?? '').includes('json')) return undefined;
  return (await res.clone().json()) as Obj;
}

/** The answer with its JSON body edited (a non-JSON answer unchanged). */
async function editJson(res: Response, edit: (body: Obj) => Obj, status = res.status): Promise<Response> {
  const body = await jsonOf(res);
  return body ? jsonLike(res, edit(body), status) : res;
}

/** The data of a 200 list answer edited. */
async function editPage(res: Response, edit: (data: Obj) => Obj): Promise<Response> {
  if (res.status !== 200) return res;
  return editJson(res, (b) => ({ ...b, data: edit(b.data as Obj) }));
}

/** A WAV answer cut to a tenth of its samples, its header sizes made to fit. */
async function shortWav(res: Response): Promise<Response> {
  const bytes = new Uint8Array(await res.arrayBuffer());
  const data = Math.max(0, Math.floor((bytes.byteLength - 44) / 20) * 2);
  const out = bytes.slice(0, 44 + data);
  const view = new DataView(out.buffer);
  view.setUint32(4, 36 + data, true);
  view.setUint32(40, data, true);
  const headers = new Headers(res.headers);
  headers.delete('content-length');
  headers.delete('transfer-encoding');
  return new Response(out, { status: res.status, headers });
}

/** has_more true (with a cursor past the end) on a last page that is exactly full. */
function hasMoreAtExactMultiple(): Deviation['handle'] {
  const past = new Set<string>();
  return async (req, next) => {
    if (isList(req) && past.has(cursorOf(req) ?? '')) {
      const res = await next(
        new Request(new URL('/v1/voice/list?page_size=1', req.url), { headers: req.headers }),
      );
      return editPage(res, (d) => ({ ...d, list: [], total: 0, has_more: false, next_voice_id: null }));
    }
    const res = await next(req);
    if (!isList(req)) return res;
    return editPage(res, (d) => {
      const list = (d.list ?? []) as Obj[];
      const last = list[list.length - 1]?.voice_id;
      if (d.has_more === true || list.length !== pageSizeOf(req) || typeof last !== 'string') return d;
      const cursor = `${last}~end`;
      past.add(cursor);
      return { ...d, has_more: true, next_voice_id: cursor };
    });
  };
}

/** After the first delete, `total` is one less than the page holds. */
function totalOffAfterDelete(): Deviation['handle'] {
  let deleted = false;
  return async (req, next) => {
    const res = await next(req);
    if (isDelete(req) && res.status === 200) deleted = true;
    if (!isList(req) || !deleted) return res;
    return editPage(res, (d) => ({ ...d, total: Math.max(0, ((d.list ?? []) as Obj[]).length - 1) }));
  };
}

/** The third page of a walk shows the walk's first voice again at its end. */
function thirdPageRepeatsFirst(): Deviation['handle'] {
  const firstOf = new Map<string, { first: Obj; page: number }>();
  return async (req, next) => {
    const res = await next(req);
    if (!isList(req)) return res;
    const cursor = cursorOf(req);
    return editPage(res, (d) => {
      const list = (d.list ?? []) as Obj[];
      const walk = cursor === null ? undefined : firstOf.get(cursor);
      const next = typeof d.next_voice_id === 'string' ? d.next_voice_id : undefined;
      if (cursor === null) {
        if (next && list[0]) firstOf.set(next, { first: list[0], page: 2 });
        return d;
      }
      if (!walk) return d;
      if (next) firstOf.set(next, { first: walk.first, page: walk.page + 1 });
      if (walk.page !== 3) return d;
      return { ...d, list: [...list, walk.first], total: list.length + 1 };
    });
  };
}

/** page_size above 2 is read as 2 (the page says has_more and gives a cursor). */
function pageSizeCapped(): Deviation['handle'] {
  return async (req, next) => {
    if (!isList(req) || pageSizeOf(req) <= 2) return next(req);
    const url = new URL(req.url);
    url.searchParams.set('page_size', '2');
    return next(new Request(url, { headers: req.headers }));
  };
}

/** The last page of a walk of page_size 2 points back to the first page: the walk never ends. */
function walkNeverEnds(): Deviation['handle'] {
  const back = 'restart';
  return async (req, next) => {
    if (isList(req) && cursorOf(req) === back) {
      const url = new URL(req.url);
      url.searchParams.delete('voice_id');
      return next(new Request(url, { headers: req.headers }));
    }
    const res = await next(req);
    if (!isList(req) || pageSizeOf(req) !== 2 || cursorOf(req) === null) return res;
    return editPage(res, (d) => (d.has_more === true ? d : { ...d, has_more: true, next_voice_id: back }));
  };
}

/** A cursor page answers 503. */
function cursorPageUnavailable(): Deviation['handle'] {
  return async (req, next) => {
    const res = await next(req);
    if (!isList(req) || cursorOf(req) === null) return res;
    return refuse(503, 20002, 'service unavailable');
  };
}

/** Synthesis at speed 2 answers 500. */
function speedTwoFails(): Deviation['handle'] {
  return async (req, next) => {
    const speed = isSynthesis(req) ? (await bodyOf(req)).speed : undefined;
    const res = await next(req);
    if (speed !== 2) return res;
    return refuse(500, 10000, 'internal error');
  };
}

/** A voice_id of exactly 30 characters (the longest allowed) is refused as too long. */
function thirtyRefused(): Deviation['handle'] {
  return async (req, next) => {
    if (!isSave(req)) return next(req);
    const id = String((await bodyOf(req)).voice_id ?? '').trim();
    const res = await next(req);
    if (id.length !== 30 || res.status !== 200) return res;
    await next(
      new Request(new URL(`/v1/voice/${encodeURIComponent(id.toLowerCase())}`, req.url), {
        method: 'DELETE',
        headers: { 'x-api-key': keyOf(req) },
      }),
    );
    return refuse(400, 10001, 'voice_id is longer than 30 characters');
  };
}

/** A too-long voice_id is refused with error_code 20012 instead of 10001. */
function tooLongWrongCode(): Deviation['handle'] {
  return async (req, next) => {
    const res = await next(req);
    if (!isSave(req) || res.status !== 400) return res;
    const body = await jsonOf(res);
    return body?.error_code === 10001 ? editJson(res, (b) => ({ ...b, error_code: 20012 })) : res;
  };
}

/** An oversized upload is refused with 400 (its code right) instead of 413. */
function oversizedWrongStatus(): Deviation['handle'] {
  return async (req, next) => {
    const res = await next(req);
    return isUpload(req) && res.status === 413 ? editJson(res, (b) => b, 400) : res;
  };
}

/** A successful delete says succeed false. */
function deleteSucceedFalse(): Deviation['handle'] {
  return async (req, next) => {
    const res = await next(req);
    return isDelete(req) && res.status === 200 ? editJson(res, (b) => ({ ...b, succeed: false })) : res;
  };
}

/** A refused synthesis says succeed true (its status and code right). */
function refusalSucceedTrue(): Deviation['handle'] {
  return async (req, next) => {
    const res = await next(req);
    return isSynthesis(req) && res.status >= 400 ? editJson(res, (b) => ({ ...b, succeed: true })) : res;
  };
}

/** The free uses a list shows drop by one more for each save `matches` selects. */
function freeUsesLowered(matches: (body: Obj, res: Response) => boolean): Deviation['handle'] {
  let extra = 0;
  return async (req, next) => {
    const body = isSave(req) ? await bodyOf(req) : undefined;
    const res = await next(req);
    if (body && matches(body, res)) extra += 1;
    if (!isList(req) || extra === 0) return res;
    return editPage(res, (d) => ({
      ...d,
      remainingFreeCloneCount: Math.max(0, Number(d.remainingFreeCloneCount) - extra),
    }));
  };
}

/** Once the free uses are spent, each paid creation lowers the count below 0. */
function freeUsesBelowZero(): Deviation['handle'] {
  let spent = false;
  let paid = 0;
  return async (req, next) => {
    const res = await next(req);
    if (isSave(req) && res.status === 200 && spent) paid += 1;
    if (!isList(req)) return res;
    return editPage(res, (d) => {
      if (d.remainingFreeCloneCount !== 0) return d;
      spent = true;
      return { ...d, remainingFreeCloneCount: -paid };
    });
  };
}

/** created_at two hours late, on cursor pages only. */
function createdAtLateOnCursorPages(): Deviation['handle'] {
  return async (req, next) => {
    const res = await next(req);
    if (!isList(req) || cursorOf(req) === null) return res;
    return editPage(res, (d) => ({
      ...d,
      list: ((d.list ?? []) as Obj[]).map((v) => ({ ...v, created_at: Number(v.created_at) + 7200 })),
    }));
  };
}

/** Every upload of a key answers the object key of that key's first upload. */
function objectKeyReused(): Deviation['handle'] {
  const first = new Map<string, unknown>();
  return async (req, next) => {
    const res = await next(req);
    if (!isUpload(req) || res.status !== 200) return res;
    const body = await jsonOf(res);
    const data = (body?.data ?? {}) as Obj;
    if (!first.has(keyOf(req))) {
      first.set(keyOf(req), data.object_key);
      return res;
    }
    return editJson(res, (b) => ({ ...b, data: { ...data, object_key: first.get(keyOf(req)) } }));
  };
}

/** A saved voice is refused by synthesis when a speed is given (the default voice takes it). */
function savedVoiceRefusesSpeed(prefix = 'vk_'): Deviation['handle'] {
  return async (req, next) => {
    const body = isSynthesis(req) ? await bodyOf(req) : {};
    const res = await next(req);
    if (typeof body.voice_id !== 'string' || !body.voice_id.startsWith(prefix) || body.speed === undefined)
      return res;
    return refuse(400, 10001, 'speed is not supported for this voice');
  };
}

/** The stream speaks any voice id it does not know with the default voice; complete refuses it. */
function streamSpeaksUnknownVoice(): Deviation['handle'] {
  return async (req, next) => {
    if (!isStream(req)) return next(req);
    const body = await bodyOf(req);
    const res = await next(req);
    if (res.status < 400 || res.status >= 500 || typeof body.voice_id !== 'string') return res;
    const { voice_id: _, ...rest } = body;
    const spoken = await next(
      new Request(req.url, { method: 'POST', headers: req.headers, body: JSON.stringify(rest) }),
    );
    return spoken.status === 200 ? spoken : res;
  };
}

/** The other organization's list also shows the main key's voices created before its own first one. */
function otherOrgSeesOlderVoices(): Deviation['handle'] {
  const mine: Obj[] = [];
  let theirsSaved = false;
  return async (req, next) => {
    const res = await next(req);
    if (isList(req) && keyOf(req) === 'mock-key' && !theirsSaved && res.status === 200) {
      for (const v of (((await jsonOf(res))?.data as Obj | undefined)?.list ?? []) as Obj[])
        if (!mine.some((m) => m.voice_id === v.voice_id)) mine.push(v);
    }
    if (isSave(req) && keyOf(req) === 'mock-key-other-org' && res.status === 200) theirsSaved = true;
    if (!isList(req) || keyOf(req) !== 'mock-key-other-org' || cursorOf(req) !== null) return res;
    return editPage(res, (d) => {
      const list = [...mine.slice(0, 1), ...((d.list ?? []) as Obj[])];
      return { ...d, list, total: list.length };
    });
  };
}

/** mp3 asked, WAV answered (labelled as WAV). */
function mp3AnsweredWav(): Deviation['handle'] {
  return async (req, next) => {
    if (!isSynthesis(req)) return next(req);
    const body = await bodyOf(req);
    if (body.audio_format !== 'mp3') return next(req);
    return next(new Request(req, { body: JSON.stringify({ ...body, audio_format: 'wav' }) }));
  };
}

/** The audio of a long text (200 characters or more) is a tenth as long as it should be. */
function longTextShort(): Deviation['handle'] {
  return async (req, next) => {
    const body = isSynthesis(req) ? await bodyOf(req) : {};
    const res = await next(req);
    const text = typeof body.generate_text === 'string' ? body.generate_text : '';
    if (res.status !== 200 || text.length < 200 || !/wav/.test(res.headers.get('content-type') ?? ''))
      return res;
    return shortWav(res);
  };
}

/** Uploads refused for their extension count against the hourly upload quota (30 here). */
function extensionRefusalsSpendQuota(): Deviation['handle'] {
  let counted = 0;
  return async (req, next) => {
    if (!isUpload(req) || keyOf(req) === 'mock-key-other-org') return next(req);
    if (counted >= 30) return refuse(429, 10005, 'upload quota exceeded');
    const res = await next(req);
    const code = res.status === 400 ? (await jsonOf(res))?.error_code : undefined;
    if (res.status === 200 || code === 20012) counted += 1;
    return res;
  };
}

export const round4Deviations: readonly Deviation[] = [
  {
    name: 'a cursor page answers 503',
    only: ['list.cursor.traversal'],
    caughtBy: 'list.cursor.traversal',
    message: /HTTP 503: a server error/,
    handle: cursorPageUnavailable(),
  },
  {
    name: 'synthesis at speed 2 answers 500',
    only: ['synthesis.complete.speed-faster-shorter'],
    caughtBy: 'synthesis.complete.speed-faster-shorter',
    message: /HTTP 500: a server error/,
    handle: speedTwoFails(),
  },
  {
    name: 'a 30-character voice_id (the longest allowed) is refused as too long',
    only: ['voice-save.id.*'],
    caughtBy: 'voice-save.id.normalized',
    message:
      /is valid once trimmed and lowercased|oracle\.refused \(§4\): deployment: HTTP 400 \/ error_code 10001; model: HTTP 200/,
    handle: thirtyRefused(),
  },
  {
    name: 'a too-long voice_id is refused with error_code 20012',
    only: ['voice-save.id.too-long'],
    caughtBy: 'voice-save.id.too-long',
    message:
      /error_code 20012, expected 10001|oracle\.error-code .*error_code 20012; model: .*error_code 10001/,
    handle: tooLongWrongCode(),
  },
  {
    name: 'an upload over 50 MiB is refused with 400/20010 instead of 413',
    only: ['upload.size.over-limit'],
    caughtBy: 'upload.size.over-limit',
    message: /pairs it with 413|oracle\.status-of-code .*HTTP 400 \/ error_code 20010; model: HTTP 413/,
    handle: oversizedWrongStatus(),
  },
  {
    name: 'a successful delete says succeed false',
    only: ['delete.voice.removed'],
    caughtBy: 'delete.voice.removed',
    message: /succeed is false on HTTP 200|oracle\.succeed .*HTTP 200 with succeed false/,
    handle: deleteSucceedFalse(),
  },
  {
    name: 'a refused synthesis says succeed true',
    only: ['synthesis.errors.unknown-voice'],
    caughtBy: 'synthesis.errors.unknown-voice',
    message: /succeed is true on HTTP 4|oracle\.succeed .*with succeed true/,
    handle: refusalSucceedTrue(),
  },
  {
    name: 'has_more is true on an exactly full last page',
    only: ['list.cursor.traversal'],
    caughtBy: 'list.cursor.traversal',
    message: /oracle\.page .*(has_more true.*has_more false|is empty after page \d+ said has_more true)/,
    handle: hasMoreAtExactMultiple(),
  },
  {
    name: 'total is one less than the page holds after a delete',
    only: ['delete.voice.removed'],
    caughtBy: 'delete.voice.removed',
    message: /total is \d+ for a page of \d+|oracle\.page .*total/,
    handle: totalOffAfterDelete(),
  },
  {
    name: "the third page of a walk repeats the walk's first voice",
    only: ['list.cursor.traversal'],
    caughtBy: 'list.cursor.traversal',
    message: /oracle\.walk-repeats|voices seen twice/,
    handle: thirdPageRepeatsFirst(),
  },
  {
    name: 'page_size above 2 is read as 2',
    only: ['list.cursor.traversal'],
    caughtBy: 'list.cursor.traversal',
    message: /has_more is true on a page of 2 < page_size 20|oracle\.page .*page 1 of size 20 lists 2 voice/,
    handle: pageSizeCapped(),
  },
  {
    name: 'a walk of page_size 2 never ends (its last page points back to the first)',
    only: ['list.cursor.traversal'],
    caughtBy: 'list.cursor.traversal',
    message: /did not end within|oracle\.(page|walk-repeats)/,
    handle: walkNeverEnds(),
  },
  {
    name: 'a creation from a reference URL spends two free uses',
    only: ['voice-save.reference.url'],
    caughtBy: 'voice-save.reference.url',
    message: /oracle\.free-uses .*remainingFreeCloneCount \d+; model: \d+/,
    handle: freeUsesLowered((body, res) => res.status === 200 && /^https?:/.test(String(body.ref_audio))),
  },
  {
    name: 'remainingFreeCloneCount goes below 0 once the free uses are spent',
    only: ['list.cursor.traversal', 'delete.voice.removed'],
    caughtBy: 'delete.voice.removed',
    message:
      /remainingFreeCloneCount -\d+; model: a count of free uses never goes below 0|remainingFreeCloneCount.*minimum/,
    handle: freeUsesBelowZero(),
  },
  {
    name: 'a save refused as a duplicate (10018) still spends a free use',
    only: ['voice-save.id.duplicate', 'list.page.fields'],
    caughtBy: 'voice-save.id.duplicate',
    message: /remainingFreeCloneCount|oracle\.free-uses/,
    handle: freeUsesLowered((_body, res) => res.status === 409),
  },
  {
    name: 'created_at is two hours late on cursor pages',
    only: ['list.cursor.traversal'],
    caughtBy: 'list.cursor.traversal',
    message: /oracle\.created-at .*7200 s apart/,
    handle: createdAtLateOnCursorPages(),
  },
  {
    name: "every upload answers the object key of its key's first upload",
    only: ['upload.accepts.wav', 'upload.extension.*-accepted'],
    caughtBy: 'upload.extension.mp3-accepted',
    message: /oracle\.object-key-reused/,
    handle: objectKeyReused(),
  },
  {
    name: 'uploads refused for their extension spend the upload quota',
    only: ['upload.extension.*-refused', 'upload.rate-limit.exceeded'],
    caughtBy: 'upload.rate-limit.exceeded',
    // A should: the run cannot see this user's uploads earlier in the hour.
    outcome: 'warn',
    message: /upload quota|oracle\./,
    handle: extensionRefusalsSpendQuota(),
  },
  {
    name: 'a saved voice is refused by synthesis when a speed is given',
    only: ['synthesis.complete.speed-faster-shorter', 'synthesis.custom-voice.speed-and-tags'],
    caughtBy: 'synthesis.custom-voice.speed-and-tags',
    message: /session\.saved-selectable|oracle\.refused .*HTTP 400 \/ error_code 10001; model: HTTP 200/,
    handle: savedVoiceRefusesSpeed(),
  },
  {
    name: 'the stream speaks an unknown voice id with the default voice (complete refuses it)',
    only: ['voice-save.id.too-long'],
    caughtBy: 'voice-save.id.too-long',
    message: /stream synthesis with the voice \S+ answered HTTP 200|oracle\.accepted/,
    handle: streamSpeaksUnknownVoice(),
  },
  {
    name: "the other organization's list shows a voice the main key listed before",
    only: ['list.cursor.traversal', 'list.scope.other-org'],
    caughtBy: 'list.scope.other-org',
    message: /oracle\.listed-unknown .*a voice of another organization/,
    handle: otherOrgSeesOlderVoices(),
  },
  {
    name: 'mp3 asked, WAV answered',
    only: ['synthesis.complete.format-mp3'],
    caughtBy: 'synthesis.complete.format-mp3',
    message: /oracle\.format .*wav audio; asked for mp3|mp3/,
    handle: mp3AnsweredWav(),
  },
  {
    name: 'the audio of a long text is a tenth as long as it should be',
    only: ['synthesis.custom-voice.speed-and-tags'],
    caughtBy: 'synthesis.custom-voice.speed-and-tags',
    outcome: 'warn',
    message: /oracle\.duration .*s of audio; model: .* s for the same text/,
    handle: longTextShort(),
  },
];
