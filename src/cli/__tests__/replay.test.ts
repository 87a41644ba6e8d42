import { describe, expect, it } from 'vitest';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { main, report } from '../replay';
import { readdirSync } from 'node:fs';
import { parseAnyScenarioText } from '../../sim/labs';
import { replay } from '../../sim/replay';
import { racesModel } from '../../sim/races';
import { scenarioJsonSchema } from '../../sim/jsonSchema';
import { bigRacesScenario } from '../../../bench/scenarios';
import { builtinRaces } from '../../store/builtinRaces';
import { builtinResilience } from '../../store/builtinResilience';
import { createRacesStore } from '../../store/racesStore';
import { createResilienceStore } from '../../store/resilienceStore';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const scenario = (id: string) => path.join(root, 'public/scenarios/races', `${id}.json`);

describe('replay CLI', () => {
  it('prints per request the terminal state, reason, time and final response, plus wire and invariants', () => {
    const r = main([scenario('C-progress-idle-maximum')]);
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.requests).toEqual([expect.objectContaining({ requestId: 1, state: 'timeout-max', atMs: 2000, finalResponse: false, reason: expect.stringContaining('maximum timeout of 2000 ms') })]);
    expect(doc.wire.map((w: { message?: { method?: string } }) => w.message?.method)).toEqual(['tools/call', ...Array(5).fill('notifications/progress'), 'notifications/cancelled']);
    expect(doc.wire.every((w: { schema: string }) => w.schema.startsWith('valid'))).toBe(true);
    expect(doc.invariants.every((i: { holds: boolean }) => i.holds)).toBe(true);
  });

  it('applies --config overrides and reports broken invariants', () => {
    const r = main([scenario('C-progress-idle-maximum'), '--config', '{"policy":{"progressResetsMaximum":true}}']);
    const doc = JSON.parse(r.stdout);
    expect(doc.requests[0]).toMatchObject({ state: 'timeout-idle', atMs: 2499 });
    expect(doc.invariants.find((i: { name: string }) => i.name === 'maximum-deadline-fixed')).toMatchObject({ holds: false, firstViolation: { at: 400, message: "1's maximum deadline moved from 2000 ms to 2400 ms" } });
  });

  it('--expect checks the file\'s expectations and exits 3 when one is not met', () => {
    expect(main([scenario('A-cancel-then-complete'), '--expect']).code).toBe(0);
    const a = JSON.parse(readFileSync(scenario('A-cancel-then-complete'), 'utf8'));
    a.expect[0].requests['1'].atMs = 301;
    const r = main(['a.json', '--expect'], () => JSON.stringify(a));
    expect(r.code).toBe(3);
    expect(JSON.parse(r.stdout).expectations[0]).toMatchObject({ met: false, mismatches: [{ field: 'requests[1].atMs', expected: 301, actual: 300 }] });
    // The reason is on stderr too, one line per unmet expectation (walkthrough: exit 3 said nothing).
    expect(r.stderr).toBe(`expectation not met: ${JSON.stringify(a.expect[0].label)} — requests[1].atMs is 300, expected 301\n`);
  });

  it('names an option given without its value before the usage line (exit 2)', () => {
    const trace = main([scenario('A-cancel-then-complete'), '--trace']);
    expect(trace.code).toBe(2);
    expect(trace.stderr.split('\n')[0]).toBe('--trace needs a value: the file to write the trace to (--trace OUT.json)');
    const config = main([scenario('A-cancel-then-complete'), '--config', '--expect']);
    expect(config.code).toBe(2);
    expect(config.stderr.split('\n')[0]).toBe('--config needs a value: a JSON object of settings (--config \'{"transport":"stdio"}\')');
  });

  it('exits 1 naming the field for an invalid scenario, the JSON error for bad syntax, and a missing file', () => {
    const bad = main(['x.json'], () => JSON.stringify({ format: 1, lab: 'races', id: 'x', title: 'x', config: {}, events: [{ id: 'a', at: 1.5, actor: 'client', kind: 'start', requestId: 1 }] }));
    expect(bad).toMatchObject({ code: 1, stdout: '' });
    expect(bad.stderr).toContain('events[0].at: must be an integer number of milliseconds — give an integer');
    const syntax = main(['x.json'], () => '{"format":');
    expect(syntax.code).toBe(1);
    expect(syntax.stderr).toMatch(/not valid JSON/);
    const missing = main([path.join(root, 'nope.json')]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/cannot read .*nope\.json/);
  });

  it('a near-empty file ({"format":1}) reports every problem in one message, in the words the lab pages use', () => {
    const r = main(['x.json'], () => '{"format":1}');
    expect(r).toMatchObject({ code: 1, stdout: '' });
    const rest = ['id: is missing — add it (a string)', 'title: is missing — add it (a string)', 'config: is missing — add it (an object)', 'events: is missing — add it (an array)'];
    expect(r.stderr).toBe(`error: x.json is not a valid scenario:\n${['lab: must be one of "races", "ledger", "flow", "resilience", got nothing — set "lab" to the lab the scenario is for', ...rest].map((l) => `  ${l}`).join('\n')}\n`);
    // A page knows its lab, so its lab line names it; every other line is the CLI's, word for word.
    const pages = [createRacesStore({ builtins: builtinRaces().scenarios }), createResilienceStore({ builtins: builtinResilience().scenarios })];
    for (const store of pages) {
      expect(store.getState().importText('{"format":1}', 'The file x.json')).toBe(false);
      const lab = store.getState().lab;
      expect(store.getState().error).toEqual({ title: `The file x.json is not a valid ${lab} scenario; the previous scenario is kept`, errors: [`lab: must be "${lab}" for this lab, got nothing — set "lab" to "${lab}"`, ...rest] });
    }
    for (const line of [...r.stderr.trim().split('\n').slice(1).map((l) => l.trim())]) expect(line).toMatch(/^[\w.[\]]+: .+ — .+$/);
  });

  it('exits 2 on a bad command line', () => {
    expect(main([]).code).toBe(2);
    expect(main(['a.json', '--frobnicate']).stderr).toMatch(/unknown option --frobnicate/);
    expect(main([scenario('A-cancel-then-complete'), '--config', '{nope']).code).toBe(2);
  });

  it('works as `npm run replay -- FILE` in a real process', () => {
    const out = execFileSync('npm', ['run', '-s', 'replay', '--', scenario('D-http-stream-close')], { cwd: root, encoding: 'utf8' });
    expect(JSON.parse(out).requests[0]).toMatchObject({ requestId: 'req-7', state: 'cancelled', cancelSignal: 'stream-close' });
    const bad = spawnSync('npm', ['run', '-s', 'replay', '--', path.join(root, 'package.json')], { cwd: root, encoding: 'utf8' });
    expect(bad.status).toBe(1);
    expect(bad.stderr).toContain('lab: must be one of "races"');
  }, 300_000);

  it('stops quietly when its reader closes the pipe early (`| head`): no EPIPE stack, exit 0', async () => {
    // Walkthrough: `npm run --silent replay -- FILE | head` printed Node's EPIPE stack trace.
    execFileSync('node', ['scripts/ensure.mjs', '--cli'], { cwd: root, stdio: 'ignore' });
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'lab-epipe-')), 'big.json');
    writeFileSync(file, JSON.stringify(bigRacesScenario(2000, 20))); // about 800 KB of output: more than a pipe holds
    const child = spawn('node', ['dist-cli/mcp-lab.mjs', 'replay', file], { cwd: root });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdout.once('data', () => child.stdout.destroy()); // the reader stops after its first piece
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(stderr).not.toContain('EPIPE');
    expect(code).toBe(0);
  }, 300_000);
});

describe('replay CLI fast path', () => {
  it('the effects-only report equals the report built from the full per-step trace, for every built-in races scenario', () => {
    const dir = path.join(root, 'public/scenarios/races');
    const files = readdirSync(dir).filter((f) => f.endsWith('.json'));
    expect(files.length).toBeGreaterThanOrEqual(11);
    for (const f of files) {
      const parsed = parseAnyScenarioText(readFileSync(path.join(dir, f), 'utf8'));
      if (!parsed.ok) throw new Error(`${f}: ${parsed.errors.join('; ')}`);
      const full = replay(racesModel, parsed.scenario, { keep: 'steps' });
      const fast = replay(racesModel, parsed.scenario, { keep: 'effects' });
      expect(fast.steps).toEqual([]);
      expect(report(parsed.scenario, fast), f).toEqual(report(parsed.scenario, full));
      expect(main([path.join(dir, f)]).stdout, f).toBe(JSON.stringify(report(parsed.scenario, full), null, 2) + '\n');
    }
  });

  it('--trace FILE writes the per-step trace (time, entry, note, effects) only when asked', () => {
    const written = new Map<string, string>();
    const r = main([scenario('A-cancel-then-complete'), '--trace', 'a-trace.json'], undefined, undefined, (p, text) => written.set(p, text));
    expect(r.code).toBe(0);
    const steps = JSON.parse(written.get('a-trace.json')!).steps;
    expect(steps.length).toBe(JSON.parse(r.stdout).steps);
    expect(steps[0]).toMatchObject({ index: 0, at: 0, entry: expect.any(Object), why: expect.any(String) });
    const plain = new Map<string, string>();
    main([scenario('A-cancel-then-complete')], undefined, undefined, (p, text) => plain.set(p, text));
    expect(plain.size).toBe(0);
    expect(main([scenario('A-cancel-then-complete'), '--trace']).code).toBe(2);
  });
});

describe('bundled CLI (dist-cli/mcp-lab.mjs)', () => {
  it('prints exactly what main() prints for every built-in races scenario (its precompiled schema validators agree with ajv at run time)', () => {
    execFileSync('node', ['scripts/ensure.mjs', '--cli'], { cwd: root });
    const dir = path.join(root, 'public/scenarios/races');
    const files = readdirSync(dir).filter((f) => f.endsWith('.json'));
    const outputs = files.map((f) => main([path.join(dir, f)]).stdout);
    expect(outputs.some((o) => o.includes('"schema": "invalid'))).toBe(true);
    files.forEach((f, i) => {
      expect(execFileSync('node', ['dist-cli/mcp-lab.mjs', 'replay', path.join(dir, f)], { cwd: root, encoding: 'utf8' }), f).toBe(outputs[i]);
    });
  }, 300_000);

  it('exits as soon as its output is written, with every byte through a pipe and the same code and stderr as main(): a document larger than the pipe (0), a missing file (1), a bad command line (2), an unmet expectation (3)', () => {
    execFileSync('node', ['scripts/ensure.mjs', '--cli'], { cwd: root, stdio: 'ignore' });
    const dir = mkdtempSync(path.join(tmpdir(), 'lab-exit-'));
    const big = path.join(dir, 'big.json');
    writeFileSync(big, JSON.stringify(bigRacesScenario(2000, 20))); // about 800 KB of output: more than a pipe holds
    const unmet = JSON.parse(readFileSync(scenario('A-cancel-then-complete'), 'utf8'));
    unmet.expect[0].requests['1'].atMs = 301;
    writeFileSync(path.join(dir, 'unmet.json'), JSON.stringify(unmet));
    const cases = [[big], [path.join(dir, 'missing.json')], [big, '--nope'], [path.join(dir, 'unmet.json'), '--expect']];
    for (const [i, argv] of cases.entries()) {
      const expected = main(argv);
      expect(expected.code).toBe(i);
      const r = spawnSync('node', ['dist-cli/mcp-lab.mjs', 'replay', ...argv], { cwd: root, encoding: 'utf8', maxBuffer: 1 << 26 });
      expect({ code: r.status, stdout: r.stdout, stderr: r.stderr }, argv.join(' ')).toEqual({ code: expected.code, stdout: expected.stdout, stderr: expected.stderr });
    }
  }, 300_000);
});

describe('published scenario JSON Schema', () => {
  it('public/scenario.schema.json is generated from the runtime schemas (run `npm run schema` if this fails)', () => {
    const onDisk = JSON.parse(readFileSync(path.join(root, 'public/scenario.schema.json'), 'utf8'));
    expect(onDisk).toEqual(scenarioJsonSchema());
  });
});
