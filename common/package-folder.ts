/**
 * The folder of the voice-kit package a module of it runs from, for the files the package ships beside
 * dist/ (fixtures/files/) or builds into it (dist/dashboard/). Built code runs from somewhere under
 * dist/: tsc's output keeps the source's folders (dist/fixtures/committed.js), the CLI's bundle is one
 * flat folder of chunks (dist/bin/); so the package is the folder that holds the last `dist/` of the
 * module's URL. A source module (.ts, run by tsx or vitest) lies `sourceDepth` folders below it.
 * Platform-free: URL arithmetic only.
 *
 * @example
 * packageFolder('file:///app/node_modules/voice-kit/dist/bin/chunk-X.js', 1).href;
 * // 'file:///app/node_modules/voice-kit/'
 * packageFolder('file:///src/voice-kit/mocks/node/dashboard.ts', 2).href; // 'file:///src/voice-kit/'
 */
export function packageFolder(moduleUrl: string, sourceDepth: number): URL {
  const path = new URL(moduleUrl).pathname;
  const dist = path.lastIndexOf('/dist/');
  if (!path.endsWith('.ts') && dist >= 0) return new URL(path.slice(0, dist + 1), moduleUrl);
  return new URL(`${'../'.repeat(sourceDepth)}`, new URL('./', moduleUrl));
}
