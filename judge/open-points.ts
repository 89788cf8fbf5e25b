/**
 * What the spec leaves open, and so what the judge tolerates instead of judging it against the kit's
 * own choice. Derived from the `x-open-question`s of the YAML (openapi/generated/open-questions.ts) and
 * the error catalogue that answers them (openapi/contract.ts), never listed here by hand: a new open
 * question on an operation's error answers opens that operation's refusal statuses by itself.
 */
import { errors, type OperationId, operationIds } from '../openapi/contract.js';
import { operations } from '../openapi/document-index.js';
import { openQuestions } from '../openapi/generated/open-questions.js';

/** An open question about how a refusal is answered: its status, its code, or errors in general. */
const aboutRefusals = (question: string) => /\b(status|statuses|errors?|answer to)\b/i.test(question);

const refusalQuestions = new Set(openQuestions.filter((q) => aboutRefusals(q.question)).map((q) => q.id));

/** `/paths/~1v1~1voice~1save/post`: where an operation lives in the document. */
function pointerOf(op: OperationId): string | undefined {
  return operations().get(op)?.pointer;
}

/** Open questions located on the operation itself (its node, its responses). */
function questionsOn(op: OperationId): string[] {
  const at = pointerOf(op);
  if (!at) return [];
  const on = (p: string) => p === at || p.startsWith(`${at}/`);
  return openQuestions.filter((q) => on(q.where) || q.refs.some(on)).map((q) => q.id);
}

/** Open questions the catalogue's entries for this one operation (not every operation) answer. */
function catalogueQuestions(op: OperationId): string[] {
  return Object.values(errors)
    .filter((e) => e.source === 'kit' && e.operations.length < operationIds.length)
    .filter((e) => (e.operations as readonly OperationId[]).includes(op))
    .map((e): string | undefined => ('openQuestion' in e ? e.openQuestion : undefined))
    .filter((id): id is string => id !== undefined);
}

/**
 * The open questions that leave the status of this operation's refusals open, by id (empty when the
 * spec states them, as §7.1 does for upload).
 *
 * @example refusalStatusQuestions('saveVoice') // ['voice-save-statuses', 'voice-id-invalid-characters', …]
 */
export function refusalStatusQuestions(op: OperationId): readonly string[] {
  const ids = new Set(
    [...questionsOn(op), ...catalogueQuestions(op)].filter((id) => refusalQuestions.has(id)),
  );
  return [...ids];
}

const cache = new Map<OperationId, boolean>();

/** Whether any 4xx with the §2.1 envelope is a refusal the spec allows for this operation. */
export function refusalStatusOpen(op: OperationId): boolean {
  let open = cache.get(op);
  if (open === undefined) {
    open = refusalStatusQuestions(op).length > 0;
    cache.set(op, open);
  }
  return open;
}

/**
 * General errors §7.3 leaves unshown outside upload (rate limit, gateway and timeout faults): answered by
 * an operation whose refusal statuses are open, they are noted, not violations.
 */
export const generalErrorStatuses: ReadonlySet<number> = new Set([429, 502, 503, 504]);
