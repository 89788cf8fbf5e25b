/**
 * The library leaves the process it runs in as it found it: importing every public entry and driving
 * 80 MiB of refused bodies through the mock's server and the proxy (40 MiB each: bytes that only pass
 * through, where a library might be tempted to force collections) sets no V8 flag, exposes no `gc`
 * and changes no `process.execArgv`. Run in a child process started without `--expose-gc`, so a `gc`
 * seen there can only have come from the library.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** package.json's `exports` that are code, mapped from their dist file to the source tsc builds it from. */
const entries: Record<string, string> = (() => {
  const { exports } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
  const code: Record<string, string> = {};
  for (const [name, target] of Object.entries(exports as Record<string, unknown>)) {
    if (typeof target !== 'object' || target === null) continue;
    const built = (target as { default: string }).default;
    code[name] = built.replace(/^\.\/dist\//, './').replace(/\.js$/, '.ts');
  }
  return code;
})();

const script = (files: Record<string, string>) => `
  import v8 from 'node:v8';
  import { syncBuiltinESMExports } from 'node:module';
  import { runInNewContext } from 'node:vm';
  import { pathToFileURL } from 'node:url';
  // Every flag set at run time is seen, whichever way the library imports setFlagsFromString.
  const flags = [];
  const setFlags = v8.setFlagsFromString;
  v8.setFlagsFromString = (value) => {
    flags.push(String(value));
    return setFlags(value);
  };
  syncBuiltinESMExports();
  const execArgv = JSON.stringify(process.execArgv);
  const loaded = {};
  for (const [name, file] of Object.entries(${JSON.stringify(files)}))
    loaded[name] = await import(pathToFileURL(file).href);
  const { startMockServer, startProxy } = loaded['./node'];
  const mock = await startMockServer({ port: 0 });
  const proxy = await startProxy({ upstream: mock.url, port: 0 });
  // 8 MiB a request, no API key: each is refused (401) and its body thrown away as it arrives.
  const block = new Uint8Array(8 * 1024 * 1024);
  const statuses = [];
  for (const base of [mock.url, proxy.url])
    for (let i = 0; i < 5; i++) {
      const res = await fetch(base + '/v1/files/upload', {
        method: 'POST',
        headers: { 'Content-Type': 'application/octet-stream' },
        body: block,
      });
      await res.arrayBuffer();
      statuses.push(res.status);
    }
  await proxy.close();
  await mock.close();
  process.stdout.write(JSON.stringify({
    entries: Object.keys(loaded),
    statuses,
    flags,
    execArgvUnchanged: JSON.stringify(process.execArgv) === execArgv,
    gcGlobal: typeof globalThis.gc,
    gcInNewContext: runInNewContext('typeof gc'),
  }));
`;

describe('no runtime tuning from the library', () => {
  it('every public entry, 80 MiB of refused bodies through the mock and the proxy: no flag, no gc', {
    timeout: 180_000,
  }, async () => {
    const out = await new Promise<{
      entries: string[];
      statuses: number[];
      flags: string[];
      execArgvUnchanged: boolean;
      gcGlobal: string;
      gcInNewContext: string;
    }>((resolve, reject) =>
      execFile(
        process.execPath,
        ['--import', 'tsx', '--input-type=module', '-e', script(entries)],
        { cwd: root, maxBuffer: 1024 * 1024 },
        (error, stdout, stderr) =>
          error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(JSON.parse(stdout)),
      ),
    );
    expect(out.entries.sort()).toEqual(
      ['.', './msw', './node', './conformance', './fixtures', './contract', './types'].sort(),
    );
    expect(out.statuses).toEqual(Array(10).fill(401));
    expect(out.flags).toEqual([]);
    expect(out.execArgvUnchanged).toBe(true);
    expect(out.gcGlobal).toBe('undefined');
    expect(out.gcInNewContext).toBe('undefined');
  });
});
