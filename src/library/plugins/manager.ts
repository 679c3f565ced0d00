// The plugin manager (library-plugins.md §8): the discovered list, enable with consent and
// dependencies, disable with revocation, settings, purge, scoped access, and start-up
// activation. One LoadedPlugin per enabled plugin holds its VM and everything it registered.
import { badRequest, HttpError, notFound } from '../../core/http/errors.js';
import { LuaVm } from '../../core/lua/index.js';
import { bool, parseJson } from '../../core/db/values.js';
import type { AuditLog } from '../audit/service.js';
import type { Principal } from '../auth/principal.js';
import { capabilityLabels, type CapabilityId } from './capabilities.js';
import { CorruptGrantsError, grantsOf, parseGrants, widenings } from './consent.js';
import { describeLoadFailure, discoverPlugins, HeaderError, readLoadedHeader, readPluginFile, readPluginHeader, type DiscoveredPlugin } from './discovery.js';
import { invocations } from './invocation.js';
import { capabilitiesOf, HOST_API_VERSION, manifestKey, networkDisplay, type PluginHeader } from './manifest.js';
import { buildMah, type MahPlugin, type MahServices } from './mah.js';
import { PluginRegistry } from './registry.js';
import type { PluginCatalogue } from './catalogue.js';
import type { PluginStateRepository, PluginStateRow } from './repository.js';
import type { PluginKvRepository } from './kv.repository.js';
import { declaredOnly, missingRequired, validateSettings, withDefaults, type SettingError } from './settings.js';

export const LOAD_BUDGET_MS = 30_000;
export const INIT_BUDGET_MS = 30_000;

export class LoadedPlugin implements MahPlugin {
  readonly registry = new PluginRegistry();
  revoked = false;
  settings: Record<string, unknown> | null;
  vm: LuaVm | undefined;

  constructor(
    readonly header: PluginHeader,
    readonly dir: string,
    settings: Record<string, unknown>,
  ) {
    this.settings = settings;
  }

  get name(): string {
    return this.header.name;
  }

  get capabilities(): CapabilityId[] {
    return capabilitiesOf(this.header);
  }
}

export class SettingsInvalid extends HttpError {
  constructor(readonly errors: SettingError[]) {
    super(422, 'invalid settings', { errors });
  }
}

export interface PluginRecord {
  name: string;
  version: string;
  description: string;
  enabled: boolean;
  legacy: boolean;
  api_version: number;
  capabilities: CapabilityId[];
  capability_labels: Record<string, string>;
  network: string[];
  allow_private_hosts: boolean;
  dependencies: string[];
  min_app_version: string;
  settings: { name: string; type: string; label: string; required: boolean; default?: unknown; options?: string[] }[];
  values: Record<string, unknown>;
  allow_scoped_principals: boolean;
}

export interface ManagerDeps {
  states: PluginStateRepository;
  kv: PluginKvRepository;
  audit: AuditLog;
  path: string;
  memoryLimitBytes: number;
  /** Server process log (discovery skips, load notices, plugin errors). */
  log: (message: string) => void;
  /** Surfaces other phases add to `mah` (db, …). */
  extendMah?: MahServices['extend'];
  /** Where loaded plugins are published to pages and renderers (features.ts builds it). */
  catalogue?: PluginCatalogue<LoadedPlugin>;
}

export class PluginManager {
  private discovered: DiscoveredPlugin[] = [];
  private readonly byName = new Map<string, DiscoveredPlugin>();
  /** Loaded plugins in the order they were enabled (hooks run in this order, §16.4). */
  private readonly loaded: Map<string, LoadedPlugin>;
  private readonly inFlight = new Set<string>();
  private readonly scopedOpen: Set<string>;
  private closing = false;
  /** Called after any plugin was loaded or unloaded (menus, block types … refresh). */
  readonly listeners: (() => void)[] = [];
  /** Called after each load: `by` is the operator who enabled it, undefined at start-up (§19.4). */
  readonly loadHooks: ((plugin: LoadedPlugin, by: Principal | undefined) => Promise<void>)[] = [];

  constructor(private readonly deps: ManagerDeps) {
    this.loaded = deps.catalogue?.loaded ?? new Map<string, LoadedPlugin>();
    this.scopedOpen = deps.catalogue?.scopedOpen ?? new Set<string>();
  }

  // ---- discovery and start-up ----------------------------------------------------------------

  async start(): Promise<void> {
    this.discovered = await discoverPlugins(this.deps.path, this.deps.memoryLimitBytes, (m) => this.deps.log(`plugins: ${m}`));
    for (const d of this.discovered) {
      this.byName.set(d.header.name, d);
      await this.deps.states.ensure(d.header.name);
    }
    const rows = await this.deps.states.all();
    for (const r of rows) if (bool(r.allow_scoped_principals)) this.scopedOpen.add(r.plugin_name);
    await this.activate(rows);
  }

  /** Start-up activation in dependency passes (§8.7). */
  private async activate(rows: PluginStateRow[]): Promise<void> {
    const wanted = rows.filter((r) => bool(r.enabled) && this.byName.has(r.plugin_name)).map((r) => r.plugin_name);
    const failed = new Set<string>();
    let remaining = wanted;
    for (;;) {
      const ready = remaining.filter((n) => this.byName.get(n)!.header.manifest?.dependencies.every((d) => this.loaded.has(d)) ?? true);
      if (ready.length === 0) break;
      for (const name of ready) {
        try {
          const stored = await this.storedSettings(name);
          const plugin = await this.load(this.byName.get(name)!, withDefaults(this.byName.get(name)!.header.settings, stored));
          await this.afterLoad(plugin, undefined);
        } catch (e) {
          failed.add(name);
          this.deps.log(`plugins: failed to enable "${name}" at startup: ${(e as Error).message}`);
          await this.deps.audit.note({ level: 'warning', action: 'system', entityType: 'plugin', entityName: name, message: 'failed to enable plugin at startup', details: { error: (e as Error).message } });
        }
      }
      remaining = remaining.filter((n) => !ready.includes(n));
    }
    if (remaining.length === 0) return;
    const waiting = new Set(remaining);
    const reason = (dep: string): string => {
      if (!this.byName.has(dep)) return 'no such plugin';
      if (failed.has(dep)) return 'it failed to load';
      if (waiting.has(dep)) return 'also waiting for a dependency of its own';
      if (!wanted.includes(dep)) return 'not enabled';
      return 'not loaded';
    };
    const parts = remaining.map((n) => {
      const deps = (this.byName.get(n)!.header.manifest?.dependencies ?? []).filter((d) => !this.loaded.has(d));
      return deps.map((d) => `${n} waits for ${d} (${reason(d)})`).join('; ');
    });
    const message = `plugins not started because of their dependencies: ${parts.join('; ')}`;
    this.deps.log(`plugins: ${message}`);
    await this.deps.audit.note({ level: 'warning', action: 'system', entityType: 'plugin', entityName: '', message });
  }

  // ---- reading ---------------------------------------------------------------------------------

  /** Setting definitions of a discovered plugin ([] when unknown). */
  definitions(name: string): PluginHeader['settings'] {
    return this.byName.get(name)?.header.settings ?? [];
  }

  isDiscovered(name: string): boolean {
    return this.byName.has(name);
  }

  get(name: string): LoadedPlugin | undefined {
    const p = this.loaded.get(name);
    return p && !p.revoked ? p : undefined;
  }

  /** Loaded plugins in enable order. */
  active(): LoadedPlugin[] {
    return [...this.loaded.values()].filter((p) => !p.revoked);
  }

  /** Whether a group-limited principal may reach this plugin (§26.2). */
  openToScoped(name: string): boolean {
    return this.scopedOpen.has(name) && this.get(name) !== undefined;
  }

  async list(): Promise<PluginRecord[]> {
    const rows = new Map((await this.deps.states.all()).map((r) => [r.plugin_name, r]));
    return this.discovered.map((d) => this.record(d.header, rows.get(d.header.name)));
  }

  private record(h: PluginHeader, row: PluginStateRow | undefined): PluginRecord {
    const caps = capabilitiesOf(h);
    return {
      name: h.name,
      version: h.version,
      description: h.description,
      enabled: row ? bool(row.enabled) : false,
      legacy: h.manifest === null,
      api_version: h.manifest?.apiVersion ?? 0,
      capabilities: caps,
      capability_labels: capabilityLabels(caps),
      network: networkDisplay(h),
      allow_private_hosts: h.manifest?.allowPrivateHosts ?? false,
      dependencies: h.manifest?.dependencies ?? [],
      min_app_version: h.manifest?.minAppVersion ?? '',
      settings: h.settings.map((s) => ({ ...s })),
      values: row ? parseJson<Record<string, unknown>>(row.settings_json, {}) : {},
      allow_scoped_principals: row ? bool(row.allow_scoped_principals) : false,
    };
  }

  private async storedSettings(name: string): Promise<Record<string, unknown>> {
    const row = await this.deps.states.find(name);
    const v = row ? parseJson<unknown>(row.settings_json, {}) : {};
    return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  }

  private require(name: string | undefined): DiscoveredPlugin {
    const n = (name ?? '').trim();
    if (n === '') throw badRequest('missing plugin name');
    const d = this.byName.get(n);
    if (!d) throw notFound(`plugin "${n}" not found`);
    return d;
  }

  // ---- enable ----------------------------------------------------------------------------------

  async enable(name: string | undefined, by?: Principal): Promise<void> {
    if (this.closing) throw badRequest('plugin manager is shutting down');
    const d = this.require(name);
    const n = d.header.name;
    const settings = withDefaults(d.header.settings, await this.storedSettings(n));
    const missing = missingRequired(d.header.settings, settings);
    if (missing.length) throw badRequest(`missing required settings: [${missing.join(' ')}]`);
    await this.deps.states.setGrants(n, JSON.stringify(grantsOf(d.header)));
    if (this.inFlight.has(n)) throw badRequest(`plugin "${n}": an enable of this plugin is already in flight`);
    this.inFlight.add(n);
    try {
      await this.deps.states.setEnabled(n, true);
      if (this.get(n)) throw badRequest(`plugin "${n}" is already enabled`);
      for (const dep of d.header.manifest?.dependencies ?? []) {
        if (!this.byName.has(dep)) throw badRequest(`plugin "${n}" depends on "${dep}", which is not installed`);
        if (!this.get(dep)) throw badRequest(`a dependency is not enabled: plugin "${n}" depends on "${dep}"; enable "${dep}" first`);
      }
      let plugin: LoadedPlugin;
      try {
        plugin = await this.load(d, settings);
      } catch (e) {
        throw badRequest(`loading plugin "${n}": ${(e as Error).message}`);
      }
      await this.afterLoad(plugin, by);
    } finally {
      this.inFlight.delete(n);
      await this.settle(n);
    }
  }

  /** The stored flag follows whether the plugin actually loaded (§8.2). */
  private async settle(name: string): Promise<void> {
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        await this.deps.states.setEnabled(name, this.get(name) !== undefined);
        return;
      } catch (e) {
        if (attempt === 2) this.deps.log(`plugins: could not settle the enabled flag of "${name}": ${(e as Error).message}`);
        else await new Promise((r) => setTimeout(r, 25));
      }
    }
  }

  /** The load algorithm (§8.3). Throws with the reason; leaves nothing behind on failure. */
  private async load(d: DiscoveredPlugin, settings: Record<string, unknown>): Promise<LoadedPlugin> {
    const n = d.header.name;
    let source: Buffer;
    let fresh: PluginHeader;
    try {
      source = readPluginFile(d.dir);
      fresh = await readPluginHeader(source, n, this.deps.memoryLimitBytes);
    } catch (e) {
      if (e instanceof HeaderError) throw new Error(e.message, { cause: e });
      throw e;
    }
    if (fresh.name !== n) throw new Error(`plugin.lua now declares the name "${fresh.name}", not "${n}"; restart the server to re-read the plugin directory`);
    if (manifestKey(fresh) !== manifestKey(d.header)) throw new Error(`plugin "${n}" declares different capabilities than it did at startup; restart the server to re-read the plugin directory`);
    const version = fresh.manifest?.apiVersion ?? 0;
    if (version > HOST_API_VERSION) throw new Error(`plugin declares api_version ${version}, but this server implements ${HOST_API_VERSION}`);
    this.notices(fresh);

    const plugin = new LoadedPlugin(fresh, d.dir, settings);
    const vm = await LuaVm.create({
      name: n,
      memoryLimitBytes: this.deps.memoryLimitBytes,
      log: (_level, message) => this.deps.log(`[plugin:${n}] ${message}`),
      onCrash: (e) => this.deps.log(`plugins: the VM of "${n}" crashed: ${e.message}`),
    });
    plugin.vm = vm;
    try {
      await invocations.run({ actor: null }, () =>
        vm.exclusive(
          async (s) => {
            try {
              await s.load(source, { chunkName: 'plugin.lua', entry: 'top-level code', budgetMs: LOAD_BUDGET_MS });
            } catch (e) {
              throw new Error(describeLoadFailure(e, LOAD_BUDGET_MS), { cause: e });
            }
            const again = await readLoadedHeader(s);
            if (again.name !== fresh.name || again.version !== fresh.version || again.description !== fresh.description || manifestKey(again) !== manifestKey(fresh)) {
              throw new Error(`plugin "${n}" declares something different each time it runs; its plugin table must not depend on time, randomness or state`);
            }
            await this.enforceConsent(fresh);
            await s.setGlobal('mah', buildMah(plugin, { kv: this.deps.kv, audit: this.deps.audit, extend: this.deps.extendMah }));
            if ((await s.globalType('init')) === 'function') {
              try {
                await s.call('init', [], { entry: 'init', budgetMs: INIT_BUDGET_MS });
              } catch (e) {
                throw new Error(`calling init(): ${(e as { luaMessage?: string }).luaMessage ?? (e as Error).message}`, { cause: e });
              }
            }
          },
          { entry: 'load' },
        ),
      );
    } catch (e) {
      plugin.revoked = true;
      plugin.registry.release();
      await vm.terminate();
      throw e;
    }
    this.loaded.delete(n);
    this.loaded.set(n, plugin);
    this.changed();
    return plugin;
  }

  private async afterLoad(plugin: LoadedPlugin, by: Principal | undefined): Promise<void> {
    for (const hook of this.loadHooks) {
      try {
        await hook(plugin, by);
      } catch (e) {
        this.deps.log(`plugins: after loading "${plugin.name}": ${(e as Error).message}`);
      }
    }
  }

  private notices(h: PluginHeader): void {
    const n = h.name;
    if (!h.manifest) {
      this.deps.log(`plugins: "${n}" declares no manifest and runs with full access; it should declare api_version = 1 and its capabilities`);
      return;
    }
    if (h.manifest.allowPrivateHosts) this.deps.log(`plugins: "${n}" may reach private addresses named in its allowlist`);
    if (h.manifest.minAppVersion) this.deps.log(`plugins: "${n}" declares min_app_version ${h.manifest.minAppVersion}, which this server does not check`);
  }

  /** Consent at load (§7.2): grandfather a missing record, refuse a widened declaration. */
  private async enforceConsent(h: PluginHeader): Promise<void> {
    const row = await this.deps.states.find(h.name);
    let record;
    try {
      record = parseGrants(row?.grants_json ?? null);
    } catch (e) {
      if (e instanceof CorruptGrantsError) throw new Error(`${e.message}; re-enable ${h.name} to record consent again`, { cause: e });
      throw e;
    }
    if (!record) {
      this.deps.log(`plugins: "${h.name}" had no consent record; recording what it declares now`);
      await this.deps.states.setGrants(h.name, JSON.stringify(grantsOf(h)));
      return;
    }
    const wider = widenings(record, h);
    if (wider.length) throw new Error(`plugin declares more than was consented to: ${wider.join('; ')}. Re-enable ${h.name} to consent to it`);
  }

  // ---- disable, settings, purge, scoped access --------------------------------------------------

  async disable(name: string | undefined): Promise<void> {
    const d = this.require(name);
    const n = d.header.name;
    const dependents = this.active()
      .filter((p) => p.name !== n && (p.header.manifest?.dependencies ?? []).includes(n))
      .map((p) => p.name)
      .sort();
    if (dependents.length) {
      const who = dependents.length === 1 ? dependents[0] : `${dependents.slice(0, -1).join(', ')} and ${dependents[dependents.length - 1]}`;
      throw badRequest(`another enabled plugin depends on this one: ${who} still depend${dependents.length === 1 ? 's' : ''} on "${n}"; disable ${who} first`);
    }
    await this.deps.states.setEnabled(n, false);
    if (this.inFlight.has(n)) {
      const until = Date.now() + 5000;
      while (this.inFlight.has(n) && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
      if (this.inFlight.has(n)) throw badRequest(`an enable of this plugin is still in flight: plugin "${n}"`);
      await this.deps.states.setEnabled(n, false);
    }
    await this.unload(n);
  }

  private async unload(name: string): Promise<void> {
    const plugin = this.loaded.get(name);
    if (!plugin) return;
    plugin.revoked = true;
    this.loaded.delete(name);
    plugin.settings = null;
    this.changed();
    plugin.vm?.revoke();
    plugin.registry.release();
    await plugin.vm?.close();
  }

  async saveSettings(name: string | undefined, body: unknown): Promise<void> {
    const d = this.require(name);
    if (body === null || typeof body !== 'object' || Array.isArray(body)) throw badRequest('the settings body must be a JSON object');
    const values = body as Record<string, unknown>;
    const errors = validateSettings(d.header.settings, values);
    if (errors.length) throw new SettingsInvalid(errors);
    const kept = declaredOnly(d.header.settings, values);
    await this.deps.states.setSettings(d.header.name, JSON.stringify(kept));
    const live = this.get(d.header.name);
    if (live) live.settings = kept;
  }

  async purge(name: string | undefined): Promise<void> {
    const n = (name ?? '').trim();
    if (n === '') throw badRequest('missing plugin name');
    if (this.get(n)) throw badRequest('cannot purge data for enabled plugin — disable it first');
    this.require(n);
    await this.deps.kv.purge(n);
  }

  async setScopedAccess(name: string | undefined, allowed: boolean): Promise<void> {
    const d = this.require(name);
    await this.deps.states.setScopedAccess(d.header.name, allowed);
    if (allowed) this.scopedOpen.add(d.header.name);
    else this.scopedOpen.delete(d.header.name);
  }

  private changed(): void {
    for (const l of this.listeners) l();
  }

  /** Shutdown (§8.8): close every VM; dependencies are not consulted. */
  async close(): Promise<void> {
    this.closing = true;
    for (const name of [...this.loaded.keys()].reverse()) {
      const p = this.loaded.get(name)!;
      p.revoked = true;
      this.loaded.delete(name);
      await p.vm?.terminate();
    }
  }
}
