// Builds the one command line (`src/cli/bin.ts`) into JavaScript: the entry
// dist-cli/mcp-lab.mjs plus one lazily imported chunk per subcommand in dist-cli/chunks/ (the `mcp-lab` bin; gitignored), so no TypeScript is transpiled when a user
// runs it. The MCP schema validators the wire check uses are compiled here with ajv standalone
// (the virtual module `mcp-lab:validators`), so startup does not compile them. sql.js stays external: its Node build finds its wasm next to its own module.
// Usage: node scripts/build-cli.mjs
import { build } from 'esbuild';
import { readFileSync } from 'node:fs';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import standaloneCode from 'ajv/dist/standalone/index.js';
import { _ } from 'ajv/dist/compile/codegen/index.js';
import { chmodSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const CLI_OUT = path.join(root, 'dist-cli/mcp-lab.mjs');

// Must match CHECKED_DEFS and SCHEMAS in src/wire/schemaCheck.ts (a test compares the bundle's output).
const DEFS = ['JSONRPCMessage', 'CallToolRequest', 'SubscriptionsListenRequest', 'CancelledNotification', 'ProgressNotification', 'JSONRPCErrorResponse', 'SubscriptionsListenResultResponse', 'CallToolResultResponse', 'JSONRPCResultResponse', 'CallToolResult'];
const REVISIONS = ['2025-11-25', '2026-07-28'];

const compiled = new Map();
/** ajv standalone ESM source of one revision's validators, exported as `r_<Def>`, and the defs it has. */
function revision(rev) {
  if (!compiled.has(rev)) compiled.set(rev, compileRevision(rev));
  return compiled.get(rev);
}
function compileRevision(revision) {
  const ajv = new Ajv2020({ strict: false, allErrors: true, code: { source: true, esm: true, formats: _`require("ajv-formats/dist/formats").fullFormats` } });
  addFormats.default(ajv);
  ajv.addSchema(JSON.parse(readFileSync(path.join(root, `src/wire/mcp-schema/${revision}.schema.json`), 'utf8')), `mcp-${revision}`);
  const refs = {};
  for (const def of DEFS) if (ajv.getSchema(`mcp-${revision}#/$defs/${def}`)) refs[`r_${def}`] = `mcp-${revision}#/$defs/${def}`;
  return { source: standaloneCode.default(ajv, refs), defs: DEFS.filter((def) => refs[`r_${def}`]) };
}

/** The module `mcp-lab:validators`: `PRECOMPILED` (`revision#Def` → validate function) over every revision's module. */
function validatorsSource() {
  const imports = REVISIONS.map((revision, r) => `import * as R${r} from 'mcp-lab:revision:${revision}';`).join('\n');
  const entries = REVISIONS.flatMap((rev, r) => revision(rev).defs.map((def) => `${JSON.stringify(`${rev}#${def}`)}: R${r}.r_${def}`));
  return `${imports}\nexport const PRECOMPILED = {\n  ${entries.join(',\n  ')}\n};\n`;
}

/** Bundles the CLI; resolves when dist-cli/mcp-lab.mjs is written. */
export async function buildCli() {
  // Chunks are content-hashed: clear the old ones so dist-cli/ holds one build.
  rmSync(path.join(path.dirname(CLI_OUT), 'chunks'), { recursive: true, force: true });
  await build({
    entryPoints: [path.join(root, 'src/cli/bin.ts')],
    outdir: path.dirname(CLI_OUT),
    entryNames: 'mcp-lab',
    chunkNames: 'chunks/[name]-[hash]',
    splitting: true,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: ['sql.js'],
    legalComments: 'none',
    plugins: [
      {
        name: 'mcp-lab-validators',
        setup(b) {
          b.onResolve({ filter: /^mcp-lab:/ }, (args) => ({ path: args.path.slice('mcp-lab:'.length), namespace: 'mcp-lab' }));
          b.onLoad({ filter: /.*/, namespace: 'mcp-lab' }, (args) => ({
            contents: args.path === 'validators' ? validatorsSource() : revision(args.path.slice('revision:'.length)).source,
            loader: 'js',
            resolveDir: root,
          }));
        },
      },
    ],
    logLevel: 'warning',
    // CommonJS dependencies bundled into ESM call require() for Node built-ins.
    banner: { js: "#!/usr/bin/env node\nimport { createRequire as __mcpLabRequire } from 'node:module';\nconst require = __mcpLabRequire(import.meta.url);" },
  });
  chmodSync(CLI_OUT, 0o755);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await buildCli();
