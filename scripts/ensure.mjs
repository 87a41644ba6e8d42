// Makes a fresh machine ready: `--deps` installs npm dependencies when node_modules is missing or
// older than package-lock.json; `--chromium` checks for Debian's Chromium and, as root, installs it
// with apt-get when missing (Playwright cannot download browsers on this network).
import { existsSync, statSync } from 'node:fs';
import { execSync } from 'node:child_process';

const args = new Set(process.argv.slice(2));
const run = (cmd) => execSync(cmd, { stdio: 'inherit' });

if (args.has('--deps')) {
  const stale = !existsSync('node_modules/.package-lock.json') || statSync('package-lock.json').mtimeMs > statSync('node_modules/.package-lock.json').mtimeMs;
  if (stale) {
    console.log('› installing dependencies (npm ci)…');
    run('npm ci --no-audit --no-fund');
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
}
