import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

/** The repository root, whatever the working directory of the bench. */
export const root = fileURLToPath(new URL('../../', import.meta.url));

/**
 * The Node options `npm start` runs the mock with (package.json "start", between `node` and the
 * script): the bench's mocks run with them too, so it measures what `npm start` runs.
 */
const startNodeOptions: readonly string[] = (() => {
  const { scripts } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
  const words = String(scripts.start).split(/\s+/);
  return words.slice(1, words.indexOf('scripts/start.mjs')).filter((word) => word.startsWith('--'));
})();

/**
 * The built CLI the package ships (package.json "bin": the bundle in dist/bin/), relative to the
 * repository root, the working directory of every spawn.
 */
export const cliBin: string = (() => {
  const { bin } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
  return String(bin['voice-kit']).replace(/^\.\//, '');
})();

/** The arguments of `node` for the built mock (`voice-kit mock ARGS`) as `npm start` runs it. */
export function mockArgs(...args: string[]): string[] {
  return [...startNodeOptions, cliBin, 'mock', ...args];
}

/** A server process the bench started, with what it cost to start. */
export interface Spawned {
  readonly name: string;
  readonly url: string;
  readonly child: ChildProcess;
  /** Milliseconds from spawn until the first successful answer. */
  readonly startupMs: number;
  stop(): Promise<void>;
}

/** Asks the kernel for a free loopback port. */
export async function freePort(): Promise<number> {
  return await new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject()));
    });
  });
}

/**
 * Spawns a server and polls `probe` until it answers with any HTTP status, so that startup time is
 * "spawn until it answers", the same measure for every server.
 */
export async function spawnServer(
  name: string,
  command: string,
  args: readonly string[],
  url: string,
  probe: { path: string; headers?: Record<string, string> },
  timeoutMs = 30_000,
): Promise<Spawned> {
  const started = performance.now();
  const child = spawn(command, args, { cwd: root, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  const deadline = started + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${name} exited with ${child.exitCode}: ${stderr}`);
    try {
      const response = await fetch(url + probe.path, { headers: probe.headers });
      await response.arrayBuffer();
      break;
    } catch {
      if (performance.now() > deadline) {
        child.kill('SIGKILL');
        throw new Error(`${name} did not answer within ${timeoutMs} ms: ${stderr}`);
      }
      await sleep(2);
    }
  }
  const startupMs = performance.now() - started;
  return {
    name,
    url,
    child,
    startupMs,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Resident set size and its high-water mark of a process, in bytes (Linux /proc). */
export function memoryOf(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { rss: kib('VmRSS') * 1024, peak: kib('VmHWM') * 1024 };
}

/**
 * CPU milliseconds (user + system) a process has used so far (Linux /proc; undefined elsewhere). Per
 * request, it says what a server's work costs whatever share of the machine it got: on a shared
 * machine its throughput says how much of the CPU it was given too.
 */
export function cpuMsOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // After the command name (in parentheses, which may hold spaces): utime and stime are fields 14, 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // USER_HZ, the unit of /proc's clock ticks, is 100 on Linux whatever the kernel's own rate.
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return undefined;
  }
}

/** Resets the kernel's high-water mark so the next peak is measured from now (Linux >= 4.0). */
export function resetPeak(pid: number): void {
  try {
    // Writing 5 to clear_refs resets VmHWM to the current RSS.
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
  } catch {
    // Not permitted here: peak then counts from process start, which only overstates growth.
  }
}
