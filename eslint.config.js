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

// The floors of DESIGN.md, enforced: a lab page gets the model through its store (selectors and
// the lab definition), never by importing src/sim or src/db values, and never from a sibling lab
// (shared parts live in src/labs/common). Type imports are fine. Web Worker entry files run the
// engine off the main thread and are the one exception (tests included: a test reads sim through the store too).
const noSimValues = { group: ['**/sim/*', '**/sim/**', '**/db/*', '**/db/**'], allowTypeImports: true, message: 'src/labs: no value imports from src/sim or src/db — read the model through the lab store (src/store) and its definition.' };
const labLayering = {
  files: ['src/labs/*/**/*.{ts,tsx}'],
  ignores: ['src/labs/**/*.worker.ts', 'src/labs/common/**'],
  rules: {
    '@typescript-eslint/no-restricted-imports': [
      'error',
      { patterns: [noSimValues, { regex: '^\\.\\./(?!common/|\\.\\./)[^/]+/', allowTypeImports: true, message: 'src/labs: no imports from a sibling lab — move shared parts to src/labs/common.' }] },
    ],
  },
};
const commonLayering = {
  files: ['src/labs/common/**/*.{ts,tsx}'],
  ignores: ['src/labs/**/*.worker.ts'],
  rules: {
    '@typescript-eslint/no-restricted-imports': ['error', { patterns: [noSimValues, { regex: '^\\.\\./(?!\\.\\./)[^/]+/', allowTypeImports: true, message: 'src/labs/common is shared by every lab and imports none of them.' }] }],
  },
};

export default tseslint.config(
  { ignores: ['dist/**', 'dist-cli/**', 'node_modules/**', 'test-results/**', 'playwright-report/**'] },
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
  labLayering,
  commonLayering,
);
