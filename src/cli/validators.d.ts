/**
 * The MCP schema validators the CLI build (`scripts/build-cli.mjs`) compiles ahead of time with
 * ajv standalone, keyed `revision#Def` (see `CHECKED_DEFS` in `src/wire/schemaCheck.ts`). Exists
 * only inside the bundle.
 */
declare module 'mcp-lab:validators' {
  import type { ValidateFunction } from 'ajv';
  export const PRECOMPILED: Record<string, ValidateFunction>;
}
