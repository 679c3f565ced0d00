// A tiny server-side JSX runtime that renders straight to strings. Text and attribute values
// are escaped by default; only values wrapped with raw() are emitted verbatim, so templates
// cannot inject markup by accident.

export class SafeHtml {
  constructor(readonly html: string) {}
  toString(): string {
    return this.html;
  }
}

export type Child = SafeHtml | string | number | boolean | null | undefined | Child[];
type Props = Record<string, unknown> & { children?: Child };
type Component<P> = (props: P) => SafeHtml;

const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr']);

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Marks trusted, already-escaped markup. */
export function raw(html: string): SafeHtml {
  return new SafeHtml(html);
}

function renderChild(child: Child): string {
  if (child === null || child === undefined || child === false || child === true) return '';
  if (Array.isArray(child)) return child.map(renderChild).join('');
  if (child instanceof SafeHtml) return child.html;
  return escapeHtml(String(child));
}

function attrName(name: string): string {
  if (name === 'className') return 'class';
  if (name === 'htmlFor') return 'for';
  if (!/^[A-Za-z_:@.-][A-Za-z0-9_:@.-]*$/.test(name)) throw new Error(`invalid attribute name ${name}`);
  return name;
}

export function h(tag: string | Component<Props>, props: Props | null, ...children: Child[]): SafeHtml {
  const allProps: Props = { ...(props ?? {}) };
  if (children.length > 0) allProps.children = children;
  if (typeof tag === 'function') return tag(allProps);
  let attrs = '';
  for (const [name, value] of Object.entries(allProps)) {
    // __source/__self are added by development JSX transforms (vitest), never real attributes.
    if (name === 'children' || name === '__source' || name === '__self' || value === undefined || value === null || value === false) continue;
    attrs += value === true ? ` ${attrName(name)}` : ` ${attrName(name)}="${escapeHtml(String(value))}"`;
  }
  if (VOID.has(tag)) return new SafeHtml(`<${tag}${attrs}>`);
  return new SafeHtml(`<${tag}${attrs}>${renderChild(allProps.children)}</${tag}>`);
}

export function Fragment(props: { children?: Child }): SafeHtml {
  return new SafeHtml(renderChild(props.children));
}

export function render(node: Child): string {
  return renderChild(node);
}

// eslint-disable-next-line @typescript-eslint/no-namespace
export declare namespace h {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace JSX {
    type Element = SafeHtml;
    interface IntrinsicElements {
      [tag: string]: Record<string, unknown>;
    }
    interface ElementChildrenAttribute {
      children: unknown;
    }
  }
}
