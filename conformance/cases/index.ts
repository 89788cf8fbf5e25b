/**
 * cases/: the conformance cases as typed records, one file per area of the spec; allCases (here) is
 * the list a run takes by default. support.ts holds the texts and tiny recordings they share.
 * May import toolkit/, types.ts, judge/ and openapi/; never run/, setup/, reporters/ or cli/.
 */
import type { ConformanceCase } from '../toolkit/context.js';
import { authCases } from './auth.js';
import { deleteCases } from './delete.js';
import { envelopeCases } from './envelope.js';
import { generalOpenCases } from './general-open.js';
import { listCases } from './list.js';
import { mockPromiseCases } from './mock-promises.js';
import { streamCases } from './stream.js';
import { synthesisCases } from './synthesis.js';
import { synthesisOpenCases } from './synthesis-open.js';
import { uploadCases } from './upload.js';
import { uploadLimitCases } from './upload-limits.js';
import { voiceReferenceCases } from './voice-reference.js';
import { voiceSaveCases } from './voice-save.js';

/**
 * Every conformance case, in run order (cases marked `runLast` are moved to the end by the runner).
 *
 * @example
 * allCases.filter((c) => c.severity === 'observe').map((c) => c.openQuestion);
 */
export const allCases: readonly ConformanceCase[] = [
  ...envelopeCases,
  ...authCases,
  ...uploadCases,
  ...uploadLimitCases,
  ...voiceSaveCases,
  ...voiceReferenceCases,
  ...listCases,
  ...deleteCases,
  ...synthesisCases,
  ...streamCases,
  ...synthesisOpenCases,
  ...generalOpenCases,
  ...mockPromiseCases,
];
