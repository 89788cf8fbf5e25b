/**
 * explore/: `conformance --explore`, model-based and budgeted exploration of a deployment (fast-check
 * command sequences judged by the one judge, judge/), and `--replay` of what it found.
 * step.ts a request as data; budget.ts the one budget; wire.ts sending a step; facts.ts the judge's
 * facts of it; sequence.ts one judged sequence; explore-rules.ts the explorer's own rules; model.ts and
 * commands/ what fast-check generates; explore.ts the tiers and shrinking; cleanup.ts; reproduction.ts
 * the JSON and curl script; replay.ts; reports.ts; setup.ts and options.ts.
 * May import judge/, openapi/, conformance/setup/, conformance/toolkit/, conformance/types.ts,
 * common/xml-escape.ts, common/report-file.ts and common/one-line.ts; never cli/ or run/.
 */
export { exploreDeployment } from './explore.js';
export type { ExploreOptions, ExploreResult } from './options.js';
export { type ReplayOutcome, type ReplayResult, replayReproduction } from './replay.js';
export {
  exploreReportFiles,
  exploreSummary,
  replayVerdictLine,
  writeExploreReports,
  writeReplayReports,
} from './reports.js';
