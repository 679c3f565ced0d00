// Generated documentation pages (library-plugins.md §20.3): /plugins/<plugin>/docs lists the
// documented items (shortcodes with a description first, then mah.doc entries), and
// /plugins/<plugin>/docs/<item> shows one with its attributes, examples, notes and neighbours.
// Plugin-supplied text is escaped; only a live example's rendered output is the plugin's HTML.
import { h, raw, type SafeHtml } from '../../core/html/jsx.js';
import type { Principal } from '../auth/principal.js';
import type { CataloguedPlugin } from './catalogue.js';
import type { DocEntry } from './registry.js';
import { callRender, LuaError, settingsTable } from './render-call.js';
import type { ShortcodeEntry } from './render-registry.js';

interface DocItem extends DocEntry {
  shortcode?: ShortcodeEntry;
}

function itemsOf(plugin: CataloguedPlugin): DocItem[] {
  const shortcodes = [...plugin.registry.render.shortcodes.values()].filter((s) => s.description !== '').map((s) => ({ ...s, category: 'Shortcode', shortcode: s }));
  const docs = plugin.registry.docs.filter((d) => d.description !== '');
  return [...shortcodes, ...docs];
}

function str(v: unknown): string {
  return typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v);
}

function field(o: unknown, key: string): unknown {
  return o !== null && typeof o === 'object' ? (o as Record<string, unknown>)[key] : undefined;
}

/** Renders an example live when its code is exactly one use of this shortcode (§20.3). */
async function liveExample(plugin: CataloguedPlugin, item: DocItem, example: unknown, principal: Principal | undefined, log: (m: string) => void): Promise<string | null> {
  const sc = item.shortcode;
  const code = str(field(example, 'code')).trim();
  if (!sc) return null;
  const full = `plugin:${plugin.name}:${sc.name}`;
  const m = new RegExp(`^\\[${full.replace(/[-:]/g, '\\$&')}((?:\\s+[A-Za-z][A-Za-z0-9_-]*=(?:"[^"]*"|'[^']*'|[^\\s\\]"']+))*)\\s*\\]$`).exec(code);
  if (!m) return null;
  const attrs: Record<string, string> = {};
  for (const a of m[1].matchAll(/([A-Za-z][A-Za-z0-9_-]*)=(?:"([^"]*)"|'([^']*)'|([^\s\]"']+))/g)) attrs[a[1]] = a[2] ?? a[3] ?? a[4] ?? '';
  const data = field(example, 'example_data');
  const ctx = { entity_type: 'group', entity_id: 0, value: data !== null && typeof data === 'object' ? data : {}, attrs, settings: settingsTable(plugin), inner_content: '', is_block: false, preview: true };
  try {
    const result = await callRender(sc.render, ctx, { entry: `shortcode ${full} (docs preview)`, principal });
    return typeof result === 'string' ? result : null;
  } catch (e) {
    if (!(e instanceof LuaError)) throw e;
    log(`plugins: ${e.message}`);
    return null;
  }
}

/** The docs page for `path` ("docs" or "docs/<item>"), or null when there is none. */
export async function docsPage(plugin: CataloguedPlugin, path: string, principal: Principal | undefined, log: (m: string) => void): Promise<{ title: string; body: SafeHtml } | null> {
  const items = itemsOf(plugin);
  if (items.length === 0) return null;
  const base = `/plugins/${plugin.name}/docs`;
  if (path === 'docs') {
    return {
      title: `${plugin.name} documentation`,
      body: (
        <div class="plugin-docs">
          <ul class="plugin-docs-index">
            {items.map((i) => (
              <li>
                <a href={`${base}/${i.name}`}>{i.label}</a> {i.category ? <span class="badge">{i.category}</span> : null} — {i.description}
              </li>
            ))}
          </ul>
        </div>
      ),
    };
  }
  const at = items.findIndex((i) => `docs/${i.name}` === path);
  if (at < 0) return null;
  const item = items[at];
  const prev = items[at - 1];
  const next = items[at + 1];
  const examples = await Promise.all(item.examples.map(async (ex) => ({ ex, live: await liveExample(plugin, item, ex, principal, log) })));
  return {
    title: `${plugin.name} - ${item.label}`,
    body: (
      <article class="plugin-docs-item">
        {item.shortcode ? <p><code>[plugin:{plugin.name}:{item.name}]</code></p> : null}
        <p>{item.description}</p>
        {item.attrs.length ? (
          <section>
            <h2>Attributes</h2>
            <table>
              <thead>
                <tr><th>Name</th><th>Type</th><th>Required</th><th>Default</th><th>Description</th></tr>
              </thead>
              <tbody>
                {item.attrs.map((a) => (
                  <tr>
                    <td>{str(field(a, 'name'))}</td>
                    <td>{str(field(a, 'type'))}</td>
                    <td>{field(a, 'required') === true ? 'yes' : 'no'}</td>
                    <td>{str(field(a, 'default'))}</td>
                    <td>{str(field(a, 'description'))}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </section>
        ) : null}
        {examples.length ? (
          <section>
            <h2>Examples</h2>
            {examples.map(({ ex, live }) => (
              <div class="plugin-docs-example">
                {str(field(ex, 'title')) ? <h3>{str(field(ex, 'title'))}</h3> : null}
                <pre><code>{str(field(ex, 'code'))}</code></pre>
                {str(field(ex, 'notes')) ? <p>{str(field(ex, 'notes'))}</p> : null}
                {live !== null ? <div class="plugin-docs-preview">{raw(live)}</div> : null}
              </div>
            ))}
          </section>
        ) : null}
        {item.notes.length ? (
          <section>
            <h2>Notes</h2>
            <ul>{item.notes.map((n) => <li>{n}</li>)}</ul>
          </section>
        ) : null}
        <nav class="plugin-docs-nav">
          <a href={base}>All items</a>
          {prev ? <a href={`${base}/${prev.name}`}>Previous: {prev.label}</a> : null}
          {next ? <a href={`${base}/${next.name}`}>Next: {next.label}</a> : null}
        </nav>
      </article>
    ),
  };
}
