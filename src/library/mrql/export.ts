// CSV/JSON export of MRQL results (mrql.md §14.6).
import { badRequest } from '../../core/http/errors.js';
import { CSV_COLUMNS, type EntityObject } from './entities.js';
import type { MrqlResult } from './types.js';
import type { Entity } from './fields.js';

function cell(v: unknown): string {
  if (v === null || v === undefined) return '';
  let s: string;
  if (typeof v === 'object') s = JSON.stringify(v);
  else s = String(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

const line = (cells: unknown[]) => cells.map(cell).join(',') + '\r\n';

export const CSV_NEEDS_TYPE = 'CSV export requires a single entity type (add type = "resource|note|group"); use format=json for cross-entity results';

export function toCsv(result: MrqlResult): string {
  if (result.entityType === 'all') throw badRequest(CSV_NEEDS_TYPE);
  const entity = result.entityType as Entity;
  const cols = CSV_COLUMNS[entity];
  const flatCells = (o: EntityObject) => cols.map(([, k]) => o[k]);
  if ('mode' in result && result.mode === 'aggregated') {
    return line(result.columns) + result.rows.map((r) => line(result.columns.map((c) => r[c]))).join('');
  }
  if ('mode' in result && result.mode === 'bucketed') {
    let out = line([...result.keyColumns, ...cols.map(([h]) => h)]);
    for (const b of result.buckets) for (const it of b.items) out += line([...result.keyColumns.map((k) => b.key[k]), ...flatCells(it)]);
    return out;
  }
  const r = result as Extract<MrqlResult, { resources: unknown }>;
  const list = entity === 'resource' ? r.resources : entity === 'note' ? r.notes : r.groups;
  return line(cols.map(([h]) => h)) + list.map((o) => line(flatCells(o))).join('');
}

/** `<base>-<YYYY-MM-DD>.<ext>` with the saved query's name sanitised (§14.6). */
export function exportFilename(savedName: string | undefined, ext: string, now: Date): string {
  let base = 'mrql-export';
  if (savedName !== undefined) {
    const cleaned = savedName.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[-.]+|[-.]+$/g, '');
    if (cleaned) base = cleaned;
  }
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${base}-${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}.${ext}`;
}
