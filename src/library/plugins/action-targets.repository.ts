// What an action's filters look at (library-plugins.md §17.4, §17.5): for each target id the
// entity's content type, category and note type, limited to the entities the caller may see.
import { Repository } from '../../core/db/repository.js';
import { insideScope } from '../auth/visibility.repository.js';
import type { Visibility } from '../auth/visibility.js';
import type { Database } from '../schema/database.js';
import type { ActionEntity, FilterValues } from './actions.js';

export class ActionTargetsRepository extends Repository<Database> {
  /** Filter values of the visible entities among `ids` (absent ids are missing or invisible). */
  async describe(vis: Visibility, kind: ActionEntity, ids: readonly number[]): Promise<Map<number, FilterValues>> {
    const unique = [...new Set(ids)].filter((n) => Number.isSafeInteger(n));
    const out = new Map<number, FilterValues>();
    if (unique.length === 0) return out;
    if (kind === 'resource') {
      let q = this.db.selectFrom('resources').select(['id', 'content_type', 'resource_category_id']).where('id', 'in', unique);
      const cond = insideScope(vis, 'resources.owner_id');
      if (cond) q = q.where(cond);
      for (const r of await q.execute()) out.set(Number(r.id), { contentType: r.content_type, categoryId: r.resource_category_id ?? undefined });
    } else if (kind === 'group') {
      let q = this.db.selectFrom('groups').select(['id', 'category_id']).where('id', 'in', unique);
      const cond = insideScope(vis, 'groups.id');
      if (cond) q = q.where(cond);
      for (const r of await q.execute()) out.set(Number(r.id), { categoryId: r.category_id ?? undefined });
    } else {
      let q = this.db.selectFrom('notes').select(['id', 'note_type_id']).where('id', 'in', unique);
      const cond = insideScope(vis, 'notes.owner_id');
      if (cond) q = q.where(cond);
      for (const r of await q.execute()) out.set(Number(r.id), { noteTypeId: r.note_type_id ?? undefined });
    }
    return out;
  }
}
