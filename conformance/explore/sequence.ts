/**
 * One sequence against the deployment, with a judge of its own: each step is budgeted, sent, judged
 * by the judge's exchange, request and session rules (and the explorer's, explore-rules.ts), compared
 * by the differential oracle (oracle/, when given one), and recorded. The first `must` verdict ends the sequence. What it saved is deleted at its end.
 */
import { createJudge, type Judge, type KeyScope, type Verdict } from '../../judge/index.js';
import type { Oracle } from '../../oracle/index.js';
import { errorText } from '../setup/preflight.js';
import { answerLimitOf, overLimitText } from '../toolkit/answer-limit.js';
import type { Exchange } from '../toolkit/http.js';
import type { KeyName } from '../toolkit/run-state.js';
import type { Budget } from './budget.js';
import { exploreRules, judgeSave, type SaveSeen } from './explore-rules.js';
import { factsOf } from './facts.js';
import { oracleExchange } from './oracle-link.js';
import { type Cost, costOf, type Step, withRun } from './step.js';
import { type Answers, buildRequest, keepAnswer, sendRequest, type Wire } from './wire.js';

/** What became of one step. */
export interface StepRecord {
  readonly step: Step;
  /** The exchange number the judge gave it (1-based), when sent. */
  readonly seq?: number;
  readonly status?: number;
  /** The `data` of a 200 envelope, for the model to learn from. */
  readonly data?: Readonly<Record<string, unknown>>;
  /**
   * Why it was not sent: the budget (or --max-time) refused it, a value it needs never came, or an
   * earlier request of the sequence got no answer (`no-answer`, then `failure` says why).
   */
  readonly skipped?: 'budget' | 'missing-value' | 'no-answer';
  /** The request got no (complete) answer: a timeout, Ctrl-C, a refused or reset connection. */
  readonly failure?: string;
  readonly verdicts: readonly Verdict[];
}

/** Where each key of a run belongs, as the judge's cross-key rules need it (the roles of the flags). */
export function keyScopes(wire: Pick<Wire, 'keys'>): Record<string, KeyScope> {
  const roles: Record<KeyName, KeyScope> = {
    main: { organization: 'org', project: 'project', environment: 'env' },
    noClone: { organization: 'org', project: 'project', environment: 'env' },
    otherProject: { organization: 'org', project: 'other-project', environment: 'env' },
    otherEnv: { organization: 'org', project: 'project', environment: 'other-env' },
    otherOrg: { organization: 'other-org', project: 'other-org-project', environment: 'env' },
  };
  const out: Record<string, KeyScope> = {};
  for (const [name, key] of Object.entries(wire.keys)) if (key) out[key] = roles[name as KeyName];
  return out;
}

/** An answer past its limit (toolkit/answer-limit.ts) is a finding, and is not judged further. */
function overLimit(step: Step, seq: number, ex: Exchange): Verdict[] {
  if (ex.overLimit === undefined) return [];
  const rule = exploreRules.answerSize;
  return [
    {
      rule: rule.id,
      kind: 'exchange',
      severity: 'must',
      section: rule.section,
      operation: step.op,
      exchange: seq,
      seen: overLimitText(step.op, ex.overLimit),
    },
  ];
}

export class Sequence {
  readonly records: StepRecord[] = [];
  readonly judge: Judge;
  private readonly answers: Answers = new Map();
  private readonly saves: SaveSeen[] = [];
  /** Voices a save answered 200 for, with the key that saved them: deleted at the end. */
  readonly created: { key: KeyName; voiceId: string }[] = [];
  private seq = 0;
  /** Why a request of the sequence got no answer; nothing is sent after it. */
  failure: string | undefined;

  constructor(
    readonly wire: Wire,
    private readonly budget: Budget,
    /** The longest text the exploration saw accepted (shared by its sequences; a replay gets it from the file). */
    readonly accepted: { textLength: number } = { textLength: 0 },
    /** The refusal probes the exploration tried (commands/probe.ts), shared by its sequences. */
    readonly tried: Set<number> = new Set(),
    /** The differential oracle every step's exchange is compared by (reset for this sequence). */
    readonly oracle?: Oracle,
    /** Walks steering made (`voices/page size`), shared by the exploration's sequences (commands/steer.ts). */
    readonly walked: Set<string> = new Set(),
  ) {
    this.judge = createJudge({
      keys: keyScopes(wire),
      completeView: true,
      ownVoice: (id) => id.startsWith(wire.prefix),
    });
  }

  /** The must verdicts so far. */
  get violations(): Verdict[] {
    return this.records.flatMap((r) => r.verdicts.filter((v) => v.severity === 'must'));
  }

  /** Budget, send, judge and record one step; returns its record. */
  async run(step: Step): Promise<StepRecord> {
    const index = this.records.length;
    const built = await buildRequest(this.wire, step, this.answers);
    if (!built) return this.push({ step, skipped: 'missing-value', verdicts: [] });
    const cost: Cost = costOf(step);
    if (!this.budget.take(cost)) return this.push({ step, skipped: 'budget', verdicts: [] });
    if (this.failure !== undefined) return this.push({ step, skipped: 'no-answer', verdicts: [] });
    const sent = await sendRequest(this.wire, built.request, answerLimitOf(step.op, built.sent.json)).then(
      (ex) => ({ ex }),
      (e: unknown) => ({ failure: errorText(e) }),
    );
    // No answer ends the sequence: what came before is judged, nothing after it is sent.
    if ('failure' in sent) {
      this.failure = sent.failure;
      return this.push({ step, skipped: 'no-answer', failure: sent.failure, verdicts: [] });
    }
    const { ex } = sent;
    keepAnswer(this.answers, index, ex);
    const seq = ++this.seq;
    const facts = factsOf(seq, built.sent, ex);
    const judged = this.judge.judge(facts).map((v) => this.surer(step, v));
    const compared = this.oracle
      ? await this.oracle.observe(await oracleExchange(step, built.sent, facts, ex.json))
      : [];
    const verdicts = [
      ...judged,
      ...this.saveVerdicts(step, seq, ex),
      ...overLimit(step, seq, ex),
      ...compared,
    ];
    const text = step.json?.generate_text;
    if (ex.status === 200 && typeof text === 'string' && step.op !== 'saveVoice')
      this.accepted.textLength = Math.max(this.accepted.textLength, text.length);
    if (step.op === 'saveVoice' && ex.status === 200 && typeof step.json?.voice_id === 'string')
      this.created.push({
        key: step.key,
        voiceId: withRun(step.json.voice_id, this.wire.prefix).trim().toLowerCase(),
      });
    const json = ex.json as { data?: unknown } | undefined;
    const data =
      ex.status === 200 && typeof json?.data === 'object' && json.data
        ? (json.data as Record<string, unknown>)
        : undefined;
    return this.push({ step, seq, status: ex.status, verdicts, ...(data ? { data } : {}) });
  }

  /**
   * The judge lowers `saved-selectable` to should when no text as long was accepted in its session (an
   * unstated length limit may be why). The explorer sends no options and knows every text it saw
   * accepted in the whole exploration: a refusal of one no longer is a must.
   */
  private surer(step: Step, v: Verdict): Verdict {
    const text = step.json?.generate_text;
    if (v.rule !== 'session.saved-selectable' || v.severity === 'must' || typeof text !== 'string') return v;
    return text.length <= this.accepted.textLength ? { ...v, severity: 'must' } : v;
  }

  private push(record: StepRecord): StepRecord {
    this.records.push(record);
    return record;
  }

  private saveVerdicts(step: Step, seq: number, ex: { status: number; json: unknown }): Verdict[] {
    if (step.op !== 'saveVoice' || typeof step.refAudio !== 'object') return [];
    const from = this.records[step.refAudio.from]?.step;
    const upload = from?.upload;
    if (!upload || upload.empty) return [];
    const code = (ex.json as { error_code?: unknown } | undefined)?.error_code;
    const save: SaveSeen = {
      seq,
      role: upload.role,
      key: step.key,
      ownUpload: from?.key === step.key,
      status: ex.status,
      code: typeof code === 'number' ? code : undefined,
    };
    const verdicts = judgeSave(save, this.saves);
    this.saves.push(save);
    return verdicts;
  }
}
