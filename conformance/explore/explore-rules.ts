/**
 * Three rules the explorer adds to the judge's. Two because only it knows what a recording is: the
 * kit's fixtures that §4.2 says cannot make a voice (digital silence, 2.9 s, a corrupt WAV) must not
 * make one, and a fixture a deployment accepted for a voice must not be refused later for its content
 * when the same key uploads it again (an upload followed at once by a save is such a later use). One
 * because only it knows what it asked for: an answer past the bytes its request could make
 * (toolkit/answer-limit.ts) is not read further, and is a finding (sequence.ts gives the verdict).
 */
import type { Verdict } from '../../judge/index.js';
import type { FixtureRole } from '../toolkit/run-state.js';

export const exploreRules = {
  referenceRefused: {
    id: 'explore.reference-refused',
    section: '§4.2',
    title: 'a reference of digital silence, shorter than 3 s, or corrupt does not create a voice',
  },
  referenceConsistent: {
    id: 'explore.reference-consistent',
    section: '§4.2',
    title:
      'a recording accepted for a voice is not refused for its content when the same key saves from it again',
  },
  answerSize: {
    id: 'explore.answer-size',
    section: '§2.5',
    title:
      'an answer is no larger than the request could make (audio of its text, a JSON answer of the contract)',
  },
} as const;

/** Fixtures §4.2 refuses whatever the deployment's analyser: no speech at all, too short, unreadable. */
const mustRefuse: ReadonlySet<FixtureRole> = new Set(['silence', 'short-2.9s', 'corrupt']);
/** §7.2 codes that name the reference audio itself. */
const contentCodes = new Set([20010, 20012, 20015, 20016, 20017]);

/** What one save of the sequence was: from which fixture, by which key, and the answer. */
export interface SaveSeen {
  readonly seq: number;
  readonly role: FixtureRole;
  readonly key: string;
  /** The key that saves is the key that uploaded the recording. */
  readonly ownUpload: boolean;
  readonly status: number;
  readonly code: number | undefined;
}

const verdict = (
  rule: (typeof exploreRules)[keyof typeof exploreRules],
  seq: number,
  seen: string,
  at?: number,
): Verdict => ({
  rule: rule.id,
  kind: 'session',
  severity: 'must',
  section: rule.section,
  operation: 'saveVoice',
  exchange: seq,
  seen,
  ...(at !== undefined ? { evidence: { exchange: at, what: 'accepted the same recording' } } : {}),
});

/**
 * Judge a save against the saves before it in the sequence.
 *
 * @example judgeSave({ seq: 4, role: 'silence', key: 'main', ownUpload: true, status: 200, code: 0 }, earlier) // [explore.reference-refused]
 */
export function judgeSave(save: SaveSeen, earlier: readonly SaveSeen[]): Verdict[] {
  if (save.status === 200 && mustRefuse.has(save.role))
    return [
      verdict(
        exploreRules.referenceRefused,
        save.seq,
        `the kit's ${save.role} fixture made a voice (HTTP 200)`,
      ),
    ];
  if (!save.ownUpload || save.status < 400 || save.status >= 500) return [];
  if (save.code === undefined || !contentCodes.has(save.code)) return [];
  const accepted = earlier.find(
    (e) => e.ownUpload && e.status === 200 && e.role === save.role && e.key === save.key,
  );
  if (!accepted) return [];
  return [
    verdict(
      exploreRules.referenceConsistent,
      save.seq,
      `the kit's ${save.role} fixture was refused with HTTP ${save.status} / ${save.code} at exchange ${save.seq}; the same key made a voice from it at exchange ${accepted.seq}`,
      accepted.seq,
    ),
  ];
}
