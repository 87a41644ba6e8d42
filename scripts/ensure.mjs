// Makes a fresh machine ready: `--deps` installs npm dependencies when node_modules does not hold
// what package-lock.json lists (decided by content: scripts/depsState.mjs); `--chromium` checks for Debian's Chromium and, as root, installs it
// with apt-get when missing (Playwright cannot download browsers on this network); `--cli` builds
// the bundled command line (dist-cli/mcp-lab.mjs) when it is missing or older than a file under src/
// or the build script.
import { existsSync, lstatSync, readFileSync, readdirSync, realpathSync, statSync, writeFileSync } from 'node:fs';
import { depsState, LOCK_MARKER, lockHash } from './depsState.mjs';
import path from 'node:path';
import { execSync, spawn } from 'node:child_process';

const args = new Set(process.argv.slice(2));
const run = (cmd) => execSync(cmd, { stdio: 'inherit' });

/**
 * Runs `npm ci`, passing its output through as it comes, and resolves with its exit code and whether
 * npm 11 printed its "install scripts not yet covered by allowScripts" notice (read from stderr).
 */
function npmCi() {
  return new Promise((resolve) => {
    const child = spawn('npm', ['ci', '--no-audit', '--no-fund'], { stdio: ['inherit', 'inherit', 'pipe'] });
    let allowScripts = false;
    child.stderr.on('data', (chunk) => {
      if (String(chunk).includes('allowScripts')) allowScripts = true;
      process.stderr.write(chunk);
    });
    child.on('close', (code) => resolve({ code: code ?? 1, allowScripts }));
  });
}

if (args.has('--deps')) {
  const read = (f) => (existsSync(f) ? readFileSync(f, 'utf8') : null);
  const lockText = readFileSync('package-lock.json', 'utf8');
  const state = depsState({ lockText, markerText: read(LOCK_MARKER), hiddenLockText: read('node_modules/.package-lock.json') });
  const firstRun = state === 'missing';
  const stale = state !== 'fresh';
  // A copied or hand-made install that matches: record it, so the next start reads one small file.
  if (!stale && read(LOCK_MARKER) === null && !(existsSync('node_modules') && lstatSync('node_modules').isSymbolicLink())) writeFileSync(LOCK_MARKER, lockHash(lockText) + '\n');
  // A linked node_modules (a git worktree sharing another checkout's) is never reinstalled from here: npm ci
  // would replace the link and empty the directory it points to, under every checkout that shares it.
  const linked = existsSync('node_modules') && lstatSync('node_modules').isSymbolicLink();
  if (stale && linked) {
    console.log(`› node_modules is a link to ${realpathSync('node_modules')}: not reinstalling it from here (npm ci would empty what it points to); if the dependencies changed, run npm ci there.`);
  } else if (stale) {
    // npm ci prints nothing for 2–3 minutes on a fresh clone (2 min 43 s in the last walkthrough): say so first, so the wait is not taken for a hang.
    console.log(firstRun ? '› Installing dependencies (first run, 2–3 minutes)…' : '› Installing dependencies (package-lock.json changed; npm ci, 2–3 minutes)…');
    const { code, allowScripts } = await npmCi();
    if (code !== 0) {
      console.error(`npm ci failed (exit ${code}): see its output above.`);
      process.exit(code);
    }
    // Written only after npm ci succeeded: an interrupted install leaves no marker, so the next start installs again.
    try {
      writeFileSync(LOCK_MARKER, lockHash(lockText) + '\n');
    } catch {
      // no node_modules to mark: the next start compares npm's own record instead
    }
    console.log('› Dependencies installed.');
    if (allowScripts) {
      // npm 11 runs a dependency's install script that package.json's allowScripts does not list, and says so (it only
      // refuses them with --strict-allow-scripts). better-sqlite3 (its native build, used by the tests) and esbuild (a check
      // of its binary) have such scripts; both ran.
      console.log('› The npm warning above about install scripts "not yet covered by allowScripts" (better-sqlite3, esbuild) is expected: npm ran them; nothing to do.');
    }
  }
}

if (args.has('--cli')) {
  const out = 'dist-cli/mcp-lab.mjs';
  const newest = (dir) => {
    let t = 0;
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      t = Math.max(t, e.isDirectory() ? newest(p) : statSync(p).mtimeMs);
    }
    return t;
  };
  if (!existsSync(out) || statSync(out).mtimeMs < Math.max(newest('src'), statSync('scripts/build-cli.mjs').mtimeMs, statSync('package-lock.json').mtimeMs)) {
    // The first start builds the CLI before Vite prints anything: say so (on stderr: `npm run replay` prints its JSON on stdout), so a silent pause is not taken for a hang.
    console.error(`› building the command line (${out}) — it is missing or older than src/; this takes a few seconds…`);
    const started = process.hrtime.bigint();
    const { buildCli } = await import('./build-cli.mjs');
    await buildCli();
    console.error(`› command line built in ${(Number(process.hrtime.bigint() - started) / 1e9).toFixed(1)} s; starting the dev server (vite)…`);
  }
}

if (args.has('--chromium')) {
  const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (!existsSync(chromium)) {
    if (process.getuid?.() === 0) {
      console.log('› Chromium missing: installing Debian package "chromium"…');
      run('apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium');
    } else {
      console.error(`Chromium not found at ${chromium}. Install it (sudo apt-get install -y chromium) or set CHROMIUM_PATH.`);
      process.exit(1);
    }
  }
  // The ledger lab's browser test opens a downloaded .sqlite file with the sqlite3 shell.
  if (!existsSync('/usr/bin/sqlite3')) {
    if (process.getuid?.() === 0) {
      console.log('› sqlite3 missing: installing Debian package "sqlite3"…');
      run('apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq sqlite3');
    } else {
      console.error('sqlite3 not found at /usr/bin/sqlite3 (the ledger browser test opens a downloaded .sqlite with it). Install it: sudo apt-get install -y sqlite3');
      process.exit(1);
    }
  }
  // The language browser test's screenshots (issue 25) need Arabic and Chinese glyphs: Noto fonts.
  if (!existsSync('/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc') || !existsSync('/usr/share/fonts/truetype/noto/NotoNaskhArabic-Regular.ttf')) {
    if (process.getuid?.() === 0) {
      console.log('› Noto fonts missing: installing Debian packages "fonts-noto-core" and "fonts-noto-cjk"…');
      run('apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq fonts-noto-core fonts-noto-cjk');
    } else {
      console.warn('Noto fonts missing (Arabic and Chinese render as boxes in screenshots). Install them: sudo apt-get install -y fonts-noto-core fonts-noto-cjk');
    }
  }
}
