import { modelLabCore, type LabDefinition } from './lab';
import type { LabId } from './labIds';
import { parseScenario, type LabSchemas, type ParseResult } from './scenario';
import type { Model, Scenario } from './types';

/** A `parse` from schemas plus optional lab limits (each returns one problem line or null). */
export function parserFor(lab: LabId, schemas: LabSchemas, ...limits: ((scenario: Scenario) => string | null)[]): (value: unknown) => ParseResult {
  return (value) => {
    const parsed = parseScenario(value, lab, schemas);
    if (!parsed.ok) return parsed;
    for (const limit of limits) {
      const problem = limit(parsed.scenario);
      if (problem) return { ok: false, errors: [problem] };
    }
    return parsed;
  };
}

/**
 * A definition for a lab run by one pure model: tie rule, invariants, `parse` (schema plus
 * `limits`), `replay` and `stateAt` come from the model; the lab gives its id, title, schemas,
 * `outcomeAt`, its expectation checker and what its page refuses. (Apart from `./lab` because the
 * schemas bring zod: a page store can use `modelLabCore` and load the parser when it needs it.)
 */
export function modelLab<C, S, O, Tm>(
  model: Model<C, S, O, Tm>,
  parts: Pick<LabDefinition<S, O>, 'id' | 'title' | 'schemas' | 'outcomeAt' | 'checkExpectation' | 'pageProblem' | 'explore'> & { limits?: ((scenario: Scenario) => string | null)[] },
): LabDefinition<S, O> {
  const { limits = [], schemas, ...rest } = parts;
  return { ...modelLabCore(model, rest), schemas, parse: parserFor(parts.id, schemas, ...limits) };
}
