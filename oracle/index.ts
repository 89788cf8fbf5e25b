/** oracle/: the mock as the differential oracle of a deployment's traffic. What the rest of the kit imports. */
export { Coverage, type CoverageState, coverageStates, freeUsesState } from './coverage.js';
export type { OracleAnswer, OracleAudio, OracleExchange, OracleRequest } from './exchange.js';
export type { OracleKey } from './model.js';
export { createOracle, type Oracle, type OracleOptions } from './oracle.js';
export { allOracleRules, type OracleRule, oracleRules } from './rules.js';
