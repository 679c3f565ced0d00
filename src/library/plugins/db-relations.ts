// Relation types and group relations in mah.db (library-plugins.md §11.7): create / update
// (replace the given fields' values) / patch / delete through the relation services, so the
// category rules, back relations, hooks and audit entries are those of the HTTP API. Every one
// of these writers needs an editor or admin actor (§11.1); group relations also need both ends
// inside the actor's subtree.
import { forbidden } from '../../core/http/errors.js';
import { multi } from '../../core/lua/index.js';
import { can } from '../auth/principal.js';
import { OUTSIDE_SCOPE, SEE_ALL } from '../auth/visibility.js';
import { optId, options, positiveId, text } from './db-args.js';
import type { DbKit } from './db-kit.js';

const ROLE_REFUSED = 'your role does not have permission to perform this operation';

/** The §11.7 return shapes: optional ids only when set. */
function withIds(base: Record<string, unknown>, ids: Record<string, number | null | undefined>): Record<string, unknown> {
  for (const [key, v] of Object.entries(ids)) if (v) base[key] = v;
  return base;
}

export function installRelations(k: DbKit, db: Record<string, unknown>): void {
  const { relations, relationTypes: types } = k.s;
  /** nil, err when the actor may not write taxonomy; null when it may. */
  const refused = (verb: string, what: string) => (can(k.actor().principal, 'editor') ? null : multi(null, `${verb} ${what}: ${ROLE_REFUSED}`));

  const typeResult = async (id: number) => {
    const t = await types.read(id);
    return withIds({ id: t.ID, name: t.Name, description: t.Description }, { from_category_id: t.FromCategoryId, to_category_id: t.ToCategoryId, back_relation_id: t.BackRelationId });
  };
  db.create_relation_type = k.write(async (opts) => {
    const o = options(opts);
    const input = { Name: text(o.name) ?? '', Description: text(o.description) ?? '', FromCategory: optId(o.from_category, 'from_category'), ToCategory: optId(o.to_category, 'to_category'), ReverseName: text(o.reverse_name) };
    const no = refused('creating', 'a relation type');
    if (no) return no;
    return typeResult((await types.create(k.actor(), input)).ID);
  });
  for (const mode of ['update', 'patch'] as const) {
    db[`${mode}_relation_type`] = k.write(async (opts) => {
      const o = options(opts);
      const from = optId(o.from_category, 'from_category');
      const to = optId(o.to_category, 'to_category');
      const no = refused('editing', 'a relation type');
      if (no) return no;
      const id = optId(o.id, 'id');
      if (!id) return multi(null, 'id is required for updating/patching a relation type');
      const replace = mode === 'update';
      // §11.7: update replaces every field (an omitted category becomes 0), patch keeps an
      // omitted one; an explicit 0 clears it. A relation type needs both categories, so a cleared
      // one is refused as the HTTP create/edit refuses it ("FromCategory is required").
      await types.update(k.actor(), id, {
        Name: text(o.name) ?? (replace ? '' : undefined),
        Description: text(o.description) ?? (replace ? '' : undefined),
        FromCategory: from ?? (replace ? 0 : undefined),
        ToCategory: to ?? (replace ? 0 : undefined),
      });
      return typeResult(id);
    });
  }
  db.delete_relation_type = k.write(async (id) => {
    const n = positiveId(id, 1, 'delete_relation_type');
    const no = refused('deleting', 'a relation type');
    if (no) return no;
    await types.named.delete(k.actor(), n);
    return true;
  });

  const relationResult = (r: { Id: number; Name: string; Description: string; FromGroupId: number; ToGroupId: number; GroupRelationTypeId: number }) =>
    withIds({ id: r.Id, name: r.Name, description: r.Description }, { from_group_id: r.FromGroupId, to_group_id: r.ToGroupId, relation_type_id: r.GroupRelationTypeId });
  /** Both ends must be groups the actor sees; one outside its subtree refuses the write. */
  const insideScope = async (ids: number[]) => {
    for (const id of ids) {
      const seen = await k.s.groups.named.repo.find(id, k.vis());
      const exists = seen ?? (await k.s.groups.named.repo.find(id, SEE_ALL));
      if (exists && !seen) throw forbidden(`group ${id} is ${OUTSIDE_SCOPE}`);
    }
  };
  db.create_group_relation = k.write(async (opts) => {
    const o = options(opts);
    const from = optId(o.from_group_id, 'from_group_id');
    const to = optId(o.to_group_id, 'to_group_id');
    const type = optId(o.relation_type_id, 'relation_type_id');
    const no = refused('creating', 'a group relation');
    if (no) return no;
    if (!from || !to || !type) return multi(null, 'from_group_id, to_group_id, and relation_type_id are required');
    await insideScope([from, to]);
    const r = await relations.create(k.actor(), { FromGroupId: from, ToGroupId: to, GroupRelationTypeId: type, Name: text(o.name) ?? '', Description: text(o.description) ?? '' });
    return relationResult(r);
  });
  for (const mode of ['update', 'patch'] as const) {
    db[`${mode}_group_relation`] = k.write(async (opts) => {
      const o = options(opts);
      const no = refused('editing', 'a group relation');
      if (no) return no;
      const id = optId(o.id, 'id');
      if (!id) return multi(null, 'id is required for updating/patching a group relation');
      const replace = mode === 'update';
      const r = await relations.update(k.actor(), id, { Name: text(o.name) ?? (replace ? '' : undefined), Description: text(o.description) ?? (replace ? '' : undefined) });
      return relationResult(r);
    });
  }
  db.delete_group_relation = k.write(async (id) => {
    const n = positiveId(id, 1, 'delete_group_relation');
    const no = refused('deleting', 'a group relation');
    if (no) return no;
    // The relation must be one the actor sees (both ends inside its subtree).
    await relations.named.require(n, k.vis());
    await relations.named.delete(k.actor(), n);
    return true;
  });
}
