/**
 * The exit codes `voice-kit conformance` (and --explore, --replay) chooses beyond 0, 1, 2 and 130; the
 * spec is silent on them, docs/conformance.md's table says the same.
 */

/** The run finished but its reports could not be written (the proxy uses the same). */
export const reportsNotWritten = 3;
/** --replay: what the reproduction's verdict depends on does not hold here now (nothing was judged). */
export const preconditionNotMet = 4;
/** --replay: the deployment could not be reached or cut a connection (nothing was judged past it). */
export const networkError = 5;
