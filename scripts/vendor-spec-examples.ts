/**
 * `npx tsx scripts/vendor-spec-examples.ts --spec GITDIR --ext-tasks GITDIR`: extracts, as data,
 * the example messages of the MCP 2026-07-28 specification and of the tasks extension from local
 * git copies of their repositories, and writes them to
 *
 * - `src/wire/mcp-schema/examples/2026-07-28.json` — every `schema/2026-07-28/examples/<Type>/<name>.json`
 *   of modelcontextprotocol/modelcontextprotocol (the schema's examples: the typedoc `@example`s
 *   of schema.ts), and the fenced JSON / HTTP blocks of the spec pages listed in `SPEC_PAGES`;
 * - `src/wire/ext-tasks/examples.json` — the fenced JSON blocks of `specification/draft/tasks.md`
 *   of modelcontextprotocol/ext-tasks.
 *
 * Each file names the repository and commit it was read from. Nothing is hand-copied: a block is
 * parsed as JSON, or as JSONC when the page writes comments or trailing commas in it (`jsonc: true`);
 * an HTTP block becomes `{ http: { method, path, headers }, json: body }`. Blocks that are not
 * JSON (mermaid, typescript, text) are left out. `npm run spec-examples` builds the golden
 * transcripts from these files (scripts/spec-examples.ts); run this one only to move to newer commits.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The 2026-07-28 spec pages whose JSON blocks are vendored (under docs/specification/2026-07-28/). */
export const SPEC_PAGES = [
  'basic/index.mdx',
  'basic/versioning.mdx',
  'basic/patterns/cancellation.mdx',
  'basic/patterns/progress.mdx',
  'basic/patterns/mrtr.mdx',
  'basic/patterns/subscriptions.mdx',
  'basic/transports/streamable-http.mdx',
  'server/tools.mdx',
] as const;

/** One fenced block of a page, parsed. */
export interface PageBlock {
  /** `<page>#<n>`: n counts the page's JSON and HTTP blocks from 1, in page order. */
  key: string;
  /** The heading the block sits under. */
  heading: string;
  /** The nearest line of prose before the block (a bold label such as "Example Response (CreateTaskResult):", or the end of a paragraph). */
  label: string;
  /** The fence's language. */
  lang: string;
  /** Set when the block had comments or trailing commas (JSONC) that were removed to parse it. */
  jsonc?: true;
  /** Set when the block holds several JSON values one after another: `json` is the array of them. */
  sequence?: true;
  /** HTTP blocks: the request line and headers (names as written). */
  http?: { method: string; path: string; headers: Record<string, string> };
  json: unknown;
}

/** Removes `//` and `/* *\/` comments outside strings, then trailing commas before `}` or `]`. */
export function stripJsonc(text: string): string {
  let out = '';
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      out += c;
      if (c === '\\') out += text[++i] ?? '';
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') {
      inString = true;
      out += c;
    } else if (c === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
      out += '\n';
    } else if (c === '/' && text[i + 1] === '*') {
      i = text.indexOf('*/', i + 2);
      if (i < 0) i = text.length;
      else i++;
    } else out += c;
  }
  // Trailing commas (outside strings: a string holding ",}" is rare enough in these pages to fail loudly instead).
  return out.replace(/,(\s*[}\]])/g, '$1');
}

/** The top-level JSON values of a text that holds several one after another (whitespace between them). */
function jsonSequence(text: string): unknown[] {
  const values: unknown[] = [];
  let i = 0;
  while (i < text.length) {
    while (i < text.length && /\s/.test(text[i])) i++;
    if (i >= text.length) break;
    let depth = 0;
    let inString = false;
    let end = -1;
    for (let j = i; j < text.length; j++) {
      const c = text[j];
      if (inString) {
        if (c === '\\') j++;
        else if (c === '"') inString = false;
      } else if (c === '"') inString = true;
      else if (c === '{' || c === '[') depth++;
      else if (c === '}' || c === ']') {
        if (--depth === 0) {
          end = j + 1;
          break;
        }
      }
    }
    if (end < 0) throw new Error(`unterminated JSON value at ${i}`);
    values.push(JSON.parse(text.slice(i, end)));
    i = end;
  }
  return values;
}

/** Parses JSON, else JSONC, else a JSONC sequence of values (`sequence: true`, `json` the array); throws when none reads. */
function parseJsonText(text: string): { json: unknown; jsonc?: true; sequence?: true } {
  try {
    return { json: JSON.parse(text) };
  } catch {
    const stripped = stripJsonc(text);
    try {
      return { json: JSON.parse(stripped), jsonc: true };
    } catch {
      return { json: jsonSequence(stripped), jsonc: true, sequence: true };
    }
  }
}

/** The fenced JSON and HTTP blocks of a Markdown / MDX page, in order, each with its heading and label. */
export function pageBlocks(page: string, text: string): PageBlock[] {
  const lines = text.split('\n');
  const blocks: PageBlock[] = [];
  let heading = '';
  let label = '';
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)```(\w*)/.exec(lines[i]);
    if (!open) {
      const t = lines[i].trim();
      if (/^#+\s/.test(t)) {
        heading = t.replace(/^#+\s*/, '');
        label = '';
      } else if (t !== '' && !t.startsWith('<') && !t.startsWith(':::')) label = t.replace(/\*\*/g, '');
      continue;
    }
    const lang = open[2];
    const body: string[] = [];
    for (i++; i < lines.length && !/^\s*```\s*$/.test(lines[i]); i++) body.push(lines[i]);
    if (!['json', 'jsonc', 'jsonl', 'http'].includes(lang)) continue;
    const n = blocks.length + 1;
    const key = `${page}#${n}`;
    try {
      if (lang === 'http') {
        const blank = body.findIndex((l) => l.trim() === '');
        const [method, p] = body[0].trim().split(/\s+/);
        const headers: Record<string, string> = {};
        for (const l of body.slice(1, blank)) {
          const at = l.indexOf(':');
          headers[l.slice(0, at).trim()] = l.slice(at + 1).trim();
        }
        blocks.push({ key, heading, label, lang, http: { method, path: p, headers }, ...parseJsonText(body.slice(blank + 1).join('\n')) });
      } else blocks.push({ key, heading, label, lang, ...parseJsonText(body.join('\n')) });
    } catch (err) {
      throw new Error(`${key} (${lang}, under "${heading}"): ${(err as Error).message}`);
    }
  }
  return blocks;
}

const git = (gitDir: string, ...args: string[]) => execFileSync('git', ['--git-dir', gitDir, ...args], { encoding: 'utf8', maxBuffer: 64 << 20 });

/** The commit HEAD names, and its date. */
function headOf(gitDir: string): { commit: string; date: string } {
  const [commit, date] = git(gitDir, 'log', '-1', '--format=%H %cs', 'HEAD').trim().split(' ');
  return { commit, date };
}

/** The schema examples and page blocks of the spec repository at HEAD. */
export function specExamples(gitDir: string): object {
  const { commit, date } = headOf(gitDir);
  const dir = 'schema/2026-07-28/examples/';
  const schemaExamples: Record<string, unknown> = {};
  for (const file of git(gitDir, 'ls-tree', '-r', '--name-only', 'HEAD', dir).split('\n').filter((f) => f.endsWith('.json')).sort()) {
    schemaExamples[file.slice(dir.length, -'.json'.length)] = JSON.parse(git(gitDir, 'show', `HEAD:${file}`));
  }
  const pages: Record<string, PageBlock> = {};
  for (const page of SPEC_PAGES) for (const b of pageBlocks(page, git(gitDir, 'show', `HEAD:docs/specification/2026-07-28/${page}`))) pages[b.key] = b;
  return {
    source: { repository: 'modelcontextprotocol/modelcontextprotocol', commit, date, schemaExamples: dir, pages: 'docs/specification/2026-07-28/' },
    license: 'Apache-2.0 (specification contributions; earlier ones MIT), see the repository LICENSE',
    note: 'Data extracted by scripts/vendor-spec-examples.ts: schemaExamples["<Type>/<name>"] is schema/2026-07-28/examples/<Type>/<name>.json; pages["<page>#<n>"] is the n-th JSON or HTTP block of that page.',
    schemaExamples,
    pages,
  };
}

/** The JSON blocks of the tasks extension's specification page at HEAD. */
export function extTasksExamples(gitDir: string): object {
  const { commit, date } = headOf(gitDir);
  const page = 'specification/draft/tasks.md';
  const blocks: Record<string, PageBlock> = {};
  for (const b of pageBlocks('tasks.md', git(gitDir, 'show', `HEAD:${page}`))) blocks[b.key] = b;
  return {
    source: { repository: 'modelcontextprotocol/ext-tasks', commit, date, page },
    license: 'Apache-2.0, see LICENSE beside this file',
    note: 'Data extracted by scripts/vendor-spec-examples.ts: blocks["tasks.md#<n>"] is the n-th JSON block of the page.',
    blocks,
  };
}

function main(argv: string[]): void {
  const arg = (flag: string) => {
    const i = argv.indexOf(flag);
    if (i < 0 || !argv[i + 1]) throw new Error(`usage: vendor-spec-examples.ts --spec GITDIR --ext-tasks GITDIR (missing ${flag})`);
    return argv[i + 1];
  };
  const out: [string, object][] = [
    ['src/wire/mcp-schema/examples/2026-07-28.json', specExamples(arg('--spec'))],
    ['src/wire/ext-tasks/examples.json', extTasksExamples(arg('--ext-tasks'))],
  ];
  for (const [file, data] of out) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), `${JSON.stringify(data, null, 2)}\n`);
    console.log(`wrote ${file}`);
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main(process.argv.slice(2));
