/**
 * The validating proxy (`voice-kit proxy`): `startProxy` and the shapes of its results. Exported from
 * `voice-kit/node`.
 */

export { type Rule, rules, type Severity } from '../judge/rules.js';
export { upstreamFailure, violationLine, writeProxyReports } from './reports.js';
export { type ProxyClosed, type ProxyOptions, type ProxyServer, startProxy } from './start-proxy.js';
export type { ExchangeRecord, ProxyReport, Violation } from './types.js';
export { ProxySetupError, ReportWriteError } from './writable-dir.js';
