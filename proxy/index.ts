/**
 * The validating proxy (`voice-kit proxy`): `startProxy` and the shapes of its results. Exported from
 * `voice-kit/node`.
 */
export { type ProxyOptions, type ProxyServer, startProxy } from './start-proxy.js';
export { rules, type Rule, type Severity } from './rules.js';
export type { ExchangeRecord, ProxyReport, Violation } from './types.js';
export { violationLine, writeProxyReports } from './reports.js';
export { ProxySetupError, ReportWriteError } from './writable-dir.js';
