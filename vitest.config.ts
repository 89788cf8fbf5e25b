import { defineConfig } from 'vitest/config';

// Unit tests sit next to the code (x.test.ts); integration tests that cross a boundary (HTTP server,
// MSW, CLI, Prism, the conformance run) live in a test/ folder of their area. A few integration files
// that load both cores on their own run after the rest, one at a time, as the project
// integration-alone; a few others keep a module graph of their own (integration-isolated).
// `--project 'integration*'` selects the three.
const alone = ['proxy/test/judge-budget.test.ts'];
// The integration files share each worker's module cache too (a fresh module graph per file cost a
// quarter of the suite's time), which holds because no module of the kit keeps process-wide state.
// These files do need their own: the deviation kits they load remember what they saw in module and
// closure state, which a second file in the same worker would start with.
const isolated = ['conformance/test/deviations.test.ts', 'oracle/test/oracle-deviations.test.ts'];

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
          exclude: ['node_modules/**', 'dist/**', ...alone, ...isolated],
          isolate: false,
        },
      },
      {
        test: {
          ...integration,
          name: 'integration-isolated',
          include: isolated,
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
