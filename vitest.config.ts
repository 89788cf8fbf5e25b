import { defineConfig } from 'vitest/config';

// Two projects: unit tests sit next to the code (x.test.ts); integration tests that cross a
// boundary (HTTP server, MSW, CLI, Prism, the conformance run) live in a test/ folder of their area.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['{openapi,mocks,conformance,fixtures,cli,scripts}/**/*.test.ts'],
          exclude: ['**/test/**', 'node_modules/**', 'dist/**'],
          testTimeout: 20_000,
        },
      },
      {
        test: {
          name: 'integration',
          include: ['**/test/**/*.test.ts'],
          exclude: ['node_modules/**', 'dist/**'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
