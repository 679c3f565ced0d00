// Names of the ids a page's pickers start with (from its query string or the entity), in one
// statement per table.
import type { FastifyRequest } from 'fastify';
import { dialectOf } from '../../core/db/dialect/index.js';
import type { LibraryDb } from '../schema/database.js';
import { listOf, queryOf, type PickerItem } from './components.js';
import { PickRepository, type PickTable } from './repository.js';

/** The picker lookups; pages not yet given one by their feature may pass the database. */
export type PickSource = PickRepository | LibraryDb;

const pickRepository = (source: PickSource) => (source instanceof PickRepository ? source : new PickRepository(source, dialectOf(source)));

export async function picked(source: PickSource, table: PickTable, ids: (number | null | undefined)[]): Promise<PickerItem[]> {
  const wanted = [...new Set(ids.filter((i): i is number => typeof i === 'number' && Number.isSafeInteger(i) && i > 0))];
  if (wanted.length === 0) return [];
  const rows = await pickRepository(source).names(table, wanted);
  return wanted.flatMap((id) => rows.filter((r) => r.id === id));
}

/**
 * What a form's picker starts with: the submitted ids when a refused post came back to the
 * form (they are in the query string), otherwise the entity's current links.
 */
export async function formPicks(source: PickSource, req: FastifyRequest, table: PickTable, field: string, current: { ID: number; Name: string }[]): Promise<PickerItem[]> {
  const q = queryOf(req);
  if (q[field] === undefined) return current.map((x) => ({ id: x.ID, name: x.Name }));
  return picked(source, table, listOf(q[field]).flatMap((v) => v.split(',')).map(Number));
}
