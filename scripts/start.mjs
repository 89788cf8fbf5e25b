#!/usr/bin/env node
// `npm start` and `npm run conformance`: rebuild dist/ if a source changed, then run the CLI in this same
// process. One Node boot instead of two: `npm start` answered ~130 ms later when the staleness check
// was a process of its own (Node's boot alone is 60–150 ms where a CA bundle is loaded at start).
import { ensureBuilt } from './ensure-built.mjs';

await ensureBuilt();
// The bin itself, in this process: it checks the Node version, then runs the command on process.argv.
await import('../dist/cli/bin.js');
