#!/usr/bin/env node
// `npm start`, `npm run conformance` and `npm run proxy`: rebuild dist/ if a source changed, then run the
// CLI in this same process. One Node boot instead of two: `npm start` answered ~130 ms later when the
// staleness check was a process of its own (Node's boot alone is 60–150 ms where a CA bundle is loaded).
import { ensureBuilt } from './ensure-built.mjs';

// npm runs a script in a shell (`sh -c`) and passes a SIGTERM it gets to that shell only; the shell dies
// and this process would run on, orphaned, still holding the port (npm 11, dash). So a change of parent
// is read as the SIGTERM it stands for: the command then stops as it does on one (the mock closes).
if (process.env.npm_lifecycle_event !== undefined) {
  const parent = process.ppid;
  const watch = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(watch);
    process.kill(process.pid, 'SIGTERM');
  }, 200);
  watch.unref();
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
// The bin itself, in this process: it checks the Node version, then runs the command on process.argv.
await import('../dist/cli/bin.js');
