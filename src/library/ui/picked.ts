// Names of the ids a page's pickers start with (from its query string or the entity), in one
// statement per table.
import type { LibraryDb } from '../schema/database.js';
import type { PickerItem } from './components.js';

export async function picked(db: LibraryDb, table: 'tags' | 'groups' | 'notes' | 'resources', ids: (number | null | undefined)[]): Promise<PickerItem[]> {
  const wanted = [...new Set(ids.filter((i): i is number => typeof i === 'number' && Number.isSafeInteger(i) && i > 0))];
  if (wanted.length === 0) return [];
  const rows = await db.selectFrom(table).select(['id', 'name']).where('id', 'in', wanted).execute();
  return wanted.flatMap((id) => rows.filter((r) => r.id === id));
}
