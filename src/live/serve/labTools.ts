/**
 * The `lab` tool set of `mcp-lab serve`: `slow_job` (well behaved), one `fault_*` tool per live
 * fault (so a learner can trigger each from any client), `charge` on the real SQLite ledger, and
 * `confirm_transfer` (2026-07-28 MRTR: InputRequiredResult, then a retry with inputResponses).
 * Every call goes through the caps and gets the `--fault` / `--chaos` faults on top of its own.
 */
import * as z from 'zod';
import { acceptedContent, inputRequired, type McpServer } from '@modelcontextprotocol/server';
import { LIVE_FAULT_NAMES, type LiveFaultName } from '../../sim/faultVocabulary';
import { FAULT_TOOL_NAMES, faultToolDescription, faultToolName } from './faultTools';
import { runJob, type JobCall, type TextResult } from './job';
import type { Ledger } from './ledger';
import type { ServeRuntime } from './runtime';

/** The lab set's other tools. */
export const LAB_TOOL_NAMES = ['slow_job', 'charge', 'confirm_transfer', ...Object.values(FAULT_TOOL_NAMES)] as const;

/** What the lab tools need from the process and the serving unit. */
export interface LabToolContext {
  runtime: ServeRuntime;
  ledger: Ledger;
  /** The era the instance serves (`McpRequestContext.era`): MRTR on modern, elicitation on legacy. */
  era: 'modern' | 'legacy';
}

const ms = (what: string) => z.number().int().min(0).max(86_400_000).describe(what);
const jobShape = {
  durationMs: ms('how long the job runs (ms, default 2000 or the --scenario\'s), clipped to the server\'s per-call cap').optional(),
  progressEveryMs: ms('progress interval (ms; 0: none; default 250 or the --scenario\'s); progress is sent only when the call has a progressToken').optional(),
};
const chargeShape = {
  idempotencyKey: z.string().min(1).max(200).optional().describe('the idempotency key: calls with one key charge at most once (atomic ledger)'),
  amountCents: z.number().int().min(1).max(1_000_000_000).default(2500),
  workMs: ms('how long the charge takes (ms): the window where a duplicate races it').default(500),
};

type Ctx = { mcpReq: { id: string | number; signal: AbortSignal; _meta?: Record<string, unknown>; inputResponses?: Record<string, unknown>; notify(n: { method: string; params: Record<string, unknown> }): Promise<void>; elicitInput?: (...a: never[]) => unknown } };

/** A call's timings: its own arguments, else the runtime's defaults (and `--scenario`'s result size, for big-result). */
const timing = (tc: LabToolContext, args: { durationMs?: number; progressEveryMs?: number }) => ({
  durationMs: args.durationMs ?? tc.runtime.jobDefaults.durationMs,
  progressEveryMs: args.progressEveryMs ?? tc.runtime.jobDefaults.progressEveryMs,
  ...(tc.runtime.jobDefaults.resultBytes !== undefined ? { resultBytes: tc.runtime.jobDefaults.resultBytes } : {}),
});

const errorResult = (text: string): TextResult => ({ content: [{ type: 'text', text }], isError: true });

/** Admits the call under the caps, collects its faults (own, `--fault`, chaos), and builds its `JobCall`. */
async function withCall(tc: LabToolContext, tool: string, own: readonly LiveFaultName[], ctx: Ctx, run: (call: JobCall, faults: Set<LiveFaultName>) => Promise<TextResult>): Promise<TextResult> {
  const rt = tc.runtime;
  const admitted = rt.admit();
  if (typeof admitted === 'string') return errorResult(admitted);
  try {
    const channel = rt.channel(ctx.mcpReq.id);
    const faults = new Set<LiveFaultName>([...rt.faults, ...own]);
    const drawn = rt.drawChaos(ctx.mcpReq.id, tool, channel?.transport ?? 'stdio');
    if (drawn) faults.add(drawn);
    const token = ctx.mcpReq._meta?.progressToken;
    const call: JobCall = {
      id: ctx.mcpReq.id,
      progressToken: typeof token === 'string' || typeof token === 'number' ? token : undefined,
      signal: ctx.mcpReq.signal,
      notify: (n) => ctx.mcpReq.notify(n),
      channel,
      era: tc.era,
    };
    return await run(call, faults);
  } finally {
    admitted.done();
  }
}

/** The ledger's answer as a tool result (409 in the result for a key in progress). */
function chargeResult(outcome: Awaited<ReturnType<Ledger['charge']>>, key: string | undefined): TextResult {
  const keyText = key === undefined ? 'no idempotency key' : `key ${key}`;
  switch (outcome.kind) {
    case 'executed':
      return { content: [{ type: 'text', text: `charged: ${outcome.receipt} (${keyText}; charges under it: ${outcome.executions})` }] };
    case 'replayed':
      return { content: [{ type: 'text', text: `already charged: ${outcome.receipt} (the stored result of ${keyText}; charges under it: ${outcome.executions})` }] };
    case 'in-progress':
      return errorResult(`409 idempotency_key_in_use: a charge with ${keyText} is still running — retry later with the same key`);
    case 'cancelled':
      return { content: [{ type: 'text', text: 'cancelled: nothing charged' }] };
  }
}

/** Registers the lab tool set on `server`. */
export function registerLabTools(server: McpServer, tc: LabToolContext): void {
  server.registerTool(
    'slow_job',
    {
      description: 'A well-behaved long job: runs durationMs, sends progress every progressEveryMs when the call has a progressToken, stops at once on cancel (the transport\'s cancellation for the revision) and never answers a cancelled call. --fault and --chaos faults apply to it.',
      inputSchema: z.object(jobShape),
      annotations: { readOnlyHint: true, idempotentHint: true },
    },
    (args, ctx) => withCall(tc, 'slow_job', [], ctx as unknown as Ctx, (call, faults) => runJob(tc.runtime, call, { tool: 'slow_job', ...timing(tc, args), faults })),
  );

  for (const fault of LIVE_FAULT_NAMES) {
    const name = faultToolName(fault);
    if (fault === 'naive-ledger' || fault === 'in-progress-409') {
      server.registerTool(name, { description: faultToolDescription(fault), inputSchema: z.object(chargeShape), annotations: { destructiveHint: true, idempotentHint: false } }, (args, ctx) =>
        withCall(tc, name, [fault], ctx as unknown as Ctx, (call, faults) => charge(tc, args, call, faults)),
      );
      continue;
    }
    server.registerTool(
      name,
      {
        description: faultToolDescription(fault),
        inputSchema: z.object({
          ...jobShape,
          resultBytes: z.number().int().min(1).max(1_073_741_824).optional().describe('big-result: the result size in bytes (default 5 MiB), clipped to the cap'),
          lateMs: ms('late-result: when the answer comes (default 75000 ms)').optional(),
        }),
        annotations: { readOnlyHint: true },
      },
      (args, ctx) =>
        withCall(tc, name, [fault], ctx as unknown as Ctx, (call, faults) =>
          runJob(tc.runtime, call, { tool: name, ...timing(tc, args), faults, resultBytes: args.resultBytes ?? tc.runtime.jobDefaults.resultBytes, lateMs: args.lateMs }),
        ),
    );
  }

  server.registerTool(
    'charge',
    {
      description: 'Charges amountCents on a real SQLite ledger. With an idempotencyKey the atomic ledger charges at most once per key (a concurrent duplicate waits for the stored result); --fault naive-ledger makes it check-then-act, --fault in-progress-409 answers a concurrent duplicate with 409.',
      inputSchema: z.object(chargeShape),
      annotations: { destructiveHint: true, idempotentHint: false },
    },
    (args, ctx) => withCall(tc, 'charge', [], ctx as unknown as Ctx, (call, faults) => charge(tc, args, call, faults)),
  );

  const confirmSchema = z.object({ confirm: z.boolean() });
  server.registerTool(
    'confirm_transfer',
    {
      description: 'MRTR (2026-07-28): asks the user to confirm the transfer through an InputRequiredResult with an elicitation, then completes on the retry that carries inputResponses. Under 2025-11-25 it asks with elicitation/create.',
      inputSchema: z.object({ amountCents: z.number().int().min(1).max(1_000_000_000).default(2500) }),
      annotations: { destructiveHint: true },
    },
    async (args, ctx) => {
      const c = ctx as unknown as Ctx & { mcpReq: { elicitInput(p: unknown): Promise<{ action: string; content?: { confirm?: boolean } }> } };
      const message = `Transfer ${args.amountCents} cents?`;
      if (tc.era === 'modern') {
        const confirmed = acceptedContent(c.mcpReq.inputResponses, 'confirm', confirmSchema);
        if (confirmed === undefined) return inputRequired({ inputRequests: { confirm: inputRequired.elicit({ message, requestedSchema: confirmSchema }) } });
        return { content: [{ type: 'text', text: confirmed.confirm ? `transferred ${args.amountCents} cents` : 'not confirmed: nothing transferred' }] };
      }
      try {
        const answer = await c.mcpReq.elicitInput({ message, requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] } });
        const yes = answer.action === 'accept' && answer.content?.confirm === true;
        return { content: [{ type: 'text', text: yes ? `transferred ${args.amountCents} cents` : 'not confirmed: nothing transferred' }] };
      } catch (err) {
        return errorResult(`confirm_transfer needs a client that supports elicitation: ${(err as Error).message}`);
      }
    },
  );
}

/** `charge` and the two ledger fault tools. */
async function charge(tc: LabToolContext, args: { idempotencyKey?: string; amountCents: number; workMs: number }, call: JobCall, faults: ReadonlySet<LiveFaultName>): Promise<TextResult> {
  const rt = tc.runtime;
  const transport = call.channel?.transport ?? 'stdio';
  const mode = faults.has('naive-ledger') ? 'naive' : 'atomic';
  const onInUse = faults.has('in-progress-409') ? '409' : 'wait';
  if (mode === 'naive') rt.fault('naive-ledger', call.id, transport, 'check-then-act: the key is checked, the work done, then the charge written');
  const outcome = await tc.ledger.charge({ key: args.idempotencyKey ?? null, amountCents: args.amountCents, workMs: Math.min(args.workMs, rt.caps.maxDurationMs), mode, onInUse, signal: call.signal });
  if (outcome.kind === 'in-progress') rt.fault('in-progress-409', call.id, transport, `409: key ${args.idempotencyKey} is in progress`);
  // Faults that act on any call's wire (duplicate, unknown id, stray progress…) also apply to a charge.
  const wire = new Set([...faults].filter((f) => f !== 'naive-ledger' && f !== 'in-progress-409'));
  if (wire.size > 0 && outcome.kind !== 'cancelled') {
    const result = chargeResult(outcome, args.idempotencyKey);
    await runJob(rt, call, { tool: 'charge', durationMs: 0, progressEveryMs: 0, faults: wire });
    return result;
  }
  return chargeResult(outcome, args.idempotencyKey);
}
