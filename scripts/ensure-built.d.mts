/** Rebuilds dist/ (and its dashboard) when a source is newer than the last build. */
export function ensureBuilt(): Promise<void>;
/** The line said before a build of `what`; `builtMs` 0: never built (the first build). */
export function buildLine(what: string, builtMs: number): string;
