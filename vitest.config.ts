import { defineConfig } from 'vitest/config';

// Two projects: unit tests sit next to the code (x.test.ts); integration tests that cross a
// boundary (HTTP server, MSW, CLI, Prism, the conformance run) live in a test/ folder of their area.
// A few integration files that load both cores on their own run after the rest, one at a time, as
// the project integration-alone (`--project 'integration*'` selects both).
const alone = ['proxy/test/judge-budget.test.ts'];

const integration = {
  testTimeout: 60_000,
  hookTimeout: 60_000,
  // dist/ built once per run (when a source changed): tests spawn the built CLI (cli/test/run-cli.ts).
  globalSetup: ['cli/test/build-once.ts'],
  // No Web Storage in the test workers: msw 2 (the MSW-2 target) reads the global localStorage
  // when it loads, and from Node 25, where Web Storage is on by default, that getter prints an
  // ExperimentalWarning unless --localstorage-file names a file. Nothing here uses Web Storage,
  // and the flag is known (and harmless) on every Node of the matrix (22, 24, 26).
  execArgv: ['--no-experimental-webstorage'],
};

export default defineConfig({
  test: {
    // Two files at a time. Vitest's default is one fewer than the cores, which on a 2-core machine is
    // one file after another; the integration files mostly wait on sockets and child processes.
    maxWorkers: 2,
    projects: [
      {
        test: {
          name: 'unit',
          include: [
            '{openapi,judge,oracle,profile,common,audio,mocks,conformance,fixtures,cli,scripts,proxy,entries}/**/*.test.ts',
          ],
          exclude: ['**/test/**', 'node_modules/**', 'dist/**'],
          testTimeout: 20_000,
          // The unit files share each worker's module cache: a fresh module graph per file cost more
          // than the tests themselves (113 files: 152 s isolated, 94 s shared, on the same busy
          // machine). A unit test leaves no global behind; the integration files stay isolated.
          isolate: false,
        },
      },
      {
        test: {
          ...integration,
          name: 'integration',
          include: ['**/test/**/*.test.ts'],
          exclude: ['node_modules/**', 'dist/**', ...alone],
        },
      },
      {
        test: {
          ...integration,
          name: 'integration-alone',
          include: alone,
          maxWorkers: 1,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
