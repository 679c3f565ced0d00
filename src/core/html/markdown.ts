// A small Markdown renderer for descriptions and text blocks (GitHub-flavoured subset: headings,
// paragraphs with hard line breaks, emphasis, strikethrough, code, block quotes, lists with task
// items, pipe tables, rules, links, images and bare-URL autolinks). Safety comes first: every
// piece of user text is escaped as it is written, raw HTML is shown as text, and link and image
// targets are kept only for http(s), mailto and same-site addresses, so nothing a user types can
// run script in the page. Callers plug in how `@[type:id:name]` mentions render.
import { escapeHtml } from './jsx.js';

export interface Mention {
  type: 'group' | 'note' | 'resource' | 'tag';
  id: number;
  name: string;
}

export interface MarkdownOptions {
  /** HTML for one mention; `alone` when it is the only thing on its line. Default: the escaped name. */
  mention?: (m: Mention, alone: boolean) => string;
}

/** `@[type:id:display name]` (companion §12.2): type case-insensitive, positive id, name without `]`. */
export const MENTION = /@\[(group|note|resource|tag):([1-9][0-9]{0,15}):([^\]\n]*)\]/i;

export function parseMention(m: RegExpExecArray): Mention {
  return { type: m[1].toLowerCase() as Mention['type'], id: Number(m[2]), name: m[3] };
}

/** Every mention in a text, duplicates removed (same type and id). */
export function mentionsIn(text: string): Mention[] {
  const seen = new Map<string, Mention>();
  for (const m of text.matchAll(new RegExp(MENTION.source, 'gi'))) {
    const found = parseMention(m as RegExpExecArray);
    seen.set(`${found.type}:${found.id}`, seen.get(`${found.type}:${found.id}`) ?? found);
  }
  return [...seen.values()];
}

/** A link target that cannot run script: http(s), mailto, or a path/fragment of this site. */
export function safeUrl(url: string): string | null {
  const u = url.trim();
  // Control characters and whitespace inside a scheme are how `java\nscript:` slips through.
  // eslint-disable-next-line no-control-regex -- refusing control characters is the point
  if (/[\u0000-\u001f\u007f]/.test(u)) return null;
  if (/^(https?:|mailto:)/i.test(u)) return u;
  if (/^[a-z][a-z0-9+.-]*:/i.test(u)) return null;
  if (u.startsWith('//')) return null;
  return u;
}

const attr = (s: string) => escapeHtml(s);

class Inline {
  constructor(private readonly opts: MarkdownOptions) {}

  render(text: string): string {
    let out = '';
    let i = 0;
    let plain = '';
    const flush = () => {
      out += escapeHtml(plain);
      plain = '';
    };
    while (i < text.length) {
      const rest = text.slice(i);
      const c = text[i];
      let m: RegExpExecArray | null;
      if (c === '\\' && i + 1 < text.length && /[\\`*_{}[\]()#+\-.!~|>@]/.test(text[i + 1])) {
        plain += text[i + 1];
        i += 2;
        continue;
      }
      if (c === '`' && (m = /^(`+)([\s\S]*?[^`])\1(?!`)/.exec(rest))) {
        flush();
        out += `<code>${escapeHtml(m[2].trim() || m[2])}</code>`;
        i += m[0].length;
        continue;
      }
      if (c === '@' && (m = new RegExp('^' + MENTION.source, 'i').exec(rest))) {
        flush();
        const mention = parseMention(m);
        out += this.opts.mention ? this.opts.mention(mention, false) : escapeHtml(mention.name);
        i += m[0].length;
        continue;
      }
      if (c === '!' && (m = /^!\[([^\]\n]*)\]\(([^()\s]*)(?:\s+"([^"\n]*)")?\)/.exec(rest))) {
        flush();
        const src = safeUrl(m[2]);
        out += src ? `<img src="${attr(src)}" alt="${attr(m[1])}"${m[3] ? ` title="${attr(m[3])}"` : ''} loading="lazy">` : escapeHtml(m[0]);
        i += m[0].length;
        continue;
      }
      if (c === '[' && (m = /^\[((?:[^\][]|\[[^\]]*\])*)\]\(([^()\s]*(?:\([^()\s]*\))?[^()\s]*)(?:\s+"([^"\n]*)")?\)/.exec(rest))) {
        flush();
        const href = safeUrl(m[2]);
        const label = this.render(m[1]);
        out += href ? `<a href="${attr(href)}"${m[3] ? ` title="${attr(m[3])}"` : ''}${/^https?:/i.test(href) ? ' rel="noopener noreferrer nofollow"' : ''}>${label}</a>` : label;
        i += m[0].length;
        continue;
      }
      if ((c === 'h' || c === 'H') && (i === 0 || /[\s(]/.test(text[i - 1])) && (m = /^https?:\/\/[^\s<>"]+/i.exec(rest))) {
        flush();
        const url = m[0].replace(/[.,;:!?)]+$/, '');
        out += `<a href="${attr(url)}" rel="noopener noreferrer nofollow">${escapeHtml(url)}</a>`;
        i += url.length;
        continue;
      }
      if ((c === '*' || c === '_') && (m = /^(\*\*|__)(?=\S)([\s\S]*?\S)\1/.exec(rest))) {
        flush();
        out += `<strong>${this.render(m[2])}</strong>`;
        i += m[0].length;
        continue;
      }
      if (c === '~' && (m = /^~~(?=\S)([\s\S]*?\S)~~/.exec(rest))) {
        flush();
        out += `<del>${this.render(m[1])}</del>`;
        i += m[0].length;
        continue;
      }
      if ((c === '*' || (c === '_' && (i === 0 || !/\w/.test(text[i - 1])))) && (m = (c === '*' ? /^\*(?=\S)([^*]*?\S)\*/ : /^_(?=\S)([^_]*?\S)_(?!\w)/).exec(rest))) {
        flush();
        out += `<em>${this.render(m[1])}</em>`;
        i += m[0].length;
        continue;
      }
      if (c === '\n') {
        flush();
        out += '<br>\n';
        i++;
        continue;
      }
      plain += c;
      i++;
    }
    flush();
    return out;
  }
}

function slug(text: string, used: Map<string, number>): string {
  const base =
    text
      .toLowerCase()
      .replace(/<[^>]*>/g, '')
      .replace(/[^\p{L}\p{N}\s-]/gu, '')
      .trim()
      .replace(/\s+/g, '-') || 'section';
  const n = used.get(base) ?? 0;
  used.set(base, n + 1);
  return n === 0 ? base : `${base}-${n}`;
}

const LIST_ITEM = /^(\s{0,3})([-*+]|\d{1,9}[.)])\s+(.*)$/;
const FENCE = /^\s{0,3}(```+|~~~+)\s*([\w+-]*)/;
const TABLE_SEP = /^\s*\|?\s*:?-{1,}:?\s*(\|\s*:?-{1,}:?\s*)*\|?\s*$/;

function cells(line: string): string[] {
  let l = line.trim();
  if (l.startsWith('|')) l = l.slice(1);
  if (l.endsWith('|') && !l.endsWith('\\|')) l = l.slice(0, -1);
  return l.split(/(?<!\\)\|/).map((c) => c.trim().replace(/\\\|/g, '|'));
}

/** Renders Markdown to safe HTML. */
export function renderMarkdown(source: string, opts: MarkdownOptions = {}): string {
  const inline = new Inline(opts);
  const ids = new Map<string, number>();
  const lines = source.replace(/\r\n?/g, '\n').split('\n');
  return blocks(lines, inline, ids, opts);
}

function blocks(lines: string[], inline: Inline, ids: Map<string, number>, opts: MarkdownOptions): string {
  const out: string[] = [];
  let i = 0;
  const isBlank = (l: string | undefined) => l === undefined || l.trim() === '';
  const startsBlock = (l: string, next: string | undefined) =>
    /^\s{0,3}(#{1,6})(\s|$)/.test(l) || FENCE.test(l) || /^\s{0,3}>/.test(l) || LIST_ITEM.test(l) || /^\s{0,3}([-*_])(\s*\1){2,}\s*$/.test(l) || (l.includes('|') && next !== undefined && TABLE_SEP.test(next) && next.includes('-'));
  while (i < lines.length) {
    const line = lines[i];
    if (isBlank(line)) {
      i++;
      continue;
    }
    let m: RegExpExecArray | null;
    if ((m = FENCE.exec(line))) {
      const fence = m[1];
      const body: string[] = [];
      i++;
      while (i < lines.length && !lines[i].trim().startsWith(fence)) body.push(lines[i++]);
      i++;
      const lang = m[2] ? ` class="language-${attr(m[2])}"` : '';
      out.push(`<pre><code${lang}>${escapeHtml(body.join('\n'))}</code></pre>`);
      continue;
    }
    if ((m = /^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line)) || (m = /^\s{0,3}(#{1,6})()\s*$/.exec(line))) {
      const level = m[1].length;
      const html = inline.render(m[2]);
      out.push(`<h${level} id="${attr(slug(html, ids))}">${html}</h${level}>`);
      i++;
      continue;
    }
    if (/^\s{0,3}([-*_])(\s*\1){2,}\s*$/.test(line)) {
      out.push('<hr>');
      i++;
      continue;
    }
    if (/^\s{0,3}>/.test(line)) {
      const body: string[] = [];
      while (i < lines.length && !isBlank(lines[i]) && (/^\s{0,3}>/.test(lines[i]) || body.length > 0)) {
        if (!/^\s{0,3}>/.test(lines[i]) && startsBlock(lines[i], lines[i + 1])) break;
        body.push(lines[i++].replace(/^\s{0,3}> ?/, ''));
      }
      out.push(`<blockquote>${blocks(body, inline, ids, opts)}</blockquote>`);
      continue;
    }
    if (line.includes('|') && i + 1 < lines.length && TABLE_SEP.test(lines[i + 1]) && lines[i + 1].includes('-')) {
      const head = cells(line);
      const aligns = cells(lines[i + 1]).map((c) => (c.startsWith(':') && c.endsWith(':') ? 'center' : c.endsWith(':') ? 'right' : c.startsWith(':') ? 'left' : ''));
      const style = (k: number) => (aligns[k] ? ` style="text-align:${aligns[k]}"` : '');
      i += 2;
      const rows: string[][] = [];
      while (i < lines.length && !isBlank(lines[i]) && lines[i].includes('|')) rows.push(cells(lines[i++]));
      out.push(
        `<table><thead><tr>${head.map((c, k) => `<th${style(k)}>${inline.render(c)}</th>`).join('')}</tr></thead>` +
          (rows.length ? `<tbody>${rows.map((r) => `<tr>${head.map((_, k) => `<td${style(k)}>${inline.render(r[k] ?? '')}</td>`).join('')}</tr>`).join('')}</tbody>` : '') +
          '</table>',
      );
      continue;
    }
    if ((m = LIST_ITEM.exec(line))) {
      const ordered = /\d/.test(m[2]);
      const indent = m[1].length;
      const start = ordered ? parseInt(m[2], 10) : 1;
      const items: string[][] = [];
      while (i < lines.length) {
        const l = lines[i];
        const item = LIST_ITEM.exec(l);
        if (item && item[1].length <= indent + 1 && /\d/.test(item[2]) === ordered) {
          items.push([item[3]]);
          i++;
          continue;
        }
        if (isBlank(l)) {
          // A blank line continues the list only when the next line is indented or another item.
          const next = lines[i + 1];
          if (next !== undefined && (/^\s{2,}\S/.test(next) || (LIST_ITEM.exec(next)?.[1].length ?? 99) <= indent + 1)) {
            items[items.length - 1].push('');
            i++;
            continue;
          }
          break;
        }
        if (/^\s{2,}\S/.test(l) || !startsBlock(l, lines[i + 1])) {
          items[items.length - 1].push(l.replace(/^\s{2,4}/, ''));
          i++;
          continue;
        }
        break;
      }
      const tag = ordered ? 'ol' : 'ul';
      const task = items.some((it) => /^\[[ xX]\]\s/.test(it[0]));
      const rendered = items.map((it) => {
        const t = /^\[([ xX])\]\s+/.exec(it[0]);
        const first = t ? it[0].slice(t[0].length) : it[0];
        const body = [first, ...it.slice(1)];
        const simple = !body.some((l) => isBlank(l)) && !body.slice(1).some((l, k) => startsBlock(l, body[k + 2]));
        const html = simple ? inline.render(body.join('\n')) : blocks(body, inline, ids, opts);
        const box = t ? `<input type="checkbox" disabled${t[1] !== ' ' ? ' checked' : ''} aria-label="${t[1] !== ' ' ? 'done' : 'not done'}"> ` : '';
        return `<li${t ? ' class="task-list-item"' : ''}>${box}${html}</li>`;
      });
      out.push(`<${tag}${task ? ' class="task-list"' : ''}${ordered && start !== 1 ? ` start="${start}"` : ''}>${rendered.join('')}</${tag}>`);
      continue;
    }
    const para: string[] = [];
    while (i < lines.length && !isBlank(lines[i]) && (para.length === 0 || !startsBlock(lines[i], lines[i + 1]))) para.push(lines[i++]);
    const text = para.join('\n').trim();
    const alone = new RegExp('^' + MENTION.source + '$', 'i').exec(text);
    if (alone && opts.mention) out.push(opts.mention(parseMention(alone), true));
    else out.push(`<p>${inline.render(text)}</p>`);
  }
  return out.join('\n');
}
