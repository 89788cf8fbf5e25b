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

/** The one line the bin prints on such a Node. */
export function tooOldMessage(version: string): string {
  return `voice-kit needs Node ${minimumNode.major}.${minimumNode.minor} or newer; this is Node ${version}.`;
}
