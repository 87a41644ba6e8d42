import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

// src/sim must stay pure: no wall clock, no Math.random, no timers, no DOM, no React.
const simPurity = {
  files: ['src/sim/**/*.ts'],
  ignores: ['src/sim/**/__tests__/**', 'src/sim/**/*.test.ts'],
  rules: {
    'no-restricted-globals': [
      'error',
      ...['Date', 'setTimeout', 'setInterval', 'clearTimeout', 'clearInterval', 'requestAnimationFrame', 'performance', 'window', 'document', 'navigator', 'localStorage', 'fetch', 'queueMicrotask', 'setImmediate'].map((name) => ({
        name,
        message: `src/sim is deterministic: ${name} is not allowed (time comes from the engine, randomness from the seed).`,
      })),
    ],
    'no-restricted-properties': [
      'error',
      { object: 'Math', property: 'random', message: 'src/sim uses the seeded generator in rng.ts, never Math.random.' },
      { object: 'Date', property: 'now', message: 'src/sim never reads the wall clock.' },
      { object: 'globalThis', message: 'src/sim never reaches for globals.' },
    ],
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          { group: ['react', 'react-*', 'react/*', 'zustand', 'zustand/*', 'd3', 'd3-*', 'sql.js', 'node:*'], message: 'src/sim imports nothing of React, the DOM, d3, storage or Node.' },
          { group: ['**/store/**', '**/labs/**', '**/app/**', '**/charts/**', '**/db/**', '**/cli/**'], message: 'imports point down: src/sim may not import upper layers.' },
        ],
      },
    ],
  },
};

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'test-results/**', 'playwright-report/**'] },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['src/**/*.tsx', 'src/**/*.ts'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
    },
  },
  simPurity,
);
