/**
 * The oracle's rules as data: each names what differed between the deployment and the model of the
 * contract (the mock core), and the section of the spec the difference touches.
 */
import type { Severity } from '../judge/index.js';

export interface OracleRule {
  readonly id: string;
  readonly severity: Severity;
  readonly section: string;
  readonly title: string;
}

const rule = (id: string, section: string, title: string, severity: Severity = 'must'): OracleRule => ({
  id: `oracle.${id}`,
  severity,
  section,
  title,
});

export const oracleRules = {
  serverError: rule('server-error', '§2.1, §7', 'a request the contract answers is not answered with a 5xx'),
  accepted: rule('accepted', '§4, §7', 'what the contract refuses is refused, not accepted'),
  refused: rule('refused', '§4', 'what the contract accepts is accepted, not refused'),
  errorCode: rule('error-code', '§7.1, §7.2', 'a refusal carries the error_code the spec states for it'),
  succeed: rule('succeed', '§2.1', '`succeed` says what the status says'),
  statusOfCode: rule(
    'status-of-code',
    '§7.1, §4.2',
    'a refusal has the status the spec states for its error_code',
  ),
  objectKeyReused: rule('object-key-reused', '§2.2, §4.1', 'each upload identifies its own stored file'),
  listedUnknown: rule(
    'listed-unknown',
    '§3, §4.3',
    'a list shows only voices that were saved and not deleted',
  ),
  walkMissing: rule(
    'walk-missing',
    '§3, §4.3',
    'a complete walk of the list shows every voice saved and not deleted',
  ),
  walkRepeats: rule('walk-repeats', '§4.3', 'a complete walk of an unchanged list shows each voice once'),
  page: rule('page', '§4.3', '`total` and `has_more` of a page fit the voices there are and the page size'),
  freeUses: rule(
    'free-uses',
    '§4.2 rule 3, §4.3',
    '`remainingFreeCloneCount` counts the free uses the creations left',
  ),
  createdAt: rule('created-at', '§2.3, §4.3', '`created_at` is the time of the save (within a tolerance)'),
  format: rule('format', '§2.4, §2.5', 'audio comes in the format asked for'),
  duration: rule('duration', '§2.5', 'the audio is of a plausible length for the text', 'should'),
} as const;

export const allOracleRules: readonly OracleRule[] = Object.values(oracleRules);
