// The `mah` table a plugin receives (library-plugins.md §10, §12, §16, §20, §21): only the
// functions its capabilities grant (§5), every one checking that the plugin is still live (§9.8).
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { LuaFunctionRef, luaBytes, luaText, multi } from '../../core/lua/index.js';
import type { AuditLog } from '../audit/service.js';
import type { CapabilityId } from './capabilities.js';
import { currentInvocation } from './invocation.js';
import { decodeJson, encodeJson, JsonValueError } from './json.js';
import type { PluginKvRepository } from './kv.repository.js';
import { PLUGIN_NAME, type PluginHeader } from './manifest.js';
import type { PluginRegistry } from './registry.js';
import { installInject, installRender } from './render-api.js';
import { settingForLua } from './settings.js';

export const ABORT_MARKER = 'PLUGIN_ABORT: ';
export const KV_MAX_VALUE_SIZE = 8 * 1024 * 1024;
const PAGE_PATH = /^[a-zA-Z0-9_-]+(\/[a-zA-Z0-9_-]+)*$/;

/** The 30 entity events and the 3 job events (§16.2). */
export const ENTITY_EVENTS = ['resource', 'note', 'group', 'tag', 'category'].flatMap((e) =>
  ['create', 'update', 'delete'].flatMap((a) => [`before_${e}_${a}`, `after_${e}_${a}`]),
);
export const JOB_EVENTS = ['after_job_completed', 'after_job_failed', 'after_job_cancelled'];
export const ALL_EVENTS = [...ENTITY_EVENTS, ...JOB_EVENTS];

/** What the mah functions need to know about the plugin they belong to. */
export interface MahPlugin {
  readonly name: string;
  readonly capabilities: readonly CapabilityId[];
  readonly registry: PluginRegistry;
  /** True once the plugin is revoked (disable started, or load abandoned). */
  readonly revoked: boolean;
  /** In-memory settings (§6.4); null when none are loaded. */
  readonly settings: Record<string, unknown> | null;
  /** The plugin's header (its manifest's network rules, for mah.http). */
  readonly header?: PluginHeader;
}

export interface MahServices {
  kv: PluginKvRepository;
  audit: AuditLog;
  /** Extra surfaces (db, hooks dispatch …) added by later phases, keyed by mah member. */
  extend?: (plugin: MahPlugin, mah: Record<string, unknown>) => void;
}

/** The abort reason in an error text, if the text carries the marker (§10.2). */
export function abortReason(message: string): string | null {
  const at = message.indexOf(ABORT_MARKER);
  if (at < 0) return null;
  const rest = message.slice(at + ABORT_MARKER.length);
  const nl = rest.indexOf('\n');
  return nl < 0 ? rest : rest.slice(0, nl);
}

function argError(n: number, fn: string, why: string): Error {
  return new Error(`bad argument #${n} to '${fn}' (${why})`);
}

function requireString(v: unknown, n: number, fn: string): string {
  const s = luaText(v);
  if (s === undefined) throw argError(n, fn, `string expected, got ${v === null || v === undefined ? 'no value' : typeof v}`);
  return s;
}

function requireFunction(v: unknown, n: number, fn: string): LuaFunctionRef {
  if (!(v instanceof LuaFunctionRef)) throw argError(n, fn, `function expected`);
  return v;
}

function bytesToLua(b: Buffer): Uint8Array {
  return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
}

const B64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

function util() {
  return {
    now: () => Date.now() / 1000,
    now_iso: () => new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
    base64: {
      encode: (s: unknown) => (luaBytes(s) ?? Buffer.alloc(0)).toString('base64'),
      decode: (s: unknown) => {
        const text = luaText(s) ?? '';
        if (!B64.test(text)) return multi(null, 'illegal base64 data');
        return bytesToLua(Buffer.from(text, 'base64'));
      },
    },
    hex: {
      encode: (s: unknown) => (luaBytes(s) ?? Buffer.alloc(0)).toString('hex'),
      decode: (s: unknown) => {
        const text = luaText(s) ?? '';
        if (!/^(?:[0-9a-fA-F]{2})*$/.test(text)) return multi(null, 'encoding/hex: invalid byte');
        return bytesToLua(Buffer.from(text, 'hex'));
      },
    },
    sha256: (s: unknown) => createHash('sha256').update(luaBytes(s) ?? Buffer.alloc(0)).digest('hex'),
    hmac_sha256: (key: unknown, msg: unknown) => createHmac('sha256', luaBytes(key) ?? Buffer.alloc(0)).update(luaBytes(msg) ?? Buffer.alloc(0)).digest('hex'),
    secure_compare: (a: unknown, b: unknown) => {
      const x = luaBytes(a) ?? Buffer.alloc(0);
      const y = luaBytes(b) ?? Buffer.alloc(0);
      return x.length === y.length && timingSafeEqual(x, y);
    },
  };
}

function htmlEscape(s: string): string {
  return s.replace(/[&<>"'[\]]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;', '[': '&#91;', ']': '&#93;' })[c] ?? c);
}

export { htmlEscape };

/** A fresh sentinel per plugin VM: a table no plugin value can be mistaken for. */
function absentSentinel(): Record<string, string> {
  return { __mah_kv_absent: createHash('sha256').update(String(Math.random()) + Date.now()).digest('hex') };
}

function isSentinel(v: unknown, sentinel: Record<string, string>): boolean {
  return v !== null && typeof v === 'object' && (v as Record<string, unknown>).__mah_kv_absent === sentinel.__mah_kv_absent;
}

export function buildMah(plugin: MahPlugin, services: MahServices): Record<string, unknown> {
  const has = (c: CapabilityId) => plugin.capabilities.includes(c);
  const live = () => !plugin.revoked;
  const mah: Record<string, unknown> = {
    log: async (level: unknown, message: unknown, details: unknown) => {
      const text = requireString(message, 2, 'log');
      const lvl = level === 'warning' || level === 'error' ? level : 'info';
      const inv = currentInvocation();
      await services.audit.note({
        level: lvl,
        action: 'plugin',
        entityType: 'plugin',
        entityName: plugin.name,
        message: text,
        details: details !== null && typeof details === 'object' ? (details as Record<string, unknown>) : undefined,
        origin: inv.origin,
      });
    },
    abort: (reason: unknown) => {
      throw new Error(`${ABORT_MARKER}${luaText(reason) ?? String(reason ?? '')}`);
    },
    get_setting: (key: unknown) => {
      const k = luaText(key);
      if (k === undefined || !plugin.settings) return null;
      return settingForLua(plugin.settings[k]);
    },
    html_escape: (s: unknown) => htmlEscape(requireString(s, 1, 'html_escape')),
    sleep: async (seconds: unknown) => {
      const s = typeof seconds === 'number' && Number.isFinite(seconds) ? Math.min(30, Math.max(0, seconds)) : 0;
      if (s > 0) await new Promise((r) => setTimeout(r, s * 1000));
    },
    json: {
      encode: (value: unknown) => {
        try {
          return encodeJson(value);
        } catch (e) {
          if (e instanceof JsonValueError) return multi(null, e.message);
          throw e;
        }
      },
      decode: (text: unknown) => {
        const s = luaText(text);
        if (s === undefined) return multi(null, 'json: expected a string');
        try {
          return decodeJson(s);
        } catch (e) {
          return multi(null, (e as Error).message);
        }
      },
    },
    util: util(),
    doc: (entry: unknown) => {
      if (!live()) return;
      const e = (entry ?? {}) as Record<string, unknown>;
      const name = luaText(e.name);
      if (name === undefined || !PLUGIN_NAME.test(name)) throw new Error('mah.doc: name must match ^[a-z][a-z0-9_-]{0,49}$');
      if (e.label === undefined || e.label === null) throw new Error(`mah.doc: entry "${name}" needs a label`);
      if (plugin.registry.docs.some((d) => d.name === name)) throw new Error(`mah.doc: duplicate doc entry "${name}"`);
      if (plugin.registry.render.shortcodes.has(name)) throw new Error(`mah.doc: "${name}" conflicts with shortcode of the same name`);
      plugin.registry.docs.push({
        name,
        label: String(luaText(e.label) ?? e.label),
        description: luaText(e.description) ?? '',
        category: luaText(e.category) ?? '',
        attrs: Array.isArray(e.attrs) ? e.attrs : [],
        examples: Array.isArray(e.examples) ? e.examples : [],
        notes: Array.isArray(e.notes) ? e.notes.map((n) => luaText(n) ?? '') : [],
      });
    },
  };

  if (has('kv')) mah.kv = kvModule(plugin, services);
  if (has('api')) {
    mah.api = (method: unknown, path: unknown, handler: unknown, opts: unknown) => {
      const m = (luaText(method) ?? '').toUpperCase();
      if (!['GET', 'POST', 'PUT', 'DELETE'].includes(m)) throw new Error('method must be GET, POST, PUT, or DELETE');
      const p = luaText(path) ?? '';
      if (!PAGE_PATH.test(p)) throw new Error(`invalid api path: "${p}"`);
      const fn = requireFunction(handler, 3, 'api');
      let timeoutMs = 30_000;
      const t = (opts as Record<string, unknown> | null)?.timeout;
      if (typeof t === 'number' && Math.trunc(t) > 0) timeoutMs = Math.min(120, Math.trunc(t)) * 1000;
      if (!live()) return;
      plugin.registry.apis.set(`${m} ${p}`, { handler: fn, timeoutMs });
    };
  }
  if (has('hooks')) {
    mah.on = (event: unknown, handler: unknown) => {
      const e = luaText(event) ?? '';
      if (!ALL_EVENTS.includes(e)) {
        throw argError(1, 'on', `unknown event "${e}": nothing dispatches it, so this hook could never fire. Events: ${ALL_EVENTS.join(', ')}`);
      }
      if (JOB_EVENTS.includes(e) && !has('job_events')) {
        throw argError(1, 'on', `event "${e}" needs the "job_events" capability, which this plugin does not declare; "hooks" grants the entity events only`);
      }
      const fn = requireFunction(handler, 2, 'on');
      if (!live()) return;
      plugin.registry.addHook(e, fn);
    };
  }
  if (has('pages')) {
    mah.page = (path: unknown, handler: unknown) => {
      const p = luaText(path) ?? '';
      if (!PAGE_PATH.test(p)) throw new Error(`invalid page path: "${p}"`);
      const fn = requireFunction(handler, 2, 'page');
      if (!live()) return;
      plugin.registry.pages.set(p, { handler: fn });
    };
    mah.menu = (label: unknown, path: unknown) => {
      const p = luaText(path) ?? '';
      if (!PAGE_PATH.test(p)) throw new Error(`invalid menu path: "${p}"`);
      if (!live()) return;
      plugin.registry.menus.push({ label: luaText(label) ?? String(label ?? ''), path: p });
    };
  }
  if (has('render')) installRender(plugin, mah);
  if (has('inject')) installInject(plugin, mah);
  services.extend?.(plugin, mah);
  return mah;
}

function kvModule(plugin: MahPlugin, services: MahServices): Record<string, unknown> {
  const ABSENT = absentSentinel();
  const serialise = (value: unknown): string => {
    let text: string;
    try {
      text = encodeJson(value);
    } catch (e) {
      throw new Error(`failed to serialize value: ${(e as Error).message}`, { cause: e });
    }
    const size = Buffer.byteLength(text);
    if (size > KV_MAX_VALUE_SIZE) throw new Error(`kv set failed: value size ${size} bytes exceeds maximum of ${KV_MAX_VALUE_SIZE} bytes`);
    return text;
  };
  const key = (k: unknown, fn: string) => requireString(k, 1, fn);
  return {
    ABSENT,
    max_value_size: KV_MAX_VALUE_SIZE,
    get: async (k: unknown) => {
      const name = key(k, 'get');
      if (plugin.revoked) return null;
      let text: string | undefined;
      try {
        text = await services.kv.get(plugin.name, name);
      } catch (e) {
        throw new Error(`kv get failed: ${(e as Error).message}`, { cause: e });
      }
      if (text === undefined) return null;
      try {
        return JSON.parse(text) as unknown;
      } catch {
        return null;
      }
    },
    set: async (...args: unknown[]) => {
      const name = key(args[0], 'set');
      if (args.length < 2) throw argError(2, 'set', 'value expected');
      const text = serialise(args[1]);
      if (plugin.revoked) throw new Error('kv store not available');
      await services.kv.set(plugin.name, name, text);
    },
    compare_and_set: async (k: unknown, expected: unknown, value: unknown) => {
      const name = key(k, 'compare_and_set');
      const text = serialise(value);
      if (plugin.revoked) throw new Error('kv store not available');
      if (isSentinel(expected, ABSENT)) return services.kv.insertIfAbsent(plugin.name, name, text);
      return services.kv.replaceIf(plugin.name, name, serialise(expected), text);
    },
    delete: async (k: unknown) => {
      const name = key(k, 'delete');
      if (plugin.revoked) throw new Error('kv store not available');
      await services.kv.delete(plugin.name, name);
    },
    list: async (prefix: unknown) => {
      if (plugin.revoked) return {};
      const keys = await services.kv.keys(plugin.name, luaText(prefix) ?? '');
      return keys.length ? keys : {};
    },
  };
}
