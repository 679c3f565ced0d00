// Names of the ids a page's pickers start with (from its query string or the entity), in one
// statement per table.
import type { FastifyRequest } from 'fastify';
import type { LibraryDb } from '../schema/database.js';
import { listOf, queryOf, type PickerItem } from './components.js';

export async function picked(db: LibraryDb, table: 'tags' | 'groups' | 'notes' | 'resources', ids: (number | null | undefined)[]): Promise<PickerItem[]> {
  const wanted = [...new Set(ids.filter((i): i is number => typeof i === 'number' && Number.isSafeInteger(i) && i > 0))];
  if (wanted.length === 0) return [];
  const rows = await db.selectFrom(table).select(['id', 'name']).where('id', 'in', wanted).execute();
  return wanted.flatMap((id) => rows.filter((r) => r.id === id));
}

/**
 * What a form's picker starts with: the submitted ids when a refused post came back to the
 * form (they are in the query string), otherwise the entity's current links.
 */
export async function formPicks(
  db: LibraryDb,
  req: FastifyRequest,
  table: 'tags' | 'groups' | 'notes' | 'resources',
  field: string,
  current: { ID: number; Name: string }[],
): Promise<PickerItem[]> {
  const q = queryOf(req);
  if (q[field] === undefined) return current.map((x) => ({ id: x.ID, name: x.Name }));
  return picked(db, table, listOf(q[field]).flatMap((v) => v.split(',')).map(Number));
}
