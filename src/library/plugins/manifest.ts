// Reading a plugin's `plugin` table (library-plugins.md §4, §6.1): identity, the manifest and
// setting definitions. The input is the table as converted out of Lua (raw reads, §9.5).
import { limitsKey, parseDownloadLimits, type DownloadLimit } from './download-limits.js';
import { CAPABILITY_IDS, effectiveCapabilities, isCapability, type CapabilityId } from './capabilities.js';
import { canonicalRules, NetworkRuleError, parseNetworkRule, tooBroadForPrivate, type NetworkRule } from './network.js';

export const PLUGIN_NAME = /^[a-z][a-z0-9_-]{0,49}$/;
export const HOST_API_VERSION = 1;

export type SettingType = 'string' | 'password' | 'boolean' | 'number' | 'select' | string;

export interface SettingDefinition {
  name: string;
  type: SettingType;
  label: string;
  required: boolean;
  default?: string | number | boolean;
  options?: string[];
}

export interface Manifest {
  apiVersion: number;
  /** Effective set (implications applied), canonical order. */
  capabilities: CapabilityId[];
  /** null: no `network` field (any public host). */
  network: NetworkRule[] | null;
  allowPrivateHosts: boolean;
  dependencies: string[];
  minAppVersion: string;
  downloadLimits: DownloadLimit[] | null;
}

export interface PluginHeader {
  name: string;
  version: string;
  description: string;
  settings: SettingDefinition[];
  /** null: a legacy plugin (no api_version). */
  manifest: Manifest | null;
}

export class ManifestError extends Error {}

const KNOWN_KEYS = ['name', 'version', 'description', 'api_version', 'capabilities', 'network', 'allow_private_hosts', 'dependencies', 'min_app_version', 'download_limits'];
const MANIFEST_KEYS = ['capabilities', 'network', 'allow_private_hosts', 'dependencies', 'min_app_version', 'download_limits'];
const MIN_APP_VERSION = /^[0-9]+(\.[0-9]+)*([-+][0-9A-Za-z.-]+)?$/;

function normalise(key: string): string {
  return key.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/** One insertion, deletion, substitution, or swap of two adjacent characters. */
function withinOneEdit(a: string, b: string): boolean {
  if (a === b) return true;
  const la = a.length;
  const lb = b.length;
  if (Math.abs(la - lb) > 1) return false;
  if (la === lb) {
    const diff: number[] = [];
    for (let i = 0; i < la; i++) if (a[i] !== b[i]) diff.push(i);
    if (diff.length === 1) return true;
    return diff.length === 2 && diff[1] === diff[0] + 1 && a[diff[0]] === b[diff[1]] && a[diff[1]] === b[diff[0]];
  }
  const [s, l] = la < lb ? [a, b] : [b, a];
  let i = 0;
  while (i < s.length && s[i] === l[i]) i++;
  return s.slice(i) === l.slice(i + 1);
}

function checkKeys(table: Record<string, unknown>): void {
  for (const key of Object.keys(table)) {
    if ([...key].some((c) => c.charCodeAt(0) > 0x7f)) throw new ManifestError(`plugin table key "${key}" contains a non-ASCII character; manifest field names are plain ASCII`);
    if (KNOWN_KEYS.includes(key) || key === 'settings') continue;
    const n = normalise(key);
    for (const known of KNOWN_KEYS) {
      if (normalise(known) === n) throw new ManifestError(`plugin table key "${key}" is not a manifest field; did you mean "${known}"? (${key} and ${known} differ only in spelling)`);
      if (withinOneEdit(key, known) || (n.length > 0 && withinOneEdit(n, normalise(known)))) {
        throw new ManifestError(`plugin table key "${key}" is not a manifest field; did you mean "${known}"?`);
      }
    }
  }
}

/** Lua's tostring of a number as plugins see it for identity fields (§4.2). */
function asText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : String(value);
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return String(value);
  if (value instanceof Uint8Array) return new TextDecoder().decode(value);
  return String(value);
}

function stringArray(value: unknown, field: string): string[] {
  if (value !== null && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length === 0) return [];
  if (!Array.isArray(value)) throw new ManifestError(`${field} must be an array of strings (a list such as { "a", "b" })`);
  return value.map((item, i) => {
    if (typeof item !== 'string') throw new ManifestError(`${field}[${i + 1}] must be a string`);
    const t = item.trim();
    if (t === '') throw new ManifestError(`${field}[${i + 1}] must not be empty`);
    return t;
  });
}

function parseSettings(value: unknown): SettingDefinition[] {
  if (value === null || typeof value !== 'object') return [];
  const entries = Array.isArray(value) ? value : Object.keys(value).filter((k) => /^\d+$/.test(k)).sort((a, b) => Number(a) - Number(b)).map((k) => (value as Record<string, unknown>)[k]);
  const out: SettingDefinition[] = [];
  for (const entry of entries) {
    if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) continue;
    const e = entry as Record<string, unknown>;
    const def: SettingDefinition = { name: asText(e.name), type: asText(e.type), label: asText(e.label), required: e.required === true };
    const d = e.default;
    if (typeof d === 'boolean' || typeof d === 'number') def.default = d;
    else if (d !== null && d !== undefined) def.default = asText(d);
    if (Array.isArray(e.options)) def.options = e.options.map(asText);
    out.push(def);
  }
  return out;
}

function parseManifest(t: Record<string, unknown>): Manifest {
  const v = t.api_version;
  if (typeof v !== 'number') throw new ManifestError('api_version must be a number');
  if (!Number.isInteger(v) || v < 1) throw new ManifestError('api_version must be a positive whole number');
  const caps = t.capabilities === undefined ? [] : stringArray(t.capabilities, 'capabilities');
  for (const c of caps) {
    if (!isCapability(c)) throw new ManifestError(`unknown capability "${c}"; known capabilities: ${CAPABILITY_IDS.join(', ')}`);
  }
  let network: NetworkRule[] | null = null;
  if (t.network !== undefined) {
    const entries = stringArray(t.network, 'network');
    if (entries.length === 0) throw new ManifestError('network is empty: remove the field to allow any public host, or list at least one entry');
    try {
      network = entries.map(parseNetworkRule);
    } catch (e) {
      if (e instanceof NetworkRuleError) throw new ManifestError(e.message);
      throw e;
    }
  }
  let allowPrivateHosts = false;
  if (t.allow_private_hosts !== undefined) {
    if (typeof t.allow_private_hosts !== 'boolean') throw new ManifestError('allow_private_hosts must be a boolean');
    allowPrivateHosts = t.allow_private_hosts;
  }
  if (allowPrivateHosts) {
    if (!network) throw new ManifestError('allow_private_hosts needs a network list naming the private addresses or blocks the plugin may reach');
    const broad = network.find(tooBroadForPrivate);
    if (broad) throw new ManifestError(`network entry "${broad.canonical}" is too broad to go with allow_private_hosts; name single addresses or blocks of /8 (IPv4) or /32 (IPv6) or narrower`);
  }
  const name = asText(t.name);
  const dependencies = t.dependencies === undefined ? [] : stringArray(t.dependencies, 'dependencies');
  if (dependencies.includes(name)) throw new ManifestError(`plugin "${name}" depends on itself`);
  let minAppVersion = '';
  if (t.min_app_version !== undefined) {
    if (typeof t.min_app_version !== 'string') throw new ManifestError('min_app_version must be a string');
    if (!MIN_APP_VERSION.test(t.min_app_version)) throw new ManifestError(`min_app_version "${t.min_app_version}" is not a version such as "1.2.0"`);
    minAppVersion = t.min_app_version;
  }
  let downloadLimits: DownloadLimit[] | null = null;
  if (t.download_limits !== undefined) {
    try {
      downloadLimits = parseDownloadLimits(t.download_limits);
    } catch (e) {
      throw new ManifestError((e as Error).message);
    }
  }
  return { apiVersion: v, capabilities: effectiveCapabilities(caps), network, allowPrivateHosts, dependencies: [...new Set(dependencies)], minAppVersion, downloadLimits };
}

/** Reads the converted `plugin` global; throws ManifestError with the reason to skip it. */
export function parseHeader(value: unknown): PluginHeader {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new ManifestError('plugin.lua must define a `plugin` table');
  const t = value as Record<string, unknown>;
  checkKeys(t);
  const name = typeof t.name === 'string' ? t.name.trim() : '';
  if (name === '') throw new ManifestError('the plugin table needs a non-blank name');
  if (!PLUGIN_NAME.test(t.name as string)) throw new ManifestError(`plugin name "${asText(t.name)}" must match ^[a-z][a-z0-9_-]{0,49}$ (lower case, starting with a letter, at most 50 characters)`);
  let manifest: Manifest | null = null;
  if (t.api_version === undefined) {
    const stray = MANIFEST_KEYS.find((k) => t[k] !== undefined);
    if (stray) throw new ManifestError(`plugin declares ${stray} but no api_version: add api_version = 1 to the plugin table`);
  } else {
    manifest = parseManifest(t);
  }
  return { name: t.name as string, version: asText(t.version), description: asText(t.description), settings: parseSettings(t.settings), manifest };
}

/** Effective capabilities: every one for a legacy plugin. */
export function capabilitiesOf(header: PluginHeader): CapabilityId[] {
  return header.manifest ? header.manifest.capabilities : [...CAPABILITY_IDS];
}

/** A comparable form of the manifest (§4.5: list fields as sorted multisets). */
export function manifestKey(header: PluginHeader): string {
  const m = header.manifest;
  if (!m) return 'legacy';
  return JSON.stringify({
    v: m.apiVersion,
    c: [...m.capabilities].sort(),
    n: m.network ? m.network.map((r) => r.canonical).sort() : null,
    p: m.allowPrivateHosts,
    d: [...m.dependencies].sort(),
    a: m.minAppVersion,
    l: m.downloadLimits ? limitsKey(m.downloadLimits) : null,
  });
}

export function networkDisplay(header: PluginHeader): string[] {
  return header.manifest?.network ? canonicalRules(header.manifest.network) : [];
}
