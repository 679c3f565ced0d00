// Apply phase "creating groups": top-down, so every owner exists before its children. Roots go
// under parent_group_id (or the top level). A group whose GUID this library already has follows
// the GUID policy: merge fills empty fields, adds tags and missing meta keys; skip leaves it as
// it is; replace overwrites its fields and tags (it keeps its place in the tree). Shell groups
// are created as plain groups or mapped onto an existing one. Links and relations wait for the
// last phase.
import { nowIso } from '../../../core/db/values.js';
import { GROUP_CARRIER } from '../../groups/content.js';
import { validName } from '../../common/names.js';
import { slices } from '../../archive/batches.js';
import type { GroupEntry } from '../archive-index.js';
import { obj, str, strList, strOrNull, isObj, type Obj } from '../fields.js';
import { relationKey, type PlanItem } from '../plan.js';
import type { Tx } from '../../../core/db/repository.js';
import type { Database } from '../../schema/database.js';
import { checkImportedMeta, importedUrl, mergedMeta } from './rows.js';
import type { ApplyRun } from './run.js';

const BATCH = 100;

/** Groups in tree order (parents first), as the plan lists them. */
function topDown(run: ApplyRun): GroupEntry[] {
  const byId = new Map(run.index.groups.map((g) => [g.id, g]));
  const out: GroupEntry[] = [];
  const walk = (items: PlanItem[]) =>
    items.forEach((i) => {
      const g = byId.get(i.export_id);
      if (g) out.push(g);
      walk(i.children);
    });
  walk(run.plan.items);
  return out;
}

async function guidMatches(run: ApplyRun, guids: (string | null)[]): Promise<Map<string, number>> {
  const wanted = [...new Set(guids.filter((g): g is string => g !== null))];
  const out = new Map<string, number>();
  for (const r of await run.repo.idsByGuid('groups', wanted)) out.set(r.guid!, r.id);
  return out;
}

function groupName(run: ApplyRun, raw: string): string {
  try {
    return validName(raw);
  } catch {
    run.warn(`group "${raw.slice(0, 80)}" has an invalid name; it was imported as "Unnamed group"`);
    return 'Unnamed group';
  }
}

async function applyOne(run: ApplyRun, tx: Tx<Database>, g: GroupEntry, guids: Map<string, number>): Promise<void> {
  const repo = run.repo.in(tx);
  if (run.excluded.has(g.id)) return;
  const shell = run.d.shells[g.id];
  if (g.shell && shell?.action === 'map_to_existing') {
    run.groups.set(g.id, { id: shell.destinationId!, touched: false });
    run.result.mapped_shell_groups++;
    return;
  }
  const p = await run.payload(g.file);
  const categoryId = run.vocabId('categories', g.categoryRef, g.categoryName);
  const tags = run.tagIds(g.tags);
  const meta = obj(p.meta);
  const label = `group "${g.name.slice(0, 80)}"`;
  const match = g.guid ? guids.get(g.guid) : undefined;
  if (match !== undefined) {
    run.result.linked_by_guid_groups++;
    const row = await repo.group(match);
    if (run.d.guidPolicy === 'skip') {
      run.result.skipped_by_policy_groups++;
      run.groups.set(g.id, { id: match, touched: false });
    } else if (run.d.guidPolicy === 'merge') {
      const merged = mergedMeta(row.meta, meta);
      await repo.updateGroup(match, {
        description: row.description || str(p.description),
        url: row.url ?? importedUrl(run, strOrNull(p.url), label),
        category_id: row.category_id ?? categoryId,
        meta: JSON.stringify(merged),
        updated_at: nowIso(),
      });
      await repo.setTags('group', match, tags);
      run.result.merged_groups++;
      run.groups.set(g.id, { id: match, touched: true });
    } else {
      await checkImportedMeta(run, tx, GROUP_CARRIER, categoryId, meta, label);
      await repo.updateGroup(match, { name: groupName(run, g.name), description: str(p.description), url: importedUrl(run, strOrNull(p.url), label), category_id: categoryId, meta: JSON.stringify(meta), updated_at: nowIso() });
      await repo.setTags('group', match, tags, true);
      run.groups.set(g.id, { id: match, touched: true });
    }
  } else {
    const owner = run.ownerOf(g.owner === g.id ? null : g.owner);
    if (owner.excluded) return;
    await checkImportedMeta(run, tx, GROUP_CARRIER, categoryId, meta, label);
    const id = await repo.insertGroup({
      ...run.stamp(p),
      guid: await run.guidFor(repo, 'groups', p.guid),
      name: groupName(run, g.name),
      description: str(p.description),
      url: importedUrl(run, strOrNull(p.url), label),
      meta: JSON.stringify(meta),
      owner_id: owner.id,
      category_id: categoryId,
    });
    await repo.setTags('group', id, tags);
    if (g.shell) run.result.created_shell_groups++;
    else run.result.created_groups++;
    run.result.created_group_ids.push(id);
    run.groups.set(g.id, { id, touched: true });
  }
  if (!g.shell) queueLinks(run, g.id, p);
}

/** Related entities and typed relations of a group, made once every entity exists. */
function queueLinks(run: ApplyRun, id: string, p: Obj): void {
  for (const other of strList(p.related_groups)) run.links.push({ table: 'group_related_groups', group: id, other });
  for (const other of strList(p.related_resources)) run.links.push({ table: 'groups_related_resources', group: id, other });
  for (const other of strList(p.related_notes)) run.links.push({ table: 'groups_related_notes', group: id, other });
  for (const r of Array.isArray(p.relationships) ? p.relationships.filter(isObj) : []) {
    const typeKey = relationKey(str(r.type_name), strOrNull(r.from_category_name), strOrNull(r.to_category_name));
    let to: string | number | null = strOrNull(r.to_ref);
    const dangling = strOrNull(r.dangling_ref);
    if (to === null && dangling !== null) {
      const decision = run.d.dangling[dangling];
      to = decision?.action === 'map' ? decision.destinationId : null;
    }
    if (to !== null) run.relations.push({ from: id, to, typeKey, name: str(r.name), description: str(r.description) });
  }
}

export async function applyGroups(run: ApplyRun): Promise<void> {
  const order = topDown(run);
  const guids = await guidMatches(run, order.map((g) => g.guid));
  let done = 0;
  for (const batch of slices(order, BATCH)) {
    run.checkCancelled();
    await run.transactor.run(async (tx) => {
      for (const g of batch) await applyOne(run, tx, g, guids);
    });
    done += batch.length;
    run.advance(batch.length);
    run.job.phase('creating groups', done, order.length);
  }
}
