/**
 * voice-kit/conformance: run the conformance suite against any base URL, or against the kit's own
 * mock, and get the results as values.
 *
 * @example
 * import { runConformance } from 'voice-kit/conformance';
 * const result = await runConformance({ baseUrl: 'https://staging.example.com', apiKey: process.env.KEY, only: ['upload.*'] });
 * if (!result.ok) console.log(result.results.filter((r) => r.outcome === 'fail'));
 *
 * Layout (each folder's rules head its main file; conformance/test/layout.test.ts enforces them):
 * types.ts the shared vocabulary; run/ one run, start to finish; setup/ what a run needs before its
 * first case; toolkit/ what cases use (each response judged by ../judge/); cases/ the cases;
 * reporters/ results as text and files; test/ tests that cross a boundary. The CLI is in ../cli/.
 */
export { allCases } from './cases/index.js';
export { type ProfiledRunResult, runConformance } from './run/run-conformance.js';
export type { RunOptions } from './setup/run-options.js';
export { ConformanceSetupError } from './setup/setup-error.js';
export type { ConformanceCase } from './toolkit/context.js';
export type {
  CaseResult,
  Finding,
  Observation,
  Outcome,
  ProgressEvent,
  RunResult,
} from './types.js';
