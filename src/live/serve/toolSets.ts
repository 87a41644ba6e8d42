/**
 * The tool sets `mcp-lab serve --tools` can serve, by name. `lab` is the lab's own tools
 * (`labTools.ts`); `conformance` is the official conformance suite's fixture tools (`test_*`),
 * registered by `src/live/conformance/fixtures.ts`; `all` is both.
 */
import type { McpServer } from '@modelcontextprotocol/server';
import { registerLabTools, type LabToolContext } from './labTools';

/** The names `--tools` accepts. */
export const TOOL_SET_NAMES = ['lab', 'conformance', 'all'] as const;

/** A tool set's name. */
export type ToolSetName = (typeof TOOL_SET_NAMES)[number];

/** Registers one tool set's tools (and resources, prompts) on a server instance. */
export type RegisterToolSet = (server: McpServer, context: LabToolContext) => void;

/** Set name → the register functions it runs, in order. */
export const TOOL_SETS: Readonly<Record<ToolSetName, readonly RegisterToolSet[]>> = {
  lab: [registerLabTools],
  // conformance: [registerConformanceFixtures] from '../conformance/fixtures' (wired in at merge).
  conformance: [],
  all: [registerLabTools],
};
