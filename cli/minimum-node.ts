/**
 * The oldest Node the kit runs on, as package.json's "engines" says (cli/minimum-node.test.ts keeps the
 * two equal). Imported first by the bin (bin.ts), so this file, like bin.ts, uses no newer syntax and no
 * import: it must load on any Node that runs ES modules at all.
 */
export const minimumNode = { major: 22, minor: 12 } as const;

/** Whether a `process.versions.node` is older than the kit needs. */
export function isTooOld(version: string): boolean {
  const parts = version.split('.');
  const major = Number(parts[0]);
  const minor = Number(parts[1]);
  return major < minimumNode.major || (major === minimumNode.major && minor < minimumNode.minor);
}

/** The line the bin prints on such a Node, with what to do next. */
export function tooOldMessage(version: string): string {
  const wanted = `${minimumNode.major}.${minimumNode.minor}`;
  return `voice-kit needs Node ${wanted} or newer; this is Node ${version}. Install Node ${wanted}+ (nodejs.org, or nvm install 24), or in a clone of voice-kit run npm start, which uses the Node 24 that npm install pinned.`;
}
