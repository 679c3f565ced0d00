// Plugin pages (library-plugins.md §20): the management page /plugins/manage, plugin-served
// pages /plugins/<plugin>/<path> inside the layout, static assets under public/, and the
// Plugins menu. Plugin HTML is inserted as the plugin returns it (pages are a trusted surface).
import { realpathSync, statSync, createReadStream } from 'node:fs';
import { extname, join, resolve, sep } from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { h, raw, type SafeHtml } from '../../core/html/jsx.js';
import { registerPage, type Layout } from '../../core/http/pages.js';
import { wantsJson } from '../../core/http/respond.js';
import { LuaError } from '../../core/lua/index.js';
import { isScoped } from '../auth/principal.js';
import { actorOf } from '../http/routes.js';
import { actorFor, invocations } from './invocation.js';
import type { PluginManager, PluginRecord } from './manager.js';
import { fieldsOf, headersOf, principalTable, queryOf } from './request.js';
import { docsPage } from './docs-pages.js';

export const PAGE_BUDGET_MS = 30_000;

const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.txt': 'text/plain; charset=utf-8',
  '.woff2': 'font/woff2',
};

function Panel(props: { title: string; text?: string }) {
  return (
    <div class="error-banner" role="alert">
      <strong>{props.title}</strong>
      {props.text ? <p>{props.text}</p> : null}
    </div>
  );
}

function SettingsForm(props: { rec: PluginRecord }) {
  const { rec } = props;
  if (rec.settings.length === 0) return null;
  return (
    <form method="post" action={`/v1/plugin/settings?name=${encodeURIComponent(rec.name)}`} class="plugin-settings">
      <h3>Settings</h3>
      {rec.settings.map((s) => {
        const value = rec.values[s.name] ?? s.default;
        const label = `${s.label}${s.required ? ' (required)' : ''}`;
        if (s.type === 'boolean') {
          return (
            <label class="field checkbox">
              <input type="hidden" name={s.name} value="false" />
              <input type="checkbox" name={s.name} value="true" checked={value === true} /> {label}
            </label>
          );
        }
        if (s.type === 'select') {
          return (
            <label class="field">
              <span>{label}</span>
              <select name={s.name}>
                {(s.options ?? []).map((o) => (
                  <option value={o} selected={value === o}>
                    {o}
                  </option>
                ))}
              </select>
            </label>
          );
        }
        return (
          <label class="field">
            <span>{label}</span>
            <input type={s.type === 'password' ? 'password' : s.type === 'number' ? 'number' : 'text'} name={s.name} value={value === undefined || value === null ? '' : String(value)} step={s.type === 'number' ? 'any' : undefined} />
          </label>
        );
      })}
      <button type="submit">Save settings</button>
    </form>
  );
}

function PluginCard(props: { rec: PluginRecord }) {
  const { rec } = props;
  const button = (action: string, label: string, extra: Record<string, string> = {}) => (
    <form method="post" action={`/v1/plugin/${action}`} class="inline">
      <input type="hidden" name="name" value={rec.name} />
      {Object.entries(extra).map(([k, v]) => (
        <input type="hidden" name={k} value={v} />
      ))}
      <button type="submit">{label}</button>
    </form>
  );
  return (
    <article class="card plugin-card" data-plugin={rec.name}>
      <h2>
        {rec.name} {rec.version ? <small>{rec.version}</small> : null} <span class="badge">{rec.enabled ? 'enabled' : 'disabled'}</span>
      </h2>
      {rec.description ? <p>{rec.description}</p> : null}
      <p>{rec.legacy ? 'No manifest: this plugin runs with full access.' : `API version ${rec.api_version}`}</p>
      <details>
        <summary>What it may do ({rec.capabilities.length})</summary>
        <ul>
          {rec.capabilities.map((c) => (
            <li>{rec.capability_labels[c]}</li>
          ))}
          {rec.network.length ? <li>Network: {rec.network.join(', ')}</li> : null}
          {rec.allow_private_hosts ? <li>May reach private addresses named in its network list</li> : null}
          {rec.dependencies.length ? <li>Needs: {rec.dependencies.join(', ')}</li> : null}
        </ul>
      </details>
      <div class="actions">
        {rec.enabled ? button('disable', 'Disable') : button('enable', 'Enable')}
        {rec.allow_scoped_principals ? button('scopedAccess', 'Close to group-limited accounts', { allowed: 'no' }) : button('scopedAccess', 'Open to group-limited accounts', { allowed: 'yes' })}
        {rec.enabled ? null : button('purge-data', 'Delete its stored data')}
      </div>
      <SettingsForm rec={rec} />
    </article>
  );
}

const DONE_MESSAGES: Record<string, string> = {
  enable: 'Plugin enabled.',
  disable: 'Plugin disabled.',
  settings: 'Settings saved.',
  'purge-data': 'Stored data deleted.',
  scopedAccess: 'Access for group-limited accounts changed.',
};

export function registerPluginPages(app: FastifyInstance, layout: Layout, manager: PluginManager | null, log: (m: string) => void): void {
  registerPage(app, layout, {
    path: '/plugins/manage',
    needs: 'system',
    load: async (req) => {
      const done = (req.query as Record<string, unknown>).done;
      return { pageTitle: 'Plugins', plugins: manager ? await manager.list() : [], done: typeof done === 'string' ? (DONE_MESSAGES[done] ?? null) : null };
    },
    view: (ctx) => (
      <div>
        {ctx.done ? (
          <div class="success-banner" role="status">
            {ctx.done}
          </div>
        ) : null}
        {manager ? null : <p>The plugin system is turned off (-plugins-disabled).</p>}
        {manager && ctx.plugins.length === 0 ? <p>No plugins were found in the plugin directory.</p> : null}
        {ctx.plugins.map((rec) => (
          <PluginCard rec={rec} />
        ))}
      </div>
    ),
  });

  if (!manager) return;
  const serve = (req: FastifyRequest, reply: FastifyReply) => servePluginPath(req, reply, manager, layout, log);
  app.get('/plugins/*', { config: { needs: 'read' } }, serve);
  app.post('/plugins/*', { config: { needs: 'write' } }, serve);
}

function split(req: FastifyRequest): { name: string; path: string } {
  const pathname = decodeURIComponent(req.url.split('?')[0]).slice('/plugins/'.length);
  const slash = pathname.indexOf('/');
  return slash < 0 ? { name: pathname, path: '' } : { name: pathname.slice(0, slash), path: pathname.slice(slash + 1) };
}

async function servePluginPath(req: FastifyRequest, reply: FastifyReply, manager: PluginManager, layout: Layout, log: (m: string) => void): Promise<FastifyReply> {
  const { name, path } = split(req);
  if (isScoped(req.principal) && !manager.openToScoped(name)) return reply.code(403).type('text/plain; charset=utf-8').send('this plugin is not available to group-limited accounts');
  const plugin = manager.get(name);
  if (path === 'public' || path.startsWith('public/')) return serveAsset(req, reply, plugin?.dir, path.slice('public'.length + 1));
  const page = plugin?.registry.pages.get(path);
  const render = async (pageTitle: string, body: SafeHtml, json: Record<string, unknown>) => {
    if (wantsJson(req)) return reply.type('application/json').send({ pageTitle, plugin: name, path, ...json });
    await layout.prepare?.(req);
    return reply.type('text/html; charset=utf-8').send(`<!doctype html>\n${layout({ pageTitle }, body, req).html}`);
  };
  const docs = plugin && !page && (path === 'docs' || path.startsWith('docs/')) ? await docsPage(plugin, path, req.principal, log) : null;
  if (docs) return render(docs.title, docs.body, { pluginContent: docs.body.html });
  if (!plugin || !page) return render('Page not found', <Panel title="Page not found" />, { pluginError: 'Page not found' });
  let params = {};
  let body: string | undefined;
  if (req.method === 'POST' && req.body && typeof req.body === 'object' && !Buffer.isBuffer(req.body)) {
    const form = new URLSearchParams();
    for (const [k, v] of Object.entries(req.body as Record<string, unknown>)) for (const item of Array.isArray(v) ? v : [v]) form.append(k, String(item));
    params = fieldsOf(form);
    body = form.toString() || undefined;
  } else if (typeof req.body === 'string' && req.body !== '') body = req.body;
  const ctx: Record<string, unknown> = { path: req.url, method: req.method, query: queryOf(req), params, headers: headersOf(req), principal: principalTable(req.principal) };
  if (body !== undefined) ctx.body = body;
  const abort = new AbortController();
  req.raw.once('close', () => {
    if (!reply.sent) abort.abort();
  });
  try {
    const [result] = await invocations.run({ actor: actorFor(req.principal), origin: actorOf(req).origin }, () =>
      page.handler.call([ctx], { entry: `page ${path}`, budgetMs: PAGE_BUDGET_MS, signal: abort.signal }),
    );
    const html = typeof result === 'string' ? result : '';
    return render(`${name} - ${path}`, <div class="plugin-page">{raw(html)}</div>, { pluginContent: html });
  } catch (e) {
    if (!(e instanceof LuaError)) throw e;
    const message = e.kind === 'abandoned' ? 'plugin was busy and the request was abandoned' : e.kind === 'unavailable' ? `plugin ${name} is no longer available` : e.luaMessage;
    log(`plugins: ${e.message}`);
    return render(`${name} - ${path}`, <Panel title="This plugin page failed" text={`page handler error: ${message}`} />, { pluginError: `page handler error: ${message}` });
  }
}

/** public/<file> of a loaded plugin, contained in that directory (§20.4). */
function serveAsset(req: FastifyRequest, reply: FastifyReply, dir: string | undefined, rest: string): FastifyReply {
  const missing = () => reply.code(404).type('text/plain; charset=utf-8').send('not found');
  if (!dir || rest === '' || rest.endsWith('/')) return missing();
  try {
    const root = realpathSync(resolve(dir, 'public'));
    const file = realpathSync(resolve(root, rest));
    if (!file.startsWith(root + sep) || !statSync(file).isFile()) return missing();
    const type = CONTENT_TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream';
    reply.type(type).header('content-length', statSync(file).size);
    if (req.method === 'HEAD') return reply.send();
    return reply.send(createReadStream(join(file)));
  } catch {
    return missing();
  }
}
