// Runtime settings (companion §1.9): a curated set of values an administrator may change
// without a restart. A row in runtime_settings overrides the boot default (flags, environment,
// built-in default); deleting the row returns to it. Every change is audited.
import { parseDuration } from '../../core/config/duration.js';
import { nowIso } from '../../core/db/values.js';
import { badRequest, notFound } from '../../core/http/errors.js';
import type { SettingsRepository } from './repository.js';

export type SettingType = 'int64' | 'int' | 'uint64' | 'duration' | 'string';
type Value = number | string;

export interface SettingSpec {
  key: string;
  label: string;
  description: string;
  group: 'uploads' | 'queries' | 'remote_downloads' | 'sharing' | 'docs' | 'deduplication' | 'exports';
  type: SettingType;
  /** Numeric bounds; durations in nanoseconds. */
  min?: number;
  max?: number;
  allowZero?: boolean;
  /** Strings: an absolute http(s) URL, and whether empty is allowed. */
  url?: { allowEmpty: boolean };
}

const NS = 1_000_000; // nanoseconds per millisecond
const H = 3_600_000 * NS;
const D = 24 * H;
const TB = 2 ** 40;

export const SETTINGS: SettingSpec[] = [
  { key: 'max_upload_size', label: 'Maximum upload size', description: 'Per-request body limit for uploads, versions and thumbnails; 0 = unlimited.', group: 'uploads', type: 'int64', min: 1024, max: TB, allowZero: true },
  { key: 'max_import_size', label: 'Maximum import size', description: 'Body limit for group import archives.', group: 'uploads', type: 'int64', min: 2 ** 20, max: TB },
  { key: 'mrql_default_limit', label: 'MRQL default limit', description: 'LIMIT applied to MRQL queries without one.', group: 'queries', type: 'int', min: 1, max: 100000 },
  { key: 'mrql_page_query_budget', label: 'MRQL queries per page', description: 'Distinct inline [mrql] queries one page render may run; 0 = no limit.', group: 'queries', type: 'int', min: 0, max: 100000 },
  { key: 'mrql_query_timeout', label: 'MRQL query timeout', description: 'Per-query execution limit.', group: 'queries', type: 'duration', min: 100 * NS, max: 5 * 60_000 * NS },
  { key: 'remote_connect_timeout', label: 'Remote connect timeout', description: 'Dial and response-header timeout of server-side fetches.', group: 'remote_downloads', type: 'duration', min: 1000 * NS, max: 10 * 60_000 * NS },
  { key: 'remote_idle_timeout', label: 'Remote idle timeout', description: 'Abort a fetch when no bytes arrive for this long.', group: 'remote_downloads', type: 'duration', min: 1000 * NS, max: H },
  { key: 'remote_overall_timeout', label: 'Remote overall timeout', description: 'Whole-download limit.', group: 'remote_downloads', type: 'duration', min: 10_000 * NS, max: 24 * H },
  { key: 'download_failed_retention', label: 'Failed download retention', description: 'How long failed and cancelled downloads stay in the history.', group: 'remote_downloads', type: 'duration', min: H, max: 365 * D },
  { key: 'download_history_retention', label: 'Download history retention', description: 'How long completed downloads stay in the history.', group: 'remote_downloads', type: 'duration', min: H, max: 365 * D },
  { key: 'download_cockpit_limit', label: 'Jobs panel download limit', description: 'Finished downloads the jobs panel shows.', group: 'remote_downloads', type: 'int', min: 1, max: 200 },
  { key: 'share_public_url', label: 'Share public URL', description: 'Absolute base for share links; empty shows relative links.', group: 'sharing', type: 'string', url: { allowEmpty: true } },
  { key: 'docs_site_base_url', label: 'Docs site', description: 'Base of the contextual documentation links.', group: 'docs', type: 'string', url: { allowEmpty: false } },
  { key: 'docs_links_disabled', label: 'Hide docs links', description: '1 hides every contextual documentation link.', group: 'docs', type: 'int', min: 0, max: 1 },
  { key: 'hash_similarity_threshold', label: 'Similarity threshold', description: 'Largest perceptual distance that counts as similar.', group: 'deduplication', type: 'int', min: 0, max: 11 },
  { key: 'hash_ahash_threshold', label: 'Average-hash threshold', description: 'Secondary check against solid-colour matches; 0 disables it.', group: 'deduplication', type: 'uint64', min: 0, max: 64 },
  { key: 'hash_backfill_paused', label: 'Pause hash backfill', description: '1 pauses the background hashing of existing images.', group: 'deduplication', type: 'int', min: 0, max: 1 },
  { key: 'export_retention', label: 'Export retention', description: 'How long a finished export stays downloadable.', group: 'exports', type: 'duration', min: 60_000 * NS, max: 30 * D },
];

const GROUP_ORDER = ['uploads', 'queries', 'remote_downloads', 'sharing', 'docs', 'deduplication', 'exports'];

const SUFFIX: Record<string, number> = { K: 2 ** 10, M: 2 ** 20, G: 2 ** 30, T: 2 ** 40 };

/** Parses a setting value sent as text; throws 400 naming the problem. */
export function parseSetting(spec: SettingSpec, text: string): Value {
  const t = text.trim();
  if (spec.type === 'string') {
    if (t === '' && spec.url?.allowEmpty) return '';
    let u: URL | null = null;
    try {
      u = new URL(t);
    } catch {
      /* reported below */
    }
    if (!u || (u.protocol !== 'http:' && u.protocol !== 'https:') || !u.host) throw badRequest(`${spec.key} must be an absolute http or https URL`);
    return t;
  }
  let n: number;
  if (spec.type === 'duration') {
    try {
      n = Math.round(parseDuration(t) * NS);
    } catch (e) {
      throw badRequest(`${spec.key}: invalid duration "${t}" (${(e as Error).message}; Go units ns, us, ms, s, m, h)`);
    }
  } else {
    const m = spec.type === 'uint64' ? /^(\d+)$/.exec(t) : /^(-?\d+)([KMGT])?$/i.exec(t);
    if (!m) throw badRequest(`${spec.key}: "${t}" is not ${spec.type === 'uint64' ? 'a plain decimal' : 'an integer (K, M, G, T suffixes allowed)'}`);
    n = Number(m[1]) * (m[2] ? SUFFIX[m[2].toUpperCase()] : 1);
  }
  const zeroOk = spec.allowZero && n === 0;
  if (!zeroOk && ((spec.min !== undefined && n < spec.min) || (spec.max !== undefined && n > spec.max))) {
    throw badRequest(`${spec.key} must be between ${spec.min} and ${spec.max}${spec.allowZero ? ' (or 0)' : ''}`);
  }
  return n;
}

export interface SettingView {
  key: string;
  label: string;
  description: string;
  group: string;
  type: SettingType;
  current: Value;
  bootDefault: Value;
  overridden: boolean;
  updatedAt?: string;
  reason?: string;
  minNumeric?: number;
  maxNumeric?: number;
  allowZero?: boolean;
}

interface Override {
  value: Value;
  reason: string;
  updatedAt: string;
}

export class RuntimeSettings {
  private readonly overrides = new Map<string, Override>();

  constructor(
    private readonly repo: SettingsRepository,
    /** Boot defaults by key; durations in nanoseconds. */
    private readonly boot: Record<string, Value>,
  ) {}

  /** Loads the stored overrides; rows of unknown keys are ignored. */
  async load(log: (msg: string) => void = () => undefined): Promise<void> {
    const rows = await this.repo.all();
    for (const r of rows) {
      const spec = SETTINGS.find((s) => s.key === r.key);
      if (!spec) continue;
      try {
        const env = JSON.parse(r.value_json) as { value: Value };
        this.overrides.set(r.key, { value: env.value, reason: r.reason, updatedAt: r.updated_at });
        log(`runtime setting ${r.key} overrides its boot value`);
      } catch {
        log(`runtime setting ${r.key} has an unreadable stored value; using the boot value`);
      }
    }
  }

  spec(key: string): SettingSpec {
    const spec = SETTINGS.find((s) => s.key === key);
    if (!spec) throw notFound(`unknown runtime setting ${key}`);
    return spec;
  }

  /** The effective value: the override, else the boot default. Durations in nanoseconds. */
  get(key: string): Value {
    return this.overrides.get(key)?.value ?? this.boot[key];
  }

  /** A duration setting in milliseconds. */
  millis(key: string): number {
    return Number(this.get(key)) / NS;
  }

  view(key: string): SettingView {
    const spec = this.spec(key);
    const o = this.overrides.get(key);
    const v: SettingView = {
      key,
      label: spec.label,
      description: spec.description,
      group: spec.group,
      type: spec.type,
      current: this.get(key),
      bootDefault: this.boot[key],
      overridden: o !== undefined,
    };
    if (o) {
      v.updatedAt = o.updatedAt;
      if (o.reason) v.reason = o.reason;
    }
    if (spec.min !== undefined) v.minNumeric = spec.min;
    if (spec.max !== undefined) v.maxNumeric = spec.max;
    if (spec.allowZero) v.allowZero = true;
    return v;
  }

  list(): SettingView[] {
    return [...SETTINGS]
      .sort((a, b) => GROUP_ORDER.indexOf(a.group) - GROUP_ORDER.indexOf(b.group) || a.key.localeCompare(b.key))
      .map((s) => this.view(s.key));
  }

  /** Stores an override; returns the old and new effective values for the audit entry. */
  async set(key: string, text: string, reason: string): Promise<{ before: Value; after: Value }> {
    const spec = this.spec(key);
    const value = parseSetting(spec, text);
    const before = this.get(key);
    const updatedAt = nowIso();
    const row = { value_json: JSON.stringify({ type: spec.type, value }), reason, updated_at: updatedAt };
    await this.repo.save(key, row);
    this.overrides.set(key, { value, reason, updatedAt });
    return { before, after: value };
  }

  async reset(key: string): Promise<{ before: Value; after: Value }> {
    this.spec(key);
    const before = this.get(key);
    await this.repo.remove(key);
    this.overrides.delete(key);
    return { before, after: this.get(key) };
  }
}

/** Duration flags (milliseconds) as setting values (nanoseconds). */
export const nanos = (ms: number) => Math.round(ms * NS);
