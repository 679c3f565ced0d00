// Administration pages: an overview of the server and the library, and the runtime settings
// editor (which talks to the PUT/DELETE settings API from the page).
import type { FastifyInstance } from 'fastify';
import { h, type SafeHtml } from '../../core/html/jsx.js';
import { registerPage, type Layout } from '../../core/http/pages.js';
import type { Library } from '../context.js';
import type { AdminStats } from './stats.js';
import type { SettingView } from './settings.js';
import { humanDuration, humanSize, sizeInput } from '../ui/units.js';

type Control = 'switch' | 'duration' | 'size' | 'text';

/** How a setting is edited: 0/1 integers are switches, durations and sizes use human units. */
function controlOf(s: SettingView): Control {
  if (s.type === 'int' && s.minNumeric === 0 && s.maxNumeric === 1) return 'switch';
  if (s.type === 'duration') return 'duration';
  if (s.type === 'int64' && /size/.test(s.key)) return 'size';
  return 'text';
}

/** A value as the person reads it ("7d", "64 MiB", "on"). */
function shown(s: SettingView, v: number | string): string {
  const kind = controlOf(s);
  if (typeof v !== 'number') return v === '' ? '(empty)' : v;
  if (kind === 'switch') return v === 1 ? 'on' : 'off';
  if (kind === 'duration') return humanDuration(v);
  if (kind === 'size') return v === 0 ? 'unlimited' : humanSize(v);
  return String(v);
}

/** The value as typed into the input ("7d", "64M"). */
function editable(s: SettingView): string {
  const kind = controlOf(s);
  const v = s.current;
  if (typeof v !== 'number') return v;
  if (kind === 'duration') return humanDuration(v);
  if (kind === 'size') return sizeInput(v);
  return String(v);
}

function bounds(s: SettingView): string | null {
  if (s.minNumeric === undefined || s.maxNumeric === undefined || controlOf(s) === 'switch') return null;
  return `from ${shown(s, s.minNumeric)} to ${shown(s, s.maxNumeric)}${s.allowZero ? ' (or 0)' : ''}`;
}

const HINTS: Record<Control, string> = {
  switch: '',
  duration: 'e.g. 30s, 15m, 48h, 7d',
  size: 'e.g. 512K, 64M, 2G',
  text: '',
};

function SettingsView(props: { settings: SettingView[] }): SafeHtml {
  const groups = [...new Set(props.settings.map((s) => s.group))];
  return (
    <div class="settings" data-testid="settings">
      <script src="/public/settings.js"></script>
      <p class="hint">Changes apply at once, without a restart, and are written to the log with the reason you give. Reset returns a setting to its boot default.</p>
      {groups.map((g) => (
        <section class="card">
          <h2>{g.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase())}</h2>
          {props.settings
            .filter((s) => s.group === g)
            .map((s) => {
              const kind = controlOf(s);
              const id = `setting-${s.key}`;
              return (
                <div class="setting" data-key={s.key} x-data={`setting(${JSON.stringify({ key: s.key, kind, value: editable(s) })})`}>
                  <div class="setting-text">
                    <label for={id}>
                      <strong>{s.label}</strong>
                    </label>
                    {s.overridden ? <span class="badge">changed</span> : null}
                    <br />
                    <small>{s.description}</small>
                    <br />
                    <small class="hint">
                      Default {shown(s, s.bootDefault)}
                      {bounds(s) ? `; ${bounds(s)}` : ''}
                    </small>
                  </div>
                  <div class="setting-control">
                    {kind === 'switch' ? (
                      <label class="switch">
                        <input type="checkbox" role="switch" id={id} checked={s.current === 1} {...{ '@change': "value = $event.target.checked ? '1' : '0'; save()" }} />
                        <span class="slider" aria-hidden="true"></span>
                      </label>
                    ) : (
                      <input type="text" id={id} value={editable(s)} x-model="value" placeholder={HINTS[kind]} {...{ '@keydown.enter.prevent': 'save()' }} />
                    )}
                    <input type="text" x-model="reason" placeholder="reason (optional)" aria-label={`Reason for changing ${s.label}`} />
                    {kind === 'switch' ? null : (
                      <button type="button" {...{ '@click': 'save()' }}>
                        Save
                      </button>
                    )}
                    {s.overridden ? (
                      <button type="button" class="secondary" {...{ '@click': 'reset()' }}>
                        Reset
                      </button>
                    ) : null}
                    <small class="error-banner" role="alert" x-show="error" x-text="error" x-cloak=""></small>
                  </div>
                </div>
              );
            })}
        </section>
      ))}
    </div>
  );
}

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
    view: (ctx) => <SettingsView settings={ctx.settings} />,
  });
}
