// Fixture states the library's API cannot create, written straight to the database. Every
// other fixture goes through the API; each helper here says why it cannot.
import type { TestLibrary } from './library.js';

/**
 * Stored meta that is not a JSON object. Every write path validates Meta as an object, so only
 * damaged or very old data holds anything else; edit-meta must refuse to build on it.
 */
export async function corruptMeta(lib: TestLibrary, table: 'groups' | 'notes' | 'resources', id: number, text: string): Promise<void> {
  await lib.lib.db.updateTable(table).set({ meta: text }).where('id', '=', id).execute();
}
