import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'scripts/**/*.test.ts'],
    environment: 'node',
    // The races store's lazily loaded parser, loaded before each test file (src/store/testSetup.ts).
    setupFiles: ['src/store/testSetup.ts'],
    // Tests never depend on machine speed: a loaded 2-core CI box must not turn a slow start
    // (ESLint, sql.js, property runs) into a failure. Speed is measured in `npm run bench` only.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // CI also writes a JSON report for the one-line summary (see .ci/run).
    reporters: process.env.VITEST_JSON ? ['default', ['json', { outputFile: process.env.VITEST_JSON }]] : ['default'],
  },
});
