#!/usr/bin/env node
// `npm start`, `npm run conformance` and `npm run proxy`: rebuild dist/ if a source changed, then run the
// CLI in this same process. One Node boot instead of two: `npm start` answered ~130 ms later when the
// staleness check was a process of its own (Node's boot alone is 60–150 ms where a CA bundle is loaded).
import { readFileSync } from 'node:fs';
import { ensureBuilt } from './ensure-built.mjs';

// npm runs a script in a shell (`sh -c`) and passes a SIGTERM it gets to that shell only; the shell dies
// and this process would run on, orphaned, still holding the port (npm 11, dash). So a change of parent
// is read as the SIGTERM it stands for: the command then stops as it does on one (the mock closes).
// npm killed with SIGKILL (a replica killed and started again on its port, docs/replicas.md) leaves
// the shell alive, waiting for this process: so npm itself, the shell's parent, is watched too.
if (process.env.npm_lifecycle_event !== undefined) {
  const parent = process.ppid;
  const runner = scriptRunner(parent);
  const watch = setInterval(() => {
    if (process.ppid === parent && (runner === undefined || alive(runner))) return;
    clearInterval(watch);
    process.kill(process.pid, 'SIGTERM');
  }, 200);
  watch.unref();
}

/** The pid of npm when `parent` is the shell it runs the script in; undefined elsewhere (no /proc). */
function scriptRunner(parent) {
  try {
    const name = readFileSync(`/proc/${parent}/comm`, 'utf8').trim();
    if (!['sh', 'dash', 'bash', 'zsh', 'ash', 'busybox'].includes(name)) return undefined;
    // "pid (name) state ppid …": the name may hold spaces and parentheses, so read after its last ')'.
    const stat = readFileSync(`/proc/${parent}/stat`, 'utf8');
    const runner = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    return Number.isInteger(runner) && runner > 1 ? runner : undefined;
  } catch {
    return undefined;
  }
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

// npm runs a script in the package's folder; a relative path the user typed (`--profile ../p.json`,
// `--report-dir out`) means the folder they ran npm in, which npm hands over as INIT_CWD.
const userFolder = process.env.INIT_CWD;
if (userFolder && userFolder !== process.cwd()) {
  try {
    process.chdir(userFolder);
  } catch {
    // gone since: paths stay relative to the package's folder, which errors then name
  }
}

await ensureBuilt();
// The bin itself (the CLI's bundle, package.json "bin"), in this process: it checks the Node version, then runs the command on process.argv.
await import('../dist/bin/voice-kit.js');
