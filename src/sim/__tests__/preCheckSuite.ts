import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { CoreRun, scriptedEntries, type CoreMode, type CoreModel } from '../core';
import type { Scenario } from '../types';

/**
 * The one suite that proves a lab's invariant pre-check (`CoreModel.surelyHolds`: "no check can
 * fail on this entity", so the core skips the checks): after every step of the lab's built-ins and
 * of generated scenarios, for every entity the lab lists (touched or not), whenever the pre-check
 * clears it, every invariant reading it returns null; and a pre-check that cleared everything would
 * hide real failures (the scan is not vacuous). Each lab calls `preCheckSuite` with its own core,
 * entities, invariants, pre-check, built-ins and arbitrary (races, flow, resilience).
 */

/** What a scan found: entities cleared, entities left to the checks, and those cleared although a check failed. */
export interface PreCheckScan {
  cleared: number;
  notCleared: number;
  /** Entities cleared although a check failed, as "<scenario id> at <ms> ms: <invariant>: <message>" (must stay empty). */
  wrong: string[];
}

/** A pre-check under test: true clears `entity` of `kind` after a step at `atMs`. */
export type PreCheck = (kind: string, entity: never, atMs: number) => boolean;

/** One check over an entity, with the kind it reads (a lab whose checks all read one kind may leave `reads` out). */
export interface ScannedInvariant<S> {
  name: string;
  reads?: string;
  check(entity: never, state: S, atMs: number, entryKind: string): string | null;
}

/** How to scan one lab: its core, the run's mode and step limit, the entities to test after each step and its invariants. */
export interface PreCheckScanner<S> {
  // The core's other type parameters do not matter to the scan (any model whose mutable state is S).
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  core: CoreModel<any, S, any, any, any>;
  /** The recorder the run feeds ('effects' or 'seekable': what the lab's hot path sees). */
  mode: CoreMode;
  /** Steps scanned per scenario at most (Infinity: the whole run). */
  maxSteps: number;
  /** Every entity to test after a step, as [kind, entity] (touched or not). */
  entities(state: S): Iterable<readonly [string, unknown]>;
  invariants: readonly ScannedInvariant<S>[];
}

/** A fresh, empty scan. */
export const emptyScan = (): PreCheckScan => ({ cleared: 0, notCleared: 0, wrong: [] });

/** Runs `scenario` on the lab's core and tests `holds` after each step against every invariant (see the module docstring); adds to `into`. */
export function scanPreCheck<S>(lab: PreCheckScanner<S>, scenario: Scenario, holds: PreCheck, into: PreCheckScan): void {
  const run = CoreRun.start(lab.core, scenario, scriptedEntries(scenario, lab.core.scriptedRank), lab.mode);
  for (let n = 0; n < lab.maxSteps && run.step(); n++) {
    const at = run.lastAt;
    for (const [kind, entity] of lab.entities(run.state)) {
      if (!holds(kind, entity as never, at)) {
        into.notCleared++;
        continue;
      }
      into.cleared++;
      for (const inv of lab.invariants) {
        if (inv.reads !== undefined && inv.reads !== kind) continue;
        const message = inv.check(entity as never, run.state, at, run.stepKind);
        if (message !== null) into.wrong.push(`${scenario.id} at ${at} ms: ${inv.name}: ${message}`);
      }
    }
  }
}

/** The invariant names a scan's `wrong` list names. */
export const namesIn = (scan: PreCheckScan): Set<string> => new Set(scan.wrong.map((w) => w.split(': ')[1]));

/** Options of `preCheckSuite`: the lab's scanner, pre-check, scenarios and the floors that keep each test from being vacuous. */
export interface PreCheckSuite<S> {
  /** The describe block's title. */
  title: string;
  /** What the pre-check must never clear, for the test titles ("a request an invariant fails on"). */
  subject: string;
  lab: PreCheckScanner<S>;
  holds: PreCheck;
  /** The built-in scenarios and their variants, and how they are named in the title ("every built-in variant"). */
  variants(): Scenario[];
  variantsName: string;
  /** Least cleared and not-cleared entities over the built-ins. */
  builtins: { cleared: number; notCleared: number };
  /** Generated scenarios: arbitrary, runs, seed, title words ("2,000 generated scenarios") and least counts (`notCleared` unchecked when absent). */
  generated: { arb: fc.Arbitrary<Scenario>; runs: number; seed: number; name: string; cleared: number; notCleared?: number };
  /**
   * The not-vacuous test: a pre-check that clears everything over the built-ins (and
   * `generated.runs` generated scenarios from `generated.seed`, when given) must expose failures;
   * `expectHidden` asserts which invariants' failures it found (their names); without it, it
   * asserts that every invariant of `lab.invariants` failed somewhere.
   */
  clearAll: { title: string; generated?: { runs: number; seed: number }; expectHidden?(names: Set<string>): void };
}

/** Defines the lab's three pre-check tests in one describe block (see the module docstring); `more` adds the lab's own tests to the block. */
export function preCheckSuite<S>(spec: PreCheckSuite<S>, more?: () => void): void {
  const { lab, holds, generated } = spec;
  describe(spec.title, () => {
    it(`never clears ${spec.subject}, over ${spec.variantsName}`, () => {
      const s = emptyScan();
      for (const scenario of spec.variants()) scanPreCheck(lab, scenario, holds, s);
      expect(s.wrong).toEqual([]);
      // Not vacuous: it clears most healthy steps and keeps the rest for the checks.
      expect(s.cleared).toBeGreaterThan(spec.builtins.cleared);
      expect(s.notCleared).toBeGreaterThan(spec.builtins.notCleared);
    });

    it(`never clears ${spec.subject}, over ${generated.name}`, () => {
      const s = emptyScan();
      fc.assert(
        fc.property(generated.arb, (scenario) => {
          scanPreCheck(lab, scenario, holds, s);
          expect(s.wrong).toEqual([]);
        }),
        { numRuns: generated.runs, seed: generated.seed },
      );
      expect(s.cleared).toBeGreaterThan(generated.cleared);
      if (generated.notCleared !== undefined) expect(s.notCleared).toBeGreaterThan(generated.notCleared);
    }, 300_000);

    it(spec.clearAll.title, () => {
      const s = emptyScan();
      const all: PreCheck = () => true;
      for (const scenario of spec.variants()) scanPreCheck(lab, scenario, all, s);
      const more = spec.clearAll.generated;
      if (more !== undefined) fc.assert(fc.property(generated.arb, (scenario) => scanPreCheck(lab, scenario, all, s)), { numRuns: more.runs, seed: more.seed });
      const names = namesIn(s);
      if (spec.clearAll.expectHidden !== undefined) spec.clearAll.expectHidden(names);
      else expect(lab.invariants.map((i) => i.name).filter((n) => !names.has(n))).toEqual([]);
    }, 300_000);

    more?.();
  });
}
