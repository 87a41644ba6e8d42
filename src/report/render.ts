import type { Block, Inline, ReviewDocument } from './doc';

/**
 * Renders a review document as Markdown (GitHub-flavoured tables) or as a print-friendly HTML page
 * (minimal inline CSS). Both are pure; all text is escaped for its target syntax, so tool names,
 * reasons or transcript text can never inject markup.
 */

/** Escapes text for Markdown inline content (and for a table cell: `|` and newlines). */
export function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_[\]<>|#]/g, (ch) => `\\${ch}`).replace(/\r?\n/g, ' ');
}

/** A lab link (`#/…`) as a complete address on `base` (its own hash dropped); other links as they are. */
export function absoluteHref(href: string, base: string | undefined): string {
  if (!base || !href.startsWith('#')) return href;
  return `${base.split('#')[0]}${href}`;
}

function mdInline(parts: Inline[], base?: string): string {
  return parts
    .map((x) => {
      if (typeof x === 'string') return escapeMarkdown(x);
      if ('code' in x) {
        const t = x.code.replace(/\r?\n/g, ' ').replace(/\|/g, '\\|');
        const fence = t.includes('`') ? '``' : '`';
        return `${fence}${fence.length > 1 ? ' ' : ''}${t}${fence.length > 1 ? ' ' : ''}${fence}`;
      }
      if ('strong' in x) return `**${escapeMarkdown(x.strong)}**`;
      return `[${escapeMarkdown(x.link)}](${absoluteHref(x.href, base).replace(/[()\s]/g, encodeURIComponent)})`;
    })
    .join('');
}

function mdBlock(block: Block, base?: string): string {
  switch (block.kind) {
    case 'p':
      return mdInline(block.content, base);
    case 'list':
      return block.items.map((i) => `- ${mdInline(i, base)}`).join('\n');
    case 'code': {
      const fence = block.text.includes('```') ? '~~~~' : '```';
      return `${fence}${block.lang}\n${block.text}\n${fence}`;
    }
    case 'table':
      return [`| ${block.head.map(escapeMarkdown).join(' | ')} |`, `|${block.head.map(() => '---').join('|')}|`, ...block.rows.map((r) => `| ${r.map((cell) => mdInline(cell, base)).join(' | ')} |`)].join('\n');
  }
}

/** The document as Markdown: `# title`, the preamble, then `## section` per fixed section. */
export function renderMarkdown(doc: ReviewDocument): string {
  const md = (block: Block) => mdBlock(block, doc.linkBase);
  const out = [`# ${escapeMarkdown(doc.title)}`, ...doc.preamble.map(md)];
  for (const s of doc.sections) out.push(`## ${escapeMarkdown(s.title)}`, ...s.blocks.map(md));
  return `${out.join('\n\n')}\n`;
}

/** Escapes text for HTML element content and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch] as string);
}

/** Only same-page hashes and http(s) links become anchors; anything else is shown as text. */
const safeHref = (href: string) => /^(#|https?:\/\/)/.test(href);

function htmlInline(parts: Inline[], base?: string): string {
  return parts
    .map((x) => {
      if (typeof x === 'string') return escapeHtml(x);
      if ('code' in x) return `<code>${escapeHtml(x.code)}</code>`;
      if ('strong' in x) return `<strong>${escapeHtml(x.strong)}</strong>`;
      const href = absoluteHref(x.href, base);
      return safeHref(x.href) && safeHref(href) ? `<a href="${escapeHtml(href)}">${escapeHtml(x.link)}</a>` : escapeHtml(`${x.link} (${x.href})`);
    })
    .join('');
}

function htmlBlock(block: Block, base?: string): string {
  switch (block.kind) {
    case 'p':
      return `<p>${htmlInline(block.content, base)}</p>`;
    case 'list':
      return `<ul>${block.items.map((i) => `<li>${htmlInline(i, base)}</li>`).join('')}</ul>`;
    case 'code':
      return `<pre><code>${escapeHtml(block.text)}</code></pre>`;
    case 'table':
      return `<table><thead><tr>${block.head.map((h) => `<th>${escapeHtml(h)}</th>`).join('')}</tr></thead><tbody>${block.rows.map((r) => `<tr>${r.map((cell) => `<td>${htmlInline(cell, base)}</td>`).join('')}</tr>`).join('')}</tbody></table>`;
  }
}

const CSS =
  'body{font:14px/1.45 system-ui,sans-serif;max-width:60rem;margin:1.5rem auto;padding:0 1rem;color:#111}' +
  'h1{font-size:1.5rem}h2{font-size:1.15rem;margin-top:1.6rem;border-bottom:1px solid #ccc;page-break-after:avoid}' +
  'table{border-collapse:collapse;width:100%;margin:.5rem 0;page-break-inside:auto}th,td{border:1px solid #bbb;padding:.25rem .4rem;vertical-align:top;text-align:left}' +
  'th{background:#f2f2f2}tr{page-break-inside:avoid}pre{background:#f6f6f6;padding:.5rem;overflow-x:auto;white-space:pre-wrap}code{font-size:.9em}' +
  'a{color:#0645ad}@media print{a{color:#000}a[href*="#/"]::after{content:" (" attr(href) ")";font-size:.8em;color:#555}}';

/** The same document as one self-contained, print-friendly HTML page (inline CSS, no script). */
export function renderHtml(doc: ReviewDocument): string {
  const html = (block: Block) => htmlBlock(block, doc.linkBase);
  const body = [`<h1>${escapeHtml(doc.title)}</h1>`, ...doc.preamble.map(html)];
  for (const s of doc.sections) body.push(`<section id="${escapeHtml(s.id)}"><h2>${escapeHtml(s.title)}</h2>${s.blocks.map(html).join('\n')}</section>`);
  return `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(doc.title)}</title><style>${CSS}</style></head><body>\n${body.join('\n')}\n</body></html>\n`;
}
