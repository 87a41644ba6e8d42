// Builds the one command line (`src/cli/bin.ts`) into JavaScript: the entry
// dist-cli/mcp-lab.mjs plus one lazily imported chunk per subcommand in dist-cli/chunks/ (the `mcp-lab` bin; gitignored), so no TypeScript is transpiled when a user
// runs it. The MCP schema validators the wire check uses are compiled here with ajv standalone: the
// bundle's `src/wire/schemaValidators.ts` is a virtual module over them, so the CLI loads neither
// ajv's compiler nor the schemas, and startup compiles nothing. Each lab's scenario-event validator (zod's JSON Schema export of
// the lab's event schema, src/cli/eventJsonSchema.ts) is compiled the same way for `replay`'s quick parse (src/cli/fastScenario.ts;
// `src/cli/scenarioValidators.ts` is the virtual module). sql.js stays external: its Node build finds its wasm next to its own module.
// Usage: node scripts/build-cli.mjs
import { build } from 'esbuild';
import { readFileSync } from 'node:fs';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import standaloneCode from 'ajv/dist/standalone/index.js';
import { _ } from 'ajv/dist/compile/codegen/index.js';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const CLI_OUT = path.join(root, 'dist-cli/mcp-lab.mjs');

// Must match CHECKED_DEFS in src/wire/schemaCheck.ts and MCP_SCHEMAS in src/wire/schemaValidators.ts (a test compares the bundle's output).
const DEFS = [
  'JSONRPCMessage', 'CallToolRequest', 'SubscriptionsListenRequest', 'CancelledNotification', 'ProgressNotification', 'JSONRPCErrorResponse', 'SubscriptionsListenResultResponse', 'CallToolResultResponse', 'JSONRPCResultResponse', 'CallToolResult',
  'InitializeResult', 'ListToolsResult', 'ListResourcesResult', 'ListResourceTemplatesResult', 'ReadResourceResult', 'ListPromptsResult', 'GetPromptResult', 'CompleteResult', 'CreateMessageResult', 'ElicitResult', 'ListRootsResult', 'GetTaskResult', 'ListTasksResult', 'CancelTaskResult', 'GetTaskPayloadResult', 'DiscoverResult', 'InputRequiredResult',
];
const REVISIONS = ['2025-11-25', '2026-07-28'];

const compiled = new Map();
/** ajv standalone source of one revision's validators (key `revision:mode`; `quick`: first error only, `all`: every error), exported as `r_<Def>`, and the defs it has. */
function revision(key) {
  if (!compiled.has(key)) compiled.set(key, compileRevision(...key.split(':')));
  return compiled.get(key);
}
/** Keywords whose meaning needs ajv's evaluated-properties and dynamic-scope tracking; the vendored MCP schemas use none of them. */
const TRACKED_KEYWORDS = /"(unevaluatedProperties|unevaluatedItems|\$dynamicRef|\$dynamicAnchor|\$recursiveRef|\$recursiveAnchor)"/;

function compileRevision(revision, mode) {
  const quick = mode === 'quick';
  const text = readFileSync(path.join(root, `src/wire/mcp-schema/${revision}.schema.json`), 'utf8');
  // The quick validators only answer valid or not (schemaCheck.ts reads the all-errors ones' messages), so they carry no message texts.
  const ajv = new Ajv2020({ strict: false, allErrors: !quick, messages: !quick, code: { source: true, esm: true, formats: _`require("ajv-formats/dist/formats").fullFormats` } });
  if (quick) {
    // Ajv2020 always tracks evaluated properties and dynamic anchors, which makes every anyOf try all its branches (JSONRPCMessage
    // has four) and every call allocate its dynamic-anchor scope. Without those keywords in the schema the tracking cannot change
    // an answer, so the quick validators go without it (about half their cold CPU on the 10k-event file).
    if (TRACKED_KEYWORDS.test(text)) throw new Error(`src/wire/mcp-schema/${revision}.schema.json uses ${text.match(TRACKED_KEYWORDS)[1]}: the quick validators need ajv's evaluated-property tracking back (scripts/build-cli.mjs)`);
    ajv.opts.unevaluated = false;
    ajv.opts.dynamicRef = false;
  }
  addFormats.default(ajv);
  ajv.addSchema(JSON.parse(text), `mcp-${revision}`);
  const refs = {};
  for (const def of DEFS) if (ajv.getSchema(`mcp-${revision}#/$defs/${def}`)) refs[`r_${def}`] = `mcp-${revision}#/$defs/${def}`;
  return { source: standaloneCode.default(ajv, refs), defs: DEFS.filter((def) => refs[`r_${def}`]) };
}

const MODES = ['quick', 'all'];
const validatorFile = (rev, mode) => `mcp-validators-${rev}-${mode}.cjs`;

/**
 * The bundle's `src/wire/schemaValidators.ts`: `mcpValidator(revision, def, allErrors)` over the
 * precompiled validator files in dist-cli/chunks/ (one a revision and mode, `require`d on first
 * use: a 2026-07-28 file never parses the 2025-11-25 validators, and valid messages never need
 * the all-errors ones).
 */
function validatorsSource() {
  const files = Object.fromEntries(REVISIONS.flatMap((rev) => MODES.map((mode) => [`${rev}:${mode}`, validatorFile(rev, mode)])));
  return `const FILES = ${JSON.stringify(files)};
const dir = new URL('.', import.meta.url).pathname.endsWith('/chunks/') ? './' : './chunks/';
const loaded = new Map();
/** The precompiled validator of $defs/<def> (allErrors: every error, else the first); throws for a type the build did not compile. */
export function mcpValidator(revision, def, allErrors) {
  const key = revision + ':' + (allErrors ? 'all' : 'quick');
  let mod = loaded.get(key);
  if (!mod && FILES[key]) loaded.set(key, (mod = require(dir + FILES[key])));
  const v = mod?.['r_' + def];
  if (!v) throw new Error('MCP schema ' + revision + ': $defs/' + def + ' is not precompiled (scripts/build-cli.mjs DEFS)');
  return v;
}
`;
}

/** Writes each revision's and mode's precompiled validators as one self-contained CommonJS file next to the chunks. */
/** Bundles one generated validator module (`contents`, named `sourcefile` in errors) into `chunksDir/file`: CommonJS for Node 20, minified. */
async function bundleValidator(chunksDir, contents, sourcefile, file) {
  await build({
    stdin: { contents, resolveDir: root, loader: 'js', sourcefile },
    outfile: path.join(chunksDir, file),
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    minify: true,
    legalComments: 'none',
    logLevel: 'warning',
  });
}

async function buildValidatorFiles(chunksDir) {
  for (const rev of REVISIONS) {
    for (const mode of MODES) {
      await bundleValidator(chunksDir, revision(`${rev}:${mode}`).source, `mcp-${rev}-${mode}.js`, validatorFile(rev, mode));
    }
  }
}

const eventValidatorFile = (lab) => `scenario-events-${lab}.cjs`;

/**
 * Each lab's event JSON Schema (`src/cli/eventJsonSchema.ts`: zod's export of the event schema
 * of the lab's CLI kit) and ajv's options for it, read by bundling a few lines over the sources
 * and importing them (this script is plain JavaScript).
 */
async function eventSchemas() {
  const out = await build({
    stdin: {
      contents: `import { LAB_KITS } from './src/cli/reports';
import { EVENT_VALIDATOR_OPTIONS, eventJsonSchema } from './src/cli/eventJsonSchema';
export const options = EVENT_VALIDATOR_OPTIONS;
export const schemas = Object.fromEntries(await Promise.all(Object.entries(LAB_KITS).map(async ([lab, kit]) => [lab, eventJsonSchema((await kit()).schemas)])));`,
      resolveDir: root,
      loader: 'ts',
      sourcefile: 'event-schemas.ts',
    },
    bundle: true,
    write: false,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: ['sql.js'],
    logLevel: 'warning',
    banner: { js: "import { createRequire as __mcpLabRequire } from 'node:module';\nconst require = __mcpLabRequire(import.meta.url);" },
  });
  const dir = mkdtempSync(path.join(tmpdir(), 'mcp-lab-event-schemas-'));
  try {
    writeFileSync(path.join(dir, 'event-schemas.mjs'), out.outputFiles[0].text);
    return await import(pathToFileURL(path.join(dir, 'event-schemas.mjs')).href);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The bundle's `src/cli/scenarioValidators.ts`: `eventValidator(lab)` over the precompiled event
 * validators in dist-cli/chunks/ (one file a lab, `require`d on first use).
 */
function scenarioValidatorsSource(labs) {
  const files = Object.fromEntries(labs.map((lab) => [lab, eventValidatorFile(lab)]));
  return `const FILES = ${JSON.stringify(files)};
const dir = new URL('.', import.meta.url).pathname.endsWith('/chunks/') ? './' : './chunks/';
const loaded = new Map();
/** The precompiled validator of one scripted event of lab (true: valid against the lab's event JSON Schema). */
export function eventValidator(lab) {
  let v = loaded.get(lab);
  if (!v) loaded.set(lab, (v = require(dir + FILES[lab])));
  return v;
}
`;
}

/** Writes each lab's precompiled event validator (ajv standalone, valid-or-not only) as one self-contained CommonJS file next to the chunks. */
async function buildEventValidatorFiles(chunksDir, { options, schemas }) {
  for (const [lab, schema] of Object.entries(schemas)) {
    const text = JSON.stringify(schema);
    if (TRACKED_KEYWORDS.test(text)) throw new Error(`the ${lab} event JSON Schema uses ${text.match(TRACKED_KEYWORDS)[1]}: its validator needs ajv's evaluated-property tracking back (scripts/build-cli.mjs)`);
    const ajv = new Ajv2020({ ...options, code: { source: true } });
    ajv.opts.unevaluated = false; // as for the quick MCP validators: no keyword that needs the tracking (checked above)
    ajv.opts.dynamicRef = false;
    await bundleValidator(chunksDir, standaloneCode.default(ajv, ajv.compile(schema)), `scenario-events-${lab}.js`, eventValidatorFile(lab));
  }
}

/** Bundles the CLI; resolves when dist-cli/mcp-lab.mjs is written. */
export async function buildCli() {
  // Chunks are content-hashed: clear the old ones so dist-cli/ holds one build.
  rmSync(path.join(path.dirname(CLI_OUT), 'chunks'), { recursive: true, force: true });
  const events = await eventSchemas();
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
    // Whitespace and syntax only: names stay, so stack traces and any `.name` still read as in the source.
    minifyWhitespace: true,
    minifySyntax: true,
    legalComments: 'none',
    plugins: [
      {
        name: 'mcp-lab-validators',
        setup(b) {
          b.onResolve({ filter: /\/schemaValidators(\.ts)?$/ }, () => ({ path: 'validators', namespace: 'mcp-lab' }));
          b.onResolve({ filter: /\/scenarioValidators(\.ts)?$/ }, () => ({ path: 'scenario-validators', namespace: 'mcp-lab' }));
          b.onLoad({ filter: /.*/, namespace: 'mcp-lab' }, (args) => ({
            contents: args.path === 'validators' ? validatorsSource() : scenarioValidatorsSource(Object.keys(events.schemas)),
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
  await buildValidatorFiles(path.join(path.dirname(CLI_OUT), 'chunks'));
  await buildEventValidatorFiles(path.join(path.dirname(CLI_OUT), 'chunks'), events);
  chmodSync(CLI_OUT, 0o755);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await buildCli();
