// Administration pages: an overview of the server and the library, and the runtime settings
// editor (which talks to the PUT/DELETE settings API from the page).
import type { FastifyInstance } from 'fastify';
import { h, type SafeHtml } from '../../core/html/jsx.js';
import { registerPage, type Layout } from '../../core/http/pages.js';
import type { Library } from '../context.js';
import type { AdminStats } from './stats.js';

function Figures(props: { rows: [string, string | number][] }): SafeHtml {
  return (
    <dl class="timestamps">
      {props.rows.map(([k, v]) => [<dt>{k}</dt>, <dd>{String(v)}</dd>])}
    </dl>
  );
}

export function registerAdminPages(app: FastifyInstance, layout: Layout, lib: Library, stats: AdminStats): void {
  registerPage(app, layout, {
    path: '/admin/overview',
    needs: 'system',
    load: async () => ({ pageTitle: 'Overview', server: await stats.server(), data: await stats.data() }),
    view: (ctx) => {
      const s = ctx.server;
      const d = ctx.data;
      const loc = d.storageLocations[0] as Record<string, unknown>;
      return (
        <div>
          <section class="card" data-testid="server-stats">
            <h2>Server</h2>
            <Figures
              rows={[
                ['Uptime', s.uptime],
                ['Memory (heap / RSS)', `${s.heapAllocFmt} / ${s.sysFmt}`],
                ['Runtime', s.goVersion],
                ['Database', `${s.dbType}${s.dbFileSizeBytes ? ` (${s.dbFileSizeFmt})` : ''}`],
                ['Active downloads', s.downloadQueueLength],
              ]}
            />
          </section>
          <section class="card">
            <h2>Library</h2>
            <ul class="cards">
              {Object.entries(d.entities).map(([k, n]) => (
                <li class="card">
                  <strong>{n}</strong> {k.replace(/([A-Z])/g, ' $1').toLowerCase()}
                </li>
              ))}
            </ul>
          </section>
          <section class="card">
            <h2>Storage</h2>
            <Figures
              rows={[
                ['Files', d.storageTotalFmt],
                ['Of which versions', d.totalVersionStorageFormatted],
                ['Disk free', String(loc.diskFreeBytesFmt ?? loc.usageError ?? '?')],
                ['Folder', String(loc.path)],
              ]}
            />
          </section>
          <p>
            <a href="/admin/settings">Runtime settings</a> · <a href="/admin/storage">Storage reconciliation</a> · <a href="/downloads">Downloads</a> · <a href="/logs">Logs</a>
          </p>
        </div>
      );
    },
  });

  registerPage(app, layout, {
    path: '/admin/settings',
    needs: 'system',
    load: async () => ({ pageTitle: 'Settings', settings: lib.settings.list() }),
    view: (ctx) => (
      <div>
        <script src="/public/settings.js"></script>
        <table class="list" data-testid="settings">
          <thead>
            <tr>
              <th>Setting</th>
              <th>Value</th>
              <th>Boot default</th>
              <th></th>
            </tr>
          </thead>
          <tbody>
            {ctx.settings.map((s) => (
              <tr x-data={`setting(${JSON.stringify({ key: s.key, type: s.type, current: s.current })})`}>
                <td>
                  <strong>{s.label}</strong> <small class="empty">{s.group}</small>
                  <br />
                  <small>{s.description}</small>
                </td>
                <td>
                  <input type="text" x-model="value" aria-label={s.label} />
                  <input type="text" x-model="reason" placeholder="reason (optional)" aria-label="reason" />
                  <small class="error-banner" x-show="error" x-text="error"></small>
                </td>
                <td>
                  {String(s.bootDefault)}
                  {s.overridden ? <small> · overridden</small> : null}
                </td>
                <td>
                  <button type="button" {...{ '@click': 'save()' }}>
                    Save
                  </button>{' '}
                  <button type="button" {...{ '@click': 'reset()' }}>
                    Reset
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <p class="empty">Durations are shown in nanoseconds and entered with Go units (30s, 15m, 1h); sizes accept K, M, G, T.</p>
      </div>
    ),
  });
}
