// Plugin management (companion §8.2, §8.3, §8.8, §8.11, §8.12): install from a URL or a local
// file, reinstall in place, enable, disable, delete, storage, UI actions and updates. The
// manifest is always read statically; the source only runs once the install is accepted.
import { mkdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { badRequest, conflict, HttpError, notFound } from '../../core/http/errors.js';
import { LuaError } from '../../core/lua/index.js';
import type { AddressPolicy } from '../../core/net/addresses.js';
import { writeFileAtomic } from '../../core/storage/file-store.js';
import { KeyedLock } from '../../core/storage/keyed-lock.js';
import type { ClipService } from '../clips/service.js';
import type { KeyPrincipal } from '../http/principal.js';
import type { PluginHost } from './host.js';
import { ACTION_LISTS, ManifestError, parseManifest, unknownEvents, type Manifest, type OptionField, type SettingField, type UiAction } from './manifest.js';
import type { PluginRepository, PluginRow } from './repository.js';
import { fetchSource, isUrlSource, readLocalSource, storedFilename } from './source.js';
import type { PluginStorage } from './storage.js';
import { isNewer, permissionsChanged } from './versions.js';

export interface PluginJson {
  id: number;
  name: string;
  version: string;
  description: string;
  author: string;
  enabled: boolean;
  status: string;
  events: string[];
  settings: SettingField[];
}

const describe = (e: unknown) => (e instanceof LuaError ? e.luaMessage : (e as Error).message);

export class PluginService {
  private readonly lock = new KeyedLock();

  constructor(
    private readonly repo: PluginRepository,
    readonly storage: PluginStorage,
    private readonly host: PluginHost,
    private readonly clips: ClipService,
    private readonly policy: AddressPolicy,
    private readonly log: (msg: string) => void,
  ) {}

  private now(): string {
    return this.clips.now();
  }

  private fileOf(row: { filename: string }): string {
    return join(this.host.pluginDir, row.filename);
  }

  private async manifestOf(row: PluginRow): Promise<Manifest | null> {
    try {
      return parseManifest(await readFile(this.fileOf(row), 'utf8'));
    } catch {
      return null;
    }
  }

  private async toJson(row: PluginRow): Promise<PluginJson> {
    const m = await this.manifestOf(row);
    return {
      id: row.id,
      name: m?.name ?? row.name,
      version: m?.version ?? row.version,
      description: m?.description ?? '',
      author: m?.author ?? '',
      enabled: row.enabled === 1,
      status: row.status,
      events: m?.events ?? [],
      settings: m?.settings ?? [],
    };
  }

  async require(id: number): Promise<PluginRow> {
    const row = await this.repo.find(id);
    if (!row) throw notFound('plugin not found');
    return row;
  }

  async list(): Promise<{ plugins: PluginJson[]; total: number }> {
    const rows = await this.repo.list();
    const plugins = await Promise.all(rows.map((r) => this.toJson(r)));
    return { plugins, total: plugins.length };
  }

  async get(id: number): Promise<PluginJson> {
    return this.toJson(await this.require(id));
  }

  /** Every enabled plugin not in error, at start-up or after a restore; then app:startup when `startup`. */
  async startAll(startup: boolean): Promise<void> {
    for (const row of await this.repo.list()) {
      if (row.enabled !== 1 || row.status === 'error') continue;
      try {
        const source = await readFile(this.fileOf(row), 'utf8');
        await this.host.start(row, source, parseManifest(source));
        if (row.status !== 'loaded') await this.repo.setState(row.id, { enabled: true, status: 'loaded', now: this.now() });
      } catch (e) {
        this.log(`plugin ${row.name} failed to load: ${describe(e)}`);
        await this.repo.setState(row.id, { enabled: false, status: 'error', last_error: describe(e), now: this.now() });
      }
    }
    if (startup) this.host.broadcast('app:startup');
  }

  // Install (§8.2).

  async install(body: Record<string, unknown>): Promise<PluginJson> {
    const source = body.source;
    if (source !== undefined && source !== null && typeof source !== 'string') throw badRequest('source must be a string');
    if (typeof source !== 'string' || source.trim() === '') throw badRequest('source is required');
    const target = source.trim();
    let text: string;
    if (isUrlSource(target)) {
      try {
        text = await fetchSource(target, this.policy);
      } catch (e) {
        throw badRequest(`failed to fetch plugin: ${(e as Error).message}`);
      }
    } else {
      text = await readLocalSource(target);
    }
    let manifest: Manifest;
    try {
      manifest = parseManifest(text);
    } catch (e) {
      if (e instanceof ManifestError) throw badRequest(`invalid plugin: ${e.message}`);
      throw e;
    }
    for (const e of unknownEvents(manifest)) this.log(`plugin ${manifest.name}: unknown event ${e} (kept)`);
    const filename = storedFilename(target);
    const sourceUrl = isUrlSource(target) ? target : '';
    return this.lock.with(`file:${filename}`, () => this.installLocked(filename, text, manifest, sourceUrl));
  }

  private async installLocked(filename: string, text: string, manifest: Manifest, sourceUrl: string): Promise<PluginJson> {
    await mkdir(this.host.pluginDir, { recursive: true });
    const existing = await this.repo.findByFilename(filename);
    const path = join(this.host.pluginDir, filename);
    if (existing) {
      // Same file name: replaced in place, keeping id, storage and grants.
      await this.host.unload(existing.id);
      await writeFileAtomic(path, Buffer.from(text));
      await this.repo.replace(existing.id, { name: manifest.name, version: manifest.version, source_url: sourceUrl, now: this.now() });
      const row = (await this.repo.find(existing.id))!;
      try {
        await this.host.start(row, text, manifest);
      } catch (e) {
        await this.repo.setState(row.id, { enabled: false, status: 'error', last_error: describe(e), now: this.now() });
        throw badRequest(`failed to load plugin: ${describe(e)}`);
      }
      return this.toJson(row);
    }
    await writeFileAtomic(path, Buffer.from(text));
    const id = await this.repo.insert({ filename, name: manifest.name, version: manifest.version, source_url: sourceUrl, now: this.now() });
    const row = (await this.repo.find(id))!;
    try {
      await this.host.start(row, text, manifest);
    } catch (e) {
      // A first install that does not load leaves nothing behind.
      await this.repo.delete(id);
      await rm(path, { force: true });
      await rm(this.host.privateDir(id), { recursive: true, force: true });
      throw badRequest(`failed to load plugin: ${describe(e)}`);
    }
    return this.toJson(row);
  }

  // Lifecycle (§8.3).

  async enable(id: number): Promise<void> {
    const row = await this.require(id);
    if (this.host.isLoaded(id)) return;
    await this.repo.setErrors(id, 0, null);
    try {
      const source = await readFile(this.fileOf(row), 'utf8');
      await this.host.start({ ...row, error_count: 0 }, source, parseManifest(source));
    } catch (e) {
      await this.repo.setState(id, { enabled: false, status: 'error', error_count: 0, last_error: describe(e), now: this.now() });
      throw badRequest(`failed to load plugin: ${describe(e)}`);
    }
    await this.repo.setState(id, { enabled: true, status: 'loaded', error_count: 0, last_error: null, now: this.now() });
  }

  async disable(id: number): Promise<void> {
    await this.require(id);
    await this.host.unload(id);
    await this.repo.setState(id, { enabled: false, status: 'disabled', now: this.now() });
  }

  async delete(id: number): Promise<void> {
    const row = await this.require(id);
    await this.host.unload(id);
    await this.repo.delete(id);
    await rm(this.fileOf(row), { force: true });
    await rm(this.host.privateDir(id), { recursive: true, force: true });
  }

  // Storage (§8.8).

  async storageAll(id: number): Promise<Record<string, string>> {
    await this.require(id);
    return this.storage.all(id);
  }

  async storageGet(id: number, key: string): Promise<{ key: string; value: string }> {
    await this.require(id);
    const value = await this.storage.get(id, key);
    if (value === undefined) throw notFound('key not found');
    return { key, value };
  }

  /** Values of declared checkbox and select settings must be ones the setting offers. */
  async storagePut(id: number, key: string, body: Record<string, unknown>): Promise<void> {
    const row = await this.require(id);
    if (typeof body.value !== 'string') throw badRequest('value must be a string');
    const setting = (await this.manifestOf(row))?.settings.find((s) => s.key === key);
    if (setting) checkSetting(setting, body.value);
    await this.storage.set(id, key, body.value);
  }

  // UI actions (§8.11).

  actions(): Record<string, (UiAction & { plugin_id: number; plugin_name: string })[]> {
    const out: Record<string, (UiAction & { plugin_id: number; plugin_name: string })[]> = {};
    for (const list of ACTION_LISTS) out[list] = [];
    for (const { id, manifest } of this.host.loadedManifests()) {
      for (const list of ACTION_LISTS) {
        for (const a of manifest.ui[list]) out[list].push({ plugin_id: id, plugin_name: manifest.name, ...a });
      }
    }
    return out;
  }

  async runAction(caller: KeyPrincipal, id: number, actionId: string, body: Record<string, unknown>) {
    await this.require(id);
    if (!this.host.isLoaded(id)) throw conflict('plugin is disabled');
    const action = this.host.findAction(id, actionId);
    if (!action) throw notFound(`unknown action ID: ${actionId}`);
    const clipIds = body.clip_ids ?? [];
    if (!Array.isArray(clipIds) || !clipIds.every((v) => typeof v === 'number' && Number.isSafeInteger(v) && v > 0)) throw badRequest('clip_ids must be an array of clip ids');
    await this.clips.requireAllInScope(caller, clipIds as number[]);
    const live = await this.clips.repo.findLiveMany(clipIds as number[], this.now());
    const missing = (clipIds as number[]).find((c) => !live.some((r) => r.id === c));
    if (missing !== undefined) throw badRequest(`clip ${missing} not found`);
    const options = validOptions(action.options ?? [], body.options);
    if (action.async) {
      void this.host.runAction(id, action, clipIds as number[], options);
      return { success: true };
    }
    return this.host.runAction(id, action, clipIds as number[], options);
  }

  // Updates (§8.12).

  private async fetchRemote(row: PluginRow): Promise<{ text: string; manifest: Manifest }> {
    try {
      const text = await fetchSource(row.source_url, this.policy);
      return { text, manifest: parseManifest(text) };
    } catch (e) {
      throw new HttpError(502, `failed to fetch update: ${(e as Error).message}`);
    }
  }

  /**
   * Background checks (companion §8.12) following the plugin_update_interval setting:
   * startup (once), 6h, 24h (default) or disabled. Found updates are logged, never applied.
   */
  startUpdateChecks(interval: string | undefined): () => void {
    const every = interval === '6h' ? 6 * 3600_000 : interval === 'disabled' || interval === 'startup' ? 0 : 24 * 3600_000;
    const check = () =>
      void this.checkUpdates()
        .then(({ updates }) => {
          for (const u of updates) this.log(`plugin ${u.plugin_id} has an update: ${u.current_version} → ${u.new_version}${u.has_permission_changes ? ' (asks for new permissions)' : ''}`);
        })
        .catch((e: unknown) => this.log(`plugin update check failed: ${(e as Error).message}`));
    if (interval === 'startup') check();
    if (every === 0) return () => undefined;
    const timer = setInterval(check, every);
    timer.unref();
    return () => clearInterval(timer);
  }

  async checkUpdates(): Promise<{ updates: { plugin_id: number; current_version: string; new_version: string; has_permission_changes: boolean }[] }> {
    const updates = [];
    for (const row of await this.repo.list()) {
      if (!row.source_url) continue;
      try {
        const remote = await this.fetchRemote(row);
        const local = await this.manifestOf(row);
        const current = local?.version ?? row.version;
        if (!isNewer(remote.manifest.version, current)) continue;
        updates.push({ plugin_id: row.id, current_version: current, new_version: remote.manifest.version, has_permission_changes: local ? permissionsChanged(local, remote.manifest) : true });
      } catch (e) {
        this.log(`update check of plugin ${row.name} failed: ${(e as Error).message}`);
      }
    }
    return { updates };
  }

  async update(id: number, body: Record<string, unknown>) {
    const row = await this.require(id);
    if (!row.source_url) throw badRequest('plugin was not installed from a URL');
    if (body.approve_permission_changes !== undefined && typeof body.approve_permission_changes !== 'boolean') throw badRequest('approve_permission_changes must be a boolean');
    const remote = await this.fetchRemote(row);
    const oldText = await readFile(this.fileOf(row), 'utf8').catch(() => '');
    const local = oldText ? parseManifestOrNull(oldText) : null;
    const current = local?.version ?? row.version;
    if (!isNewer(remote.manifest.version, current)) throw conflict(`remote version ${remote.manifest.version} is not newer than installed ${current}`);
    if ((!local || permissionsChanged(local, remote.manifest)) && body.approve_permission_changes !== true) {
      const m = remote.manifest;
      return {
        success: false,
        needs_review: true,
        preview: { name: m.name, version: m.version, description: m.description, author: m.author, network: m.network, filesystem: m.filesystem, clipboard: m.clipboard, events: m.events, source: row.source_url },
      };
    }
    return this.lock.with(`file:${row.filename}`, async () => {
      await this.host.unload(id);
      await writeFileAtomic(this.fileOf(row), Buffer.from(remote.text));
      try {
        await this.host.start({ ...row, error_count: 0 }, remote.text, remote.manifest);
      } catch (e) {
        await writeFileAtomic(this.fileOf(row), Buffer.from(oldText));
        if (local && row.enabled === 1) await this.host.start(row, oldText, local).catch(() => undefined);
        throw new HttpError(500, `failed to reload plugin (rolled back): ${describe(e)}`);
      }
      await this.repo.replace(id, { name: remote.manifest.name, version: remote.manifest.version, now: this.now() });
      return { success: true, needs_review: false, plugin_info: await this.toJson((await this.repo.find(id))!) };
    });
  }
}

function checkSetting(setting: SettingField, value: string): void {
  if (setting.type === 'checkbox' && value !== 'true' && value !== 'false') {
    throw badRequest(`invalid value for setting ${setting.key}: expected "true" or "false"`);
  }
  if (setting.type === 'select') {
    const allowed = (setting.options ?? []).map((o) => (o && typeof o === 'object' && 'value' in o ? (o as { value: unknown }).value : o)).map(String);
    if (!allowed.includes(value)) throw badRequest(`invalid value for setting ${setting.key}: expected one of ${allowed.join(', ')}`);
  }
}

function parseManifestOrNull(text: string): Manifest | null {
  try {
    return parseManifest(text);
  } catch {
    return null;
  }
}

/** Action options against their declared fields (companion §8.11 step 3). */
export function validOptions(fields: readonly OptionField[], raw: unknown): Record<string, unknown> {
  if (raw !== undefined && raw !== null && (typeof raw !== 'object' || Array.isArray(raw))) throw badRequest('options must be an object');
  const given = { ...((raw ?? {}) as Record<string, unknown>) };
  for (const f of fields) {
    const v = given[f.id];
    if (v === undefined || v === null || v === '') {
      if (f.required) throw badRequest(`missing required option: ${f.id}`);
      if (f.default !== undefined) given[f.id] = f.default;
      else delete given[f.id];
      continue;
    }
    if (f.type === 'select' && !(f.choices ?? []).some((c) => c.value === v)) throw badRequest(`invalid value for option ${f.id}: not one of the choices`);
    if (f.type === 'range') {
      if (typeof v !== 'number' || !Number.isFinite(v)) throw badRequest(`option ${f.id} must be a number`);
      if ((f.min !== undefined && v < f.min) || (f.max !== undefined && v > f.max)) throw badRequest(`option ${f.id} out of range`);
    }
    if (f.type === 'checkbox' && typeof v !== 'boolean') throw badRequest(`option ${f.id} must be a boolean`);
  }
  return given;
}
