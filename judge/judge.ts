/**
 * The one judge of the contract: `createJudge(options)` → `{ judge(facts) → Verdict[], session }`. It
 * applies the exchange rules (the answer alone), the request rules (was the deployment right to accept or
 * refuse) and the session rules (what earlier exchanges established), pure and synchronous: the proxy,
 * the suite and the mock's own response check hand it the facts of each exchange in order.
 */
import { type OperationId, pcmHeaders } from '../openapi/contract.js';
import { type ExchangeFacts, type HeaderMap, header, type KeptBody } from './exchange.js';
import { type ExchangeRuleOptions, judgeExchange, type ProfileRefusal } from './exchange-rules.js';
import { judgeRequest } from './request-rules.js';
import type { Rule, RuleKind, Severity } from './rules.js';
import { type KeyScope, Session } from './session.js';
import { type Evidence, judgeSession, type SessionRuleOptions } from './session-rules.js';

/** One broken rule, what was seen, and for a session rule the earlier exchange that set the expectation. */
export interface Verdict {
  /** The rule's stable id (rules.ts), e.g. `session.deleted-gone`. */
  readonly rule: string;
  readonly kind: RuleKind;
  readonly severity: Severity;
  /** The section of the service interface spec. */
  readonly section: string;
  readonly operation: string;
  /** The exchange judged (its `seq`). */
  readonly exchange: number;
  readonly seen: string;
  /** "deleted at exchange 12": the earlier exchange a session verdict rests on. */
  readonly evidence?: Evidence;
}

export interface JudgeOptions extends ExchangeRuleOptions {
  /** Which kinds of rules to apply (default all three). */
  readonly kinds: readonly RuleKind[];
  /** The judge sees all traffic to the deployment: rules that need a complete view are `must`. */
  readonly completeView: boolean;
  /** Voices only this client touches (the suite's run prefix): judged as with a complete view. */
  readonly ownVoice?: SessionRuleOptions['ownVoice'];
  /** key → where it belongs; turns on the cross-key rules (object keys). Keys never appear in verdicts. */
  readonly keys?: Readonly<Record<string, KeyScope>>;
}

export const defaultJudgeOptions: JudgeOptions = {
  pcmHeaders,
  lumpWaitMs: 1000,
  lumpMinSeconds: 0.5,
  kinds: ['exchange', 'request', 'session'],
  completeView: false,
};

/**
 * The exchange rules alone, without a session: for a check of one answer whose request is not at hand
 * (the mock's own response check). Pure: nothing is remembered.
 *
 * @example judgeAnswer(facts).map((v) => v.rule)
 */
export function judgeAnswer(facts: ExchangeFacts, options: Partial<ExchangeRuleOptions> = {}): Verdict[] {
  const out: Verdict[] = [];
  judgeExchange(facts, { ...defaultJudgeOptions, ...options }, (rule, seen) => {
    const found = out.find((v) => v.rule === rule.id);
    if (found) Object.assign(found, { seen: `${found.seen}; ${seen}` });
    else
      out.push({
        rule: rule.id,
        kind: rule.kind,
        severity: rule.severity,
        section: rule.section,
        operation: facts.operationId,
        exchange: facts.seq,
        seen,
      });
  });
  return out;
}

/** One answer of the kit's mock, as its response check and its journal hold it: no request at hand. */
export interface OwnAnswer {
  readonly operationId: OperationId;
  readonly status: number;
  /** Header names in lowercase. */
  readonly headers: HeaderMap;
  readonly json: KeptBody;
}

/**
 * Choices a calibration profile made the mock's own (mocks/core/calibration.ts): the mock is held to
 * them as to its documented ones, so they are allowed, and nothing else is.
 */
export interface OwnChoices {
  /** Refusals answered as the profile says: this operation, this status, this error_code. */
  readonly refusals?: readonly ProfileRefusal[];
  /** Operations whose success `data` is the profile's: their `data` is not held to the kit's schema. */
  readonly data?: readonly OperationId[];
  /** The PCM header names the mock answers with (the profile's or the config's). */
  readonly pcmHeaders?: ExchangeRuleOptions['pcmHeaders'];
}

/**
 * The kit's mock judging one of its own answers (its response check, the dashboard journal's verdict):
 * the exchange rules on the answer alone, the mock held to its own recorded choices where the spec is
 * open (a deployment may choose otherwise; the mock may not drift from what it documents). With a
 * calibration profile, `own` names the profile's choices, which are then the mock's own.
 *
 * @example judgeOwnAnswer({ operationId: 'listVoices', status: 200, headers, json: { kind: 'json', value } })
 */
export function judgeOwnAnswer(answer: OwnAnswer, own: OwnChoices = {}): Verdict[] {
  return judgeAnswer(
    {
      seq: 0,
      operationId: answer.operationId,
      method: '',
      path: '',
      query: {},
      requestHeaders: {},
      requestJson: { kind: 'none' },
      form: undefined,
      status: answer.status,
      responseHeaders: answer.headers,
      responseJson: answer.json,
      audio: undefined,
      timing: { waitMs: 0, spanMs: 0, chunks: 1 },
    },
    {
      ownChoices: true,
      requestUnknown: true,
      ...(own.refusals ? { profileRefusals: own.refusals } : {}),
      ...(own.data ? { profileData: own.data } : {}),
      ...(own.pcmHeaders ? { pcmHeaders: own.pcmHeaders } : {}),
    },
  );
}

export interface Judge {
  /** Judge one exchange (facts in order of `seq`), then record it in the session. */
  judge(facts: ExchangeFacts): Verdict[];
  readonly session: Session;
  readonly options: JudgeOptions;
}

/**
 * @example
 * const j = createJudge({ completeView: true });
 * for (const facts of exchanges) for (const v of j.judge(facts)) console.log(v.rule, v.seen);
 */
export function createJudge(options: Partial<JudgeOptions> = {}): Judge {
  const opts: JudgeOptions = { ...defaultJudgeOptions, ...options };
  const session = new Session(opts.keys);
  const kinds = new Set(opts.kinds);
  const judge = (facts: ExchangeFacts): Verdict[] => {
    const out: Verdict[] = [];
    // One verdict per rule per exchange: the problems one rule finds in one answer are joined.
    const add = (rule: Rule, seen: string, evidence?: Evidence, severity: Severity = rule.severity) => {
      const i = out.findIndex((v) => v.rule === rule.id);
      const found = out[i];
      if (found) out[i] = { ...found, seen: `${found.seen}; ${seen}` };
      else
        out.push({
          rule: rule.id,
          kind: rule.kind,
          severity,
          section: rule.section,
          operation: facts.operationId,
          exchange: facts.seq,
          seen,
          ...(evidence ? { evidence } : {}),
        });
    };
    if (kinds.has('exchange')) judgeExchange(facts, opts, add);
    // An answer the client asked to be forced (the kit mock's `Prefer: code=` / `fault=`) says nothing
    // of the deployment's judgement of the request, nor of its state.
    const forced = /\b(code|fault)=/i.test(header(facts.requestHeaders, 'prefer') ?? '');
    if (kinds.has('request') && !forced) judgeRequest(facts, add);
    if (kinds.has('session') && !forced) judgeSession(facts, session, opts, add);
    session.exchanges++;
    return out;
  };
  return { judge, session, options: opts };
}
