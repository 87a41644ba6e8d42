import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'scripts/**/*.test.ts'],
    environment: 'node',
    // CI also writes a JSON report for the one-line summary (see .ci/run).
    reporters: process.env.VITEST_JSON ? ['default', ['json', { outputFile: process.env.VITEST_JSON }]] : ['default'],
  },
});
