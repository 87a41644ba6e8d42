import { describe, expect, it } from 'vitest';
import { depsState, lockHash } from './depsState.mjs';

const lock = (pkgs: Record<string, string>) => JSON.stringify({ name: 'x', lockfileVersion: 3, packages: { '': { name: 'x' }, ...Object.fromEntries(Object.entries(pkgs).map(([k, v]) => [`node_modules/${k}`, { version: v, integrity: `sha512-${k}${v}` }])) } });

describe('npm start decides to install by the lockfile\'s content, never by file times', () => {
  const l = lock({ react: '19.3.1', d3: '7.9.0' });
  it('a completed install (marker = the lockfile\'s hash) is fresh; a changed lockfile is stale', () => {
    expect(depsState({ lockText: l, markerText: lockHash(l), hiddenLockText: null })).toBe('fresh');
    expect(depsState({ lockText: lock({ react: '19.3.2', d3: '7.9.0' }), markerText: lockHash(l), hiddenLockText: l })).toBe('stale');
  });
  it('a copied node_modules with the same packages is fresh, whatever its file times', () => {
    const hidden = JSON.stringify({ name: 'x', lockfileVersion: 3, packages: JSON.parse(lock({ d3: '7.9.0', react: '19.3.1' })).packages });
    expect(depsState({ lockText: l, markerText: null, hiddenLockText: hidden })).toBe('fresh');
    expect(depsState({ lockText: l, markerText: null, hiddenLockText: lock({ react: '19.3.1' }) })).toBe('stale');
    // Another platform's optional binary is in the lockfile but not installed: still fresh.
    const withOptional = JSON.stringify({ packages: { ...JSON.parse(l).packages, 'node_modules/@esbuild/darwin-arm64': { version: '0.28.2', optional: true } } });
    expect(depsState({ lockText: withOptional, markerText: null, hiddenLockText: l })).toBe('fresh');
  });
  it('an interrupted install (no marker, no hidden lockfile: npm writes it last) is missing, so it runs again', () => {
    expect(depsState({ lockText: l, markerText: null, hiddenLockText: null })).toBe('missing');
  });
});
