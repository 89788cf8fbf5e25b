/**
 * The (status, error_code) pairs the spec states: §7.1 for upload (each stated code has exactly one
 * status), §4.2 rule 1 for a too-long voice ID, §5.5 for a missing or invalid key. Everything else the
 * spec leaves open (open-points.ts) and is not judged against the kit's own choice.
 */
import { errors, type OperationId } from '../openapi/contract.js';

const uploadPairs = Object.values(errors).filter(
  (e) => e.source === 'spec' && (e.operations as readonly OperationId[]).includes('uploadFile'),
);

/**
 * Problems with a stated (status, error_code) pairing of §7.1: a stated code under another status, or
 * a stated status carrying a code the spec does not pair with it.
 *
 * @example
 * pairingProblems('uploadFile', 400, 20010) // ['error_code 20010 comes with HTTP 400; §7.1 pairs it with 413']
 */
export function pairingProblems(op: OperationId, status: number, code: unknown): string[] {
  if (op !== 'uploadFile' || typeof code !== 'number' || status < 300) return [];
  const byCode = uploadPairs.find((e) => e.code === code);
  if (byCode && byCode.status !== status) {
    return [`error_code ${code} comes with HTTP ${status}; §7.1 pairs it with ${byCode.status}`];
  }
  const byStatus = uploadPairs.filter((e) => e.status === status);
  if (byStatus.length > 0 && !byStatus.some((e) => e.code === code)) {
    return [
      `HTTP ${status} carries error_code ${code}; §7.1 pairs it with ${byStatus.map((e) => e.code).join(' or ')}`,
    ];
  }
  return [];
}

/**
 * The pairs stated outside §7.1: §4.2 rule 1 (10001 ↔ 400 at save, for a voice ID too long; `tooLong`
 * is undefined when the request is unknown) and §5.5 (401 ↔ 10003).
 */
export function statedPairProblems(
  op: OperationId,
  status: number,
  code: unknown,
  opts: { readonly uploadPairsFound: boolean; readonly tooLong: boolean | undefined },
): string[] {
  if (typeof code !== 'number') return [];
  // 10001 for another reason (an invalid character, `voice-id-invalid-characters`) has an open status.
  const tooLong = opts.tooLong ?? true;
  if (
    op === 'saveVoice' &&
    tooLong &&
    code === errors.voiceIdTooLong.code &&
    status !== errors.voiceIdTooLong.status
  )
    return [
      `error_code ${code} comes with HTTP ${status}; §4.2 rule 1 pairs it with ${errors.voiceIdTooLong.status}`,
    ];
  if (!opts.uploadPairsFound && status === errors.missingApiKey.status && code !== errors.missingApiKey.code)
    return [`HTTP 401 carries error_code ${code}; §5.5 pairs it with ${errors.missingApiKey.code}`];
  return [];
}
