import { checkMessage } from '../../schemaCheck';
import { teach, validId, type CheckModule } from './core';

/**
 * Every message against the official schema of the revision in use (`checkMessage` of
 * src/wire/schemaCheck.ts): the type for its method, and for a response the result type of the
 * method of the request it answers. Runs unless `schema: false`.
 */
export const schema: CheckModule = {
  def: {
    id: 'schema',
    title: 'A message fails the official schema of its revision',
    rule: 'schema',
    ruleText: 'Every message validates against the official MCP JSON Schema of the revision in use (vendored in src/wire/mcp-schema), and a tasks/* message against the tasks extension schema (src/wire/ext-tasks).',
    severity: 'error',
    teaches: teach('races', 'E-invalid-cancels'),
  },
  create() {
    return {
      visit(e, m, o, ctx) {
        if (!ctx.opts.schema || e.type !== 'message') return;
        const result = checkMessage(ctx.revision, e.message, o.kind === 'response' ? o.call?.method : undefined);
        if (result.valid) return;
        const id = m && validId(m.id) ? [m.id] : [];
        ctx.add('schema', `The message at ${e.atMs} ms (line ${e.line}) fails ${result.def} of ${ctx.revision}: ${result.errors.slice(0, 3).join('; ')}${result.errors.length > 3 ? ` (+${result.errors.length - 3} more)` : ''}.`, [e], id);
      },
    };
  },
};
