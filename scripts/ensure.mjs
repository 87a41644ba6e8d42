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
}
