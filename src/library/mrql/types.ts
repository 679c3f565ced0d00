// What flows through the MRQL pipeline: run options, the prepared query (stages 1–8), and the
// three result shapes (mrql.md §15).
import type { Principal } from '../auth/principal.js';
import type { Query } from './ast.js';
import type { EntityObject } from './entities.js';
import type { EntityOrAll } from './fields.js';
import type { Checked } from './validate.js';

export const MAX_LIMIT = 10000;
export const MAX_OFFSET = 10000;
/** Bucket keys discovered at most (one more is fetched to know there are more). */
export const MAX_KEYS = 1000;
export const MAX_BUCKETS_PER_PAGE = 200;
export const MAX_ITEMS = 10000;

export interface RunOptions {
  limit?: number;
  page?: number;
  buckets?: number;
  offset?: number;
  params?: Record<string, unknown>;
  principal?: Principal;
  /** Shortcode scope (§19.1): a group id, or null for "an anchor that does not exist". Ignored when the query has SCOPE. */
  contextScope?: number | null;
  /**
   * 'link': the caller reads only ID, Name and Description of each entity (a fixed-format
   * `[mrql]` without a template). The scope batch then selects and builds just those; other
   * paths return whole entity objects (a superset).
   */
  fields?: 'link';
}

export interface Stats {
  statements: number;
  rows: number;
}

/** `large`: the subtree holds a large share of all groups, so walking the ORDER BY index and probing membership beats collecting the subtree's rows. */
export type ScopeSpec = { kind: 'none' } | { kind: 'explicit' | 'forced' | 'context'; id: number; large?: boolean } | { kind: 'nothing' };

export interface Prepared {
  q: Query;
  checked: Checked;
  entity: EntityOrAll;
  limit: number;
  offset: number;
  defaultApplied: boolean;
  scope: ScopeSpec;
  bucket?: { items: number; perPage: number | null; offset: number; offsetInEffect: boolean };
  tagIds?: Map<string, number[]>;
}

export interface FlatResult {
  entityType: string;
  resources: EntityObject[];
  notes: EntityObject[];
  groups: EntityObject[];
  counts: { resources: number; notes: number; groups: number };
  warnings: string[];
  default_limit_applied: boolean;
  applied_limit: number;
}

export interface AggregatedResult {
  entityType: string;
  mode: 'aggregated';
  columns: string[];
  rows: Record<string, unknown>[];
  buckets: never[];
  warnings: string[];
  default_limit_applied: boolean;
  applied_limit: number;
}

export interface Bucket {
  key: Record<string, unknown>;
  items: EntityObject[];
}

export interface BucketedResult {
  entityType: string;
  mode: 'bucketed';
  keyColumns: string[];
  buckets: Bucket[];
  groups: Bucket[];
  rows: never[];
  totalGroups: number;
  nextOffset?: number;
  warnings: string[];
  default_limit_applied: boolean;
  applied_limit: number;
}

export type MrqlResult = FlatResult | AggregatedResult | BucketedResult;
