/**
 * The tool sets `mcp-lab serve --tools` can serve, by name. `lab` is the lab's own tools
 * (`labTools.ts`); `conformance` is the official conformance suite's fixture tools (`test_*`),
 * registered by `src/live/conformance/fixtures.ts`; `all` is both.
 */
import type { McpServer } from '@modelcontextprotocol/server';
import { registerConformanceFixtures, type ListChangedNotifier } from '../conformance/fixtures';
import { registerLabTools, type LabToolContext } from './labTools';

/** The names `--tools` accepts. */
export const TOOL_SET_NAMES = ['lab', 'conformance', 'all'] as const;

/** A tool set's name. */
export type ToolSetName = (typeof TOOL_SET_NAMES)[number];

/**
 * What a tool set's register function gets: the lab tools' context, and where the conformance
 * fixtures' list-changed trigger tools publish (the 2026-07-28 handler's `notify`; absent on stdio
 * and the 2025-11-25 sessions, where the instance's own connection carries the notification).
 */
export type ToolSetContext = LabToolContext & { notifier?: ListChangedNotifier };

/** Registers one tool set's tools (and resources, prompts) on a server instance. */
export type RegisterToolSet = (server: McpServer, context: ToolSetContext) => void;

/**
 * The conformance fixtures under serve: `--fault` reaches them too (the fixtures act on
 * `no-progress`, see `ConformanceFixtureOptions.faults`), each time marked in the recording.
 */
const conformanceFixtures: RegisterToolSet = (server, context) =>
  registerConformanceFixtures(server, {
    ...(context.notifier ? { notifier: context.notifier } : {}),
    faults: context.runtime.faults,
    onFault: (fault, requestId, text) => context.runtime.fault(fault, requestId, context.runtime.channel(requestId)?.transport ?? 'stdio', text),
  });

/** True when the set carries the conformance fixtures (the server is then built with their options: `conformanceServerOptions`). */
export function hasConformanceFixtures(set: ToolSetName): boolean {
  return TOOL_SETS[set].includes(conformanceFixtures);
}

/** Set name → the register functions it runs, in order. */
export const TOOL_SETS: Readonly<Record<ToolSetName, readonly RegisterToolSet[]>> = {
  lab: [registerLabTools],
  conformance: [conformanceFixtures],
  all: [registerLabTools, conformanceFixtures],
};
