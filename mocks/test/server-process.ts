/**
 * The Node mock server as a process of its own, for tests that measure its memory: prints its URL on
 * a line, then serves until it is killed. `node --import tsx mocks/test/server-process.ts`
 */
import { startMockServer } from '../node/server.js';

const server = await startMockServer({ port: 0, serviceOptions: { logger: { error: () => {} } } });
process.stdout.write(`${server.url}\n`);
