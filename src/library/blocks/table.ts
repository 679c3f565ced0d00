// Query-backed table blocks (contract: GET /v1/note/block/table/query): the block's saved query
// runs read-only with its stored queryParams, overridden by the request's extra parameters.
// Columns get positional ids (col_0, col_1, …) and rows synthetic ids, so duplicate column names
// or a column called "id" cannot collide; JSON-document cells arrive as compact JSON text.
import type { Principal } from '../auth/principal.js';
import { badRequest } from '../../core/http/errors.js';
import { parseJson } from '../../core/db/values.js';
import type { BlockRow, JsonObject } from './records.js';

/** Runs a saved query read-only (the saved queries feature's QueryService does). */
export interface SavedQueryRunner {
  /** Refuses group-limited principals (403): saved SQL cannot be confined to a subtree. */
  run(principal: Principal, ref: { id: number }, params: Record<string, unknown>): Promise<{ columns: string[]; rows: unknown[][] }>;
}

export interface TableData {
  columns: { id: string; label: string }[];
  rows: Record<string, unknown>[];
  cachedAt: string;
  queryId: number;
  isStatic: boolean;
}

function cell(v: unknown): unknown {
  if (v === null || v === undefined) return null;
  if (v instanceof Date) return v.toISOString();
  if (Buffer.isBuffer(v)) return v.toString('base64');
  if (typeof v === 'bigint') return v.toString();
  if (typeof v === 'object') return JSON.stringify(v);
  return v;
}

/** Stored params first, then the extras; names match case-insensitively, the extras win. */
export function mergeParams(stored: JsonObject, extra: Record<string, unknown>): Record<string, unknown> {
  const merged = new Map<string, [string, unknown]>();
  for (const [k, v] of Object.entries(stored)) merged.set(k.toLowerCase(), [k, v]);
  for (const [k, v] of Object.entries(extra)) merged.set(k.toLowerCase(), [k, Array.isArray(v) ? v[0] : v]);
  return Object.fromEntries([...merged.values()]);
}

export async function runTableQuery(queries: SavedQueryRunner, principal: Principal, block: BlockRow, extra: Record<string, unknown>): Promise<TableData> {
  if (block.type !== 'table') throw badRequest(`block ${block.id} is not a table block`);
  const content = parseJson<JsonObject>(block.content, {});
  if (typeof content.queryId !== 'number') throw badRequest(`table block ${block.id} is not backed by a saved query`);
  const params = mergeParams((content.queryParams as JsonObject | undefined) ?? {}, extra);
  const result = await queries.run(principal, { id: content.queryId }, params);
  return {
    columns: result.columns.map((label, i) => ({ id: `col_${i}`, label })),
    rows: result.rows.map((r, i) => {
      const row: Record<string, unknown> = { id: `row_${i}` };
      r.forEach((v, j) => (row[`col_${j}`] = cell(v)));
      return row;
    }),
    cachedAt: new Date().toISOString(),
    queryId: content.queryId,
    isStatic: content.isStatic === true,
  };
}
