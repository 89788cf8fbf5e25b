import { errors, type OperationId } from '../../openapi/contract.js';

/** §7.1 states status and code together for upload: each stated code has exactly one status. */
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
