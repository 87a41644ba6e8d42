#!/usr/bin/env node
// npm run test:oracle-mutations — proves the differential oracles can fail (issue 23 item 3).
//
// The SDK oracles (src/sdk-oracle) pass when the lab's "TypeScript SDK v1/v2" profiles agree with
// the real SDKs point by point. A suite that cannot fail proves nothing, so this script breaks
// things on purpose, one at a time, in a temporary copy of the project, and runs the oracle suites
// on each break:
//   - the lab's SDK profiles (src/sim/races): the default timeout, request id 0, when the maximum
//     is noticed, the v2 broken stream;
//   - the installed SDKs' protocol code (a patched copy of the package, never node_modules itself):
//     a maximum with its own timer, a cancel sent when the maximum trips, the id-0 cancel, a call
//     failed when its request stream ends (the broken stream of the races probes and flow's RI1/RI2).
// The unbroken copy must be green first; then every break must turn at least one point-by-point
// agreement test red (a stale freshness file alone does not count). One line per break; exit 1
// when the baseline is red or any break stays green.
//
// Usage: node scripts/oracle-mutations.mjs [--keep] [--only <id>[,<id>…]]
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const keep = args.includes('--keep');
const only = args.includes('--only') ? new Set(args[args.indexOf('--only') + 1].split(',')) : null;

const V1 = ['src/sdk-oracle/differential.test.ts', 'src/sdk-oracle/http.test.ts', 'src/sdk-oracle/sdk-oracle.test.ts'];
const V2 = ['src/sdk-oracle/differentialV2.test.ts', 'src/sdk-oracle/flowV2.test.ts'];
/** Freshness tests compare with a recorded file: they go red on any change, so they do not count as the oracle catching a break. */
const FRESHNESS = /is what the installed SDK|README\.md holds the generated table|README\.md and lab-vs-sdk-v2\.md hold/;

/** A text patch: in `file` (a project path, or `pkg:<package>/<path>` inside an installed package; a `*` in the last segment matches one file), replace `from` (must occur exactly once) with `to`. */
const BREAKS = [
  { id: 'lab-default-timeout', what: "lab profiles: the SDK's default idle timeout 60000 → 30000 ms", file: 'src/sim/races/sdkProfile.ts', from: 'export const SDK_DEFAULT_TIMEOUT_MS = 60_000;', to: 'export const SDK_DEFAULT_TIMEOUT_MS = 30_000;', suites: [...V1, ...V2] },
  { id: 'lab-v1-id-zero', what: 'lab v1 profile: the server honours a cancel for request id 0 (typescript-sdk#2283 forgotten)', file: 'src/sim/races/sdkProfile.ts', from: 'if (major === 1 && isRequestId(p.requestId) && !p.requestId)', to: 'if (false && isRequestId(p.requestId) && !p.requestId)', suites: V1 },
  { id: 'lab-v2-id-zero', what: 'lab v2 profile: the server ignores a cancel for request id 0 (as v1 does)', file: 'src/sim/races/sdkProfile.ts', from: 'if (major === 1 && isRequestId(p.requestId) && !p.requestId)', to: 'if (major >= 1 && isRequestId(p.requestId) && !p.requestId)', suites: V2 },
  { id: 'lab-maximum-late', what: 'lab profiles: the maximum is noticed one progress later (>= becomes >)', file: 'src/sim/races/sdkProfile.ts', from: 'now - req.startAt >= req.maxTimeoutMs', to: 'now - req.startAt > req.maxTimeoutMs', suites: [...V1, ...V2] },
  { id: 'lab-maximum-timer', what: 'lab profiles: the maximum gets its own timer (as the lab\'s own client has)', file: 'src/sim/races/client.ts', from: '!config.policy.maximumCheckedOnProgress && !sdk;', to: '!config.policy.maximumCheckedOnProgress;', suites: [...V1, ...V2] },
  { id: 'lab-v2-broken-stream', what: 'lab v2 profile: a cut stream fails the call and re-issues it (the lab\'s own policy)', file: 'src/sim/races/client.ts', from: '  if (sdkMajor(config) === 2) return sdkV2StreamCut(state, req, ctx);\n', to: '', suites: V2 },
  { id: 'sdk-v1-maximum-timer', what: 'SDK v1 Protocol._setupTimeout: the maximum gets its own timer', file: 'pkg:sdk/dist/esm/shared/protocol.js', from: '            timeoutId: setTimeout(onTimeout, timeout),', to: '            timeoutId: (maxTotalTimeout && setTimeout(onTimeout, maxTotalTimeout), setTimeout(onTimeout, timeout)),', suites: V1 },
  { id: 'sdk-v1-cancel-at-maximum', what: 'SDK v1 Protocol._onprogress: a cancel is sent when the maximum trips', file: 'pkg:sdk/dist/esm/shared/protocol.js', from: '                // Clean up if maxTotalTimeout was exceeded\n', to: "                // Clean up if maxTotalTimeout was exceeded\n                this._transport?.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: messageId, reason: String(error) } }).catch(() => undefined);\n", suites: V1 },
  { id: 'sdk-v2-maximum-timer', what: 'SDK v2 client Protocol._setupTimeout: the maximum gets its own timer', file: 'pkg:client/dist/src-*.mjs', from: '\t\t\ttimeoutId: setTimeout(onTimeout, timeout),', to: '\t\t\ttimeoutId: (maxTotalTimeout && setTimeout(onTimeout, maxTotalTimeout), setTimeout(onTimeout, timeout)),', suites: V2 },
  { id: 'sdk-v2-cancel-at-maximum', what: 'SDK v2 client Protocol._onprogress: a cancel is sent when the maximum trips', file: 'pkg:client/dist/src-*.mjs', from: '\t\t} catch (error) {\n\t\t\tthis._responseHandlers.delete(messageId);\n\t\t\tthis._progressHandlers.delete(messageId);', to: "\t\t} catch (error) {\n\t\t\tthis._transport?.send(this._envelopeOutbound({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: messageId, reason: String(error) } })).catch(() => undefined);\n\t\t\tthis._responseHandlers.delete(messageId);\n\t\t\tthis._progressHandlers.delete(messageId);", suites: V2 },
  { id: 'sdk-v2-stream-end-fails-call', what: 'SDK v2 client Protocol._requestWithSchemaViaCodec: a request stream that ends before its response fails the call (sdk.broken-stream-pending gone, as typescript-sdk#2830 proposes)', file: 'pkg:client/dist/src-*.mjs', from: '\t\t\t\trequestSignal: requestAbort?.signal\n\t\t\t}).catch((error) => {', to: "\t\t\t\trequestSignal: requestAbort?.signal,\n\t\t\t\tonRequestStreamEnd: () => { if (!responseReceived) { responseReceived = true; this._progressHandlers.delete(messageId); reject(new SdkError(SdkErrorCode.ConnectionClosed, 'request stream ended')); } }\n\t\t\t}).catch((error) => {", suites: V2 },
  { id: 'sdk-v2-server-id-zero', what: 'SDK v2 server Protocol._oncancel: a cancel for request id 0 is ignored again', file: 'pkg:server/dist/src-*.mjs', from: '\t\tif (notification.params.requestId === void 0) return;', to: '\t\tif (!notification.params.requestId) return;', suites: V2 },
];

const MODULES = realpathSync(join(ROOT, 'node_modules'));
const work = mkdtempSync(join(tmpdir(), 'oracle-mutations-'));
const started = Date.now();

/** The project copy: the files the oracle suites read, and a node_modules of links (one scope made of links, so a package can be swapped for a patched copy). */
function makeCopy() {
  for (const p of ['src', 'public', 'README.md', 'package.json', 'tsconfig.json', 'vitest.config.ts']) cpSync(join(ROOT, p), join(work, p), { recursive: true });
  const nm = join(work, 'node_modules');
  mkdirSync(nm);
  for (const e of readdirSync(MODULES)) {
    if (e === '.vite' || e === '.vitest' || e === '.cache') continue; // caches stay private to the copy
    if (e === '@modelcontextprotocol') continue;
    symlinkSync(join(MODULES, e), join(nm, e));
  }
  mkdirSync(join(nm, '@modelcontextprotocol'));
  for (const e of readdirSync(join(MODULES, '@modelcontextprotocol'))) symlinkSync(join(MODULES, '@modelcontextprotocol', e), join(nm, '@modelcontextprotocol', e));
}

/** Resolves a break's file to an absolute path in the copy; for `pkg:` files, swaps the package's link for a patched-to-be copy first. Returns [path, undo]. */
function target(file) {
  if (!file.startsWith('pkg:')) return [join(work, file), () => undefined];
  const [pkg, ...rest] = file.slice(4).split('/');
  const link = join(work, 'node_modules', '@modelcontextprotocol', pkg);
  const copy = join(work, 'patched', pkg);
  rmSync(copy, { recursive: true, force: true });
  cpSync(join(MODULES, '@modelcontextprotocol', pkg), copy, { recursive: true });
  unlinkSync(link);
  symlinkSync(copy, link);
  const dir = join(copy, ...rest.slice(0, -1));
  const last = rest[rest.length - 1];
  const re = new RegExp(`^${last.replace(/[.]/g, '\\.').replace(/\*/g, '[^/]*')}$`);
  const matches = readdirSync(dir).filter((f) => re.test(f));
  if (matches.length !== 1) throw new Error(`${file}: ${matches.length} files match`);
  return [join(dir, matches[0]), () => {
    unlinkSync(link);
    symlinkSync(join(MODULES, '@modelcontextprotocol', pkg), link);
    rmSync(copy, { recursive: true, force: true });
  }];
}

/** Runs vitest on `suites` in the copy; returns the failed tests `{file, name}` (null when vitest itself did not report). */
function runSuites(suites) {
  const out = join(work, 'report.json');
  rmSync(out, { force: true });
  const r = spawnSync(process.execPath, [join(work, 'node_modules', 'vitest', 'vitest.mjs'), 'run', ...suites, '--reporter=json', `--outputFile=${out}`], { cwd: work, encoding: 'utf8', env: { ...process.env, SDK_ORACLE_WRITE: '', VITEST_JSON: '' }, timeout: 600_000 });
  if (!existsSync(out)) return { failed: null, log: (r.stdout ?? '') + (r.stderr ?? '') };
  const report = JSON.parse(readFileSync(out, 'utf8'));
  const failed = [];
  for (const f of report.testResults) for (const t of f.assertionResults) if (t.status !== 'passed') failed.push({ file: f.name.slice(work.length + 1), name: t.fullName ?? t.title });
  if (report.numFailedTestSuites > 0 && failed.length === 0) failed.push({ file: '(suite)', name: 'a suite failed to load' });
  return { failed, total: report.numTotalTests };
}

const fmt = (ms) => `${(ms / 1000).toFixed(1)} s`;
let bad = 0;
try {
  makeCopy();
  const t0 = Date.now();
  const base = runSuites([...V1, ...V2]);
  if (base.failed === null || base.failed.length > 0) {
    console.log(`baseline RED (${fmt(Date.now() - t0)}): the unbroken copy must pass first`);
    for (const f of base.failed ?? []) console.log(`  ${f.file}: ${f.name}`);
    if (base.failed === null) console.log(base.log.slice(-3000));
    bad = -1;
  } else console.log(`baseline green: ${base.total} tests (${fmt(Date.now() - t0)})`);
  for (const b of bad < 0 ? [] : BREAKS) {
    if (only && !only.has(b.id)) continue;
    const t = Date.now();
    const [path, undo] = target(b.file);
    const original = readFileSync(path, 'utf8');
    try {
      const n = original.split(b.from).length - 1;
      if (n !== 1) throw new Error(`${b.id}: the text to patch occurs ${n} times in ${b.file} (the code moved: update the break)`);
      writeFileSync(path, original.replace(b.from, () => b.to));
      const r = runSuites(b.suites);
      const agreement = (r.failed ?? []).filter((f) => !FRESHNESS.test(f.name));
      const byFile = [...new Set(agreement.map((f) => f.file.replace('src/sdk-oracle/', '')))].map((f) => `${f} ${agreement.filter((a) => a.file.endsWith(f)).length}`);
      const red = r.failed !== null && agreement.length > 0;
      if (!red) bad++;
      console.log(`${red ? 'red  ' : 'GREEN'} ${b.id} — ${b.what}: ${r.failed === null ? 'vitest did not report' : `${agreement.length} agreement test(s) failed${byFile.length ? ` (${byFile.join(', ')})` : ''}, ${r.failed.length - agreement.length} freshness`} [${fmt(Date.now() - t)}]`);
    } finally {
      writeFileSync(path, original);
      undo();
    }
  }
} finally {
  if (!keep) rmSync(work, { recursive: true, force: true });
  else console.log(`kept ${work}`);
}
console.log(`${bad === 0 ? 'every break turned the oracle suites red' : bad < 0 ? 'no break tried: the baseline is red' : `${bad} break(s) left the oracle suites green`} (${fmt(Date.now() - started)})`);
process.exit(bad === 0 ? 0 : 1);
