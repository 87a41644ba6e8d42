/**
 * The report as plain data, rendered to Markdown or HTML by `render.ts`. Inline content is typed
 * (text, code, link) so each renderer escapes it for its own syntax — no text is ever interpreted.
 */

/** One piece of inline content. */
export type Inline = string | { code: string } | { link: string; href: string } | { strong: string };

/** One block of a section. */
export type Block =
  | { kind: 'p'; content: Inline[] }
  | { kind: 'list'; items: Inline[][] }
  | { kind: 'table'; head: string[]; rows: Inline[][][] }
  | { kind: 'code'; lang: string; text: string };

/** One fixed section of the report. */
export interface Section {
  id: string;
  title: string;
  blocks: Block[];
}

/** The whole document: a title, a preamble and the fixed sections in order. */
export interface ReviewDocument {
  title: string;
  preamble: Block[];
  sections: Section[];
  /**
   * Where the lab is served (`http://localhost:5173/`): the renderers write every lab link
   * (`#/races/…`) as a complete address on it, so the links work from a saved file. Absent: links
   * stay as the lab's own hashes (relative to the page that shows the report).
   */
  linkBase?: string;
}

export const p = (...content: Inline[]): Block => ({ kind: 'p', content });
export const list = (items: Inline[][]): Block => ({ kind: 'list', items });
export const table = (head: string[], rows: Inline[][][]): Block => ({ kind: 'table', head, rows });
export const code = (text: string, lang = 'json'): Block => ({ kind: 'code', lang, text });
export const link = (text: string, href: string): Inline => ({ link: text, href });
export const c = (text: string): Inline => ({ code: text });
export const b = (text: string): Inline => ({ strong: text });
