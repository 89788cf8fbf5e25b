#!/usr/bin/env node
// `npm run mock:prism [-- --port N]`: Prism's mock of openapi/voice-service.yaml on 127.0.0.1, port 4011
// unless --port names one. A script of its own because npm appends its arguments: a second --port after
// the script's own made Prism refuse both ("Received [ 4011, 4012 ]").
import { spawn } from 'node:child_process';
import { join } from 'node:path';

const args = process.argv.slice(2);
const at = args.findIndex((a) => a === '--port' || a.startsWith('--port='));
const port = at < 0 ? '4011' : args[at].includes('=') ? args[at].split('=')[1] : args[at + 1];
if (!/^\d{1,5}$/.test(port ?? '')) {
  process.stderr.write(`error: --port needs a port number, got ${JSON.stringify(port ?? '')}\n`);
  process.exit(2);
}
const rest = at < 0 ? args : args.filter((_, i) => i !== at && (args[at].includes('=') || i !== at + 1));
const prism = join(import.meta.dirname, '..', 'node_modules', '.bin', 'prism');
const spec = join(import.meta.dirname, '..', 'openapi', 'voice-service.yaml');
const child = spawn(prism, ['mock', '--host', '127.0.0.1', '--port', port, ...rest, spec], {
  stdio: 'inherit',
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));

// npm passes a SIGTERM it gets to the `sh -c` of the script only: the shell dies and this process would
// run on, orphaned, with Prism serving. A change of parent is read as the SIGTERM it stands for (as
// scripts/start.mjs does for `npm start`).
if (process.env.npm_lifecycle_event !== undefined) {
  const parent = process.ppid;
  const watch = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(watch);
    child.kill('SIGTERM');
  }, 200);
  watch.unref();
}
