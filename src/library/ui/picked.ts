// Names of the ids a page's pickers start with (from its query string or the entity), in one
// statement per table.
import type { FastifyRequest } from 'fastify';
import { listOf, queryOf, type PickerItem } from './components.js';
import { visibilityOf } from '../auth/visibility.js';
import { PickRepository, type PickTable } from './repository.js';

/** The picker lookups (the ui feature builds one; pages receive it from their feature). */
export type PickSource = PickRepository;

/** Names of the ids the request's principal may see; the others are left out (companion §10.10). */
export async function picked(source: PickSource, req: FastifyRequest, table: PickTable, ids: (number | null | undefined)[]): Promise<PickerItem[]> {
  const wanted = [...new Set(ids.filter((i): i is number => typeof i === 'number' && Number.isSafeInteger(i) && i > 0))];
  if (wanted.length === 0) return [];
  const rows = await source.names(table, wanted, visibilityOf(req.principal));
  return wanted.flatMap((id) => rows.filter((r) => r.id === id));
}

/**
 * What a form's picker starts with: the submitted ids when a refused post came back to the
 * form (they are in the query string), otherwise the entity's current links.
 */
export async function formPicks(source: PickSource, req: FastifyRequest, table: PickTable, field: string, current: { ID: number; Name: string }[]): Promise<PickerItem[]> {
  const q = queryOf(req);
  if (q[field] === undefined) return current.map((x) => ({ id: x.ID, name: x.Name }));
  return picked(source, req, table, listOf(q[field]).flatMap((v) => v.split(',')).map(Number));
}
