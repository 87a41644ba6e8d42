import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ENSURE = path.resolve('scripts/ensure.mjs');

/**
 * Runs `ensure.mjs --deps` in a fresh directory with a stand-in `npm` first on PATH: it writes
 * node_modules/.package-lock.json like `npm ci` and, when `warn`, prints npm 11's allowScripts notice
 * (the lines npm 11.19 prints for esbuild, copied from a real install) on stderr.
 */
function ensureDeps(warn: boolean, installed: 'no' | 'yes' | 'linked-older' | 'copied-older' | 'interrupted' = 'no') {
  const dir = mkdtempSync(path.join(tmpdir(), 'lab-ensure-'));
  // The linked checkout's install is of another lockfile (content differs); every other case shares '{}'.
  writeFileSync(path.join(dir, 'package-lock.json'), installed === 'linked-older' ? '{"packages":{"node_modules/a":{"version":"2.0.0"}}}' : '{}');
  if (installed === 'copied-older') {
    // A fresh clone with a copied node_modules: same packages, files older than the clone's package-lock.json.
    mkdirSync(path.join(dir, 'node_modules'));
    writeFileSync(path.join(dir, 'node_modules/.package-lock.json'), '{}');
    utimesSync(path.join(dir, 'node_modules/.package-lock.json'), new Date(2000, 0, 1), new Date(2000, 0, 1));
  }
  if (installed === 'interrupted') {
    // npm ci stopped half way: node_modules exists, partly filled, without npm's record (written last).
    mkdirSync(path.join(dir, 'node_modules'));
    writeFileSync(path.join(dir, 'node_modules/half-extracted'), '');
  }
  if (installed === 'yes') {
    mkdirSync(path.join(dir, 'node_modules'));
    writeFileSync(path.join(dir, 'node_modules/.package-lock.json'), '{}');
  }
  if (installed === 'linked-older') {
    // A worktree: node_modules links to another checkout's, installed before this checkout's package-lock.json was written.
    const shared = path.join(dir, 'shared-node_modules');
    mkdirSync(shared);
    writeFileSync(path.join(shared, '.package-lock.json'), '{}');
    writeFileSync(path.join(shared, 'some-package'), 'kept');
    utimesSync(path.join(shared, '.package-lock.json'), new Date(2000, 0, 1), new Date(2000, 0, 1));
    symlinkSync(shared, path.join(dir, 'node_modules'));
  }
  const bin = path.join(dir, 'bin');
  mkdirSync(bin);
  const notice = [
    'npm warn install-scripts 2 packages have install scripts not yet covered by allowScripts:',
    'npm warn install-scripts   better-sqlite3@12.11.1 (install: prebuild-install || node-gyp rebuild --release)',
    'npm warn install-scripts   esbuild@0.28.2 (postinstall: node install.js)',
  ];
  writeFileSync(
    path.join(bin, 'npm'),
    ['#!/bin/sh', 'echo "npm-args: $*"', 'mkdir -p node_modules && echo "{}" > node_modules/.package-lock.json', ...(warn ? notice.map((l) => `echo '${l}' >&2`) : []), 'exit 0', ''].join('\n'),
  );
  chmodSync(path.join(bin, 'npm'), 0o755);
  const r = spawnSync(process.execPath, [ENSURE, '--deps'], { cwd: dir, env: { ...process.env, PATH: `${bin}:${process.env.PATH}` }, encoding: 'utf8' });
  return { ...r, dir };
}

describe('npm start on a fresh clone says what it is doing while npm ci runs', () => {
  it('a line before the install, one after, and — when npm 11 printed it — why the allowScripts notice is expected', () => {
    const r = ensureDeps(true);
    expect(r.status).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines).toEqual([
      '› Installing dependencies (first run, 2–3 minutes)…',
      'npm-args: ci --no-audit --no-fund',
      '› Dependencies installed.',
      '› The npm warning above about install scripts "not yet covered by allowScripts" (better-sqlite3, esbuild) is expected: npm ran them; nothing to do.',
    ]);
    // npm's own warning still reaches the terminal.
    expect(r.stderr).toContain('not yet covered by allowScripts');
    expect(existsSync(path.join(r.dir, 'node_modules/.package-lock.json'))).toBe(true);
  });

  it('no allowScripts line when npm printed no such notice; nothing at all when node_modules is current', () => {
    const quiet = ensureDeps(false);
    expect(quiet.stdout).toContain('› Installing dependencies (first run, 2–3 minutes)…');
    expect(quiet.stdout).not.toContain('allowScripts');
    const current = ensureDeps(true, 'yes');
    expect(current.stdout).toBe('');
    expect(current.status).toBe(0);
  });

  it('decides by the lockfile\'s content, not file times: a copied node_modules is kept; an interrupted install runs again', () => {
    const copied = ensureDeps(false, 'copied-older');
    expect(copied.stdout).not.toContain('npm-args');
    expect(copied.status).toBe(0);
    const interrupted = ensureDeps(false, 'interrupted');
    expect(interrupted.stdout).toContain('npm-args: ci');
    expect(existsSync(path.join(interrupted.dir, 'node_modules/.lab-installed-lock.sha256'))).toBe(true);
    // The marker holds the lockfile's hash: the next start reads it and installs nothing.
    expect(spawnSync(process.execPath, [ENSURE, '--deps'], { cwd: interrupted.dir, encoding: 'utf8' }).stdout).toBe('');
  });

  it('a linked node_modules (a worktree sharing another checkout\'s) is never reinstalled: npm ci would empty what it points to', () => {
    const r = ensureDeps(true, 'linked-older');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^› node_modules is a link to .*shared-node_modules: not reinstalling it from here \(npm ci would empty what it points to\); if the dependencies changed, run npm ci there\.\n$/);
    expect(r.stdout).not.toContain('npm-args');
    expect(readdirSync(path.join(r.dir, 'shared-node_modules')).sort()).toEqual(['.package-lock.json', 'some-package']);
  });
});
