// Shortcode syntax (companion §5.3): `[name attr="v" attr2='v' attr3=v]`, block form
// `[name …]…[/name]`. Unknown bracket text is left alone; every node keeps its source text.
import { LruMap } from '../../core/lru.js';

export interface TextNode {
  k: 'text';
  text: string;
}

export interface CodeNode {
  k: 'code';
  name: string;
  attrs: Record<string, string>;
  /** Present for the block form. */
  body?: Node[];
  /** Source of the opening tag (and, for unclosed blocks, what is rendered as a marker). */
  open: string;
  closed: boolean;
}

export type Node = TextNode | CodeNode;

const NAMES = new Set(['meta', 'property', 'mrql', 'conditional', 'link', 'each', 'item', 'partial', 'lazy', 'details', 'reload', 'else', 'elseif', 'header', 'footer']);
/** Names that take a body when a closing tag follows. */
const BLOCKS = new Set(['mrql', 'conditional', 'link', 'each', 'lazy', 'details', 'reload', 'header', 'footer']);
const PLUGIN = /^plugin:[a-z][a-z0-9_-]*:[a-z][a-z0-9_-]*$/;

export function knownName(name: string): boolean {
  return NAMES.has(name) || PLUGIN.test(name);
}

const TAG = /\[(\/?)([A-Za-z][A-Za-z0-9_-]*(?::[a-z][a-z0-9_-]*:[a-z][a-z0-9_-]*)?)((?:\s+[A-Za-z][A-Za-z0-9_-]*(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s\]"']+))?)*)\s*\]/g;
const ATTR = /([A-Za-z][A-Za-z0-9_-]*)(?:\s*=\s*("([^"]*)"|'([^']*)'|([^\s\]"']+)))?/g;

export function parseAttrs(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of text.matchAll(ATTR)) out[m[1]] = m[3] ?? m[4] ?? m[5] ?? 'true';
  return out;
}

interface Frame {
  node: CodeNode | null;
  children: Node[];
}

// A card template is the same text for every entity of a list: parsed trees are kept by text
// (they are never changed once built), the least recently used dropped first.
const PARSED_CACHE_SIZE = 256;
const PARSED_CACHE_MAX_TEXT = 64 * 1024;
const parsed = new LruMap<string, Node[]>(PARSED_CACHE_SIZE);

/** Parses text into nodes; a block opens only when its closing tag follows. */
export function parseShortcodes(text: string): Node[] {
  if (text.length > PARSED_CACHE_MAX_TEXT) return parseText(text);
  const hit = parsed.get(text);
  if (hit) return hit;
  const nodes = parseText(text);
  parsed.set(text, nodes);
  return nodes;
}

function parseText(text: string): Node[] {
  const root: Frame = { node: null, children: [] };
  const stack: Frame[] = [root];
  let last = 0;
  const pushText = (s: string) => {
    if (!s) return;
    const kids = stack[stack.length - 1].children;
    const prev = kids[kids.length - 1];
    if (prev?.k === 'text') prev.text += s;
    else kids.push({ k: 'text', text: s });
  };
  const closers = new Map<string, number[]>();
  for (const m of text.matchAll(TAG)) if (m[1] === '/') (closers.get(m[2]) ?? closers.set(m[2], []).get(m[2])!).push(m.index!);
  for (const m of text.matchAll(TAG)) {
    const [src, slash, name, attrText] = m;
    const at = m.index!;
    if (!knownName(name)) continue;
    pushText(text.slice(last, at));
    last = at + src.length;
    if (slash) {
      let idx = -1;
      for (let i = stack.length - 1; i > 0; i--) {
        if (stack[i].node?.name === name) {
          idx = i;
          break;
        }
      }
      if (idx <= 0) {
        pushText(src);
        continue;
      }
      while (stack.length > idx + 1) unwind(stack);
      const frame = stack.pop()!;
      frame.node!.body = frame.children;
      frame.node!.closed = true;
      stack[stack.length - 1].children.push(frame.node!);
      continue;
    }
    const node: CodeNode = { k: 'code', name, attrs: parseAttrs(attrText), open: src, closed: false };
    const blockable = BLOCKS.has(name) || PLUGIN.test(name);
    const hasCloser = blockable && (closers.get(name) ?? []).some((p) => p > at);
    if (hasCloser) stack.push({ node, children: [] });
    else stack[stack.length - 1].children.push(node);
  }
  pushText(text.slice(last));
  while (stack.length > 1) unwind(stack);
  return root.children;
}

/** An opening tag whose close never came: it becomes inline and its children follow it. */
function unwind(stack: Frame[]): void {
  const frame = stack.pop()!;
  const parent = stack[stack.length - 1].children;
  parent.push(frame.node!);
  for (const c of frame.children) parent.push(c);
}

/** Splits a body at top-level dividers named in `names` (e.g. else, elseif). */
export function splitAt(body: Node[], names: string[]): { divider: CodeNode | null; nodes: Node[] }[] {
  const parts: { divider: CodeNode | null; nodes: Node[] }[] = [{ divider: null, nodes: [] }];
  for (const n of body) {
    if (n.k === 'code' && !n.body && names.includes(n.name)) parts.push({ divider: n, nodes: [] });
    else parts[parts.length - 1].nodes.push(n);
  }
  return parts;
}

/** Source text of nodes (used for [lazy] bodies and unknown contexts). */
export function sourceOf(nodes: Node[]): string {
  return nodes.map((n) => (n.k === 'text' ? n.text : n.body ? `${n.open}${sourceOf(n.body)}[/${n.name}]` : n.open)).join('');
}

/**
 * Shortcode tags swapped for inert words while other text is processed (descriptions go
 * through Markdown first, companion §5.2 item 6, which would escape their quotes or read
 * `[…]` as link text); `restore` puts the tags back. Only recognised names are swapped, so
 * plugin shortcodes take the same path as the built-in ones.
 */
export function protectShortcodes(text: string): { text: string; count: number; restore(out: string): string } {
  const nonce = Math.random().toString(36).slice(2, 8).replace(/[^a-z]/g, 'q');
  const tags: string[] = [];
  const guarded = text.replace(TAG, (src: string, _slash: string, name: string) => {
    if (!knownName(name)) return src;
    tags.push(src);
    return `SC${nonce}x${tags.length - 1}x`;
  });
  const token = new RegExp(`SC${nonce}x(\\d+)x`, 'g');
  return { text: guarded, count: tags.length, restore: (out) => out.replace(token, (_m, i: string) => tags[Number(i)]) };
}
