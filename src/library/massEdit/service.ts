// Content edits over resources, notes and groups. A mass-edit plan runs in one transaction:
// resolve the selection (explicit ids, or a list filter recounted against ExpectedCount), then
// the link ops, the meta op and, last, the owner op; any failure rolls the whole edit back.
// Edit-meta sets one dot path the same way: checked against the carrier's MetaSchema, stored
// the entity's way. Work is done in chunks of ids so every statement stays within the engines'
// parameter limits.
import type { Tx } from '../../core/db/repository.js';
import { nowIso } from '../../core/db/values.js';
import { badRequest, conflict, forbidden, notFound } from '../../core/http/errors.js';
import type { Actor } from '../auth/principal.js';
import { OUTSIDE_SCOPE, SEE_ALL, visibilityOf, type Visibility } from '../auth/visibility.js';
import { withChange, type ChangeData } from '../common/changes.js';
import type { ContentKind, LinkSpec } from '../common/content.js';
import { requireIdsFound, type NamedDeps } from '../common/named.js';
import { checkMeta } from '../meta/schema.js';
import { parseMetaPath, setMetaPath, storedMeta, type MetaObject } from '../meta/paths.js';
import type { Database } from '../schema/database.js';
import type { ContentRepository, LinkPair } from './repository.js';
import { snapshotItems, writeRewrites } from './rewrites.js';
import { opNames, type LinkOp, type MassEditPlan, type MetaOp, type OwnerOp } from './plan.js';

const CHUNK = 500;

export interface MassEditResult {
  entity: string;
  matched: number;
  affected: number;
  ops: { op: string; rowsAffected: number }[];
  dryRun: boolean;
}

function chunks<T>(items: readonly T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

function applyMeta(op: MetaOp, meta: MetaObject): { next: MetaObject; nulls: string[] } {
  if (op.verb === 'replace') return { next: { ...op.object }, nulls: [] };
  if (op.verb === 'merge') return { next: { ...meta, ...op.object }, nulls: Object.keys(op.object).filter((k) => op.object[k] === null) };
  const next = { ...meta };
  for (const k of op.keys) delete next[k];
  return { next, nulls: op.keys };
}

export class ContentEdits {
  constructor(
    private readonly repo: ContentRepository,
    private readonly deps: NamedDeps,
  ) {}

  /** Every id must exist in `table` and be visible (404 naming the first that is not). */
  private async requireIds(content: ContentRepository, table: Parameters<ContentRepository['existingIds']>[0], ids: number[], label: string, vis: Visibility): Promise<void> {
    for (const part of chunks(ids)) {
      requireIdsFound(label, part, await content.existingIds(table, part, vis));
    }
  }

  private async resolveSelection(tx: Tx<Database>, kind: ContentKind, plan: MassEditPlan, ceiling: number, vis: Visibility): Promise<number[]> {
    const s = plan.selection;
    if (s.target === 'ids') {
      await this.requireIds(this.repo.in(tx), kind.table, s.ids, kind.entity, vis);
      return s.ids;
    }
    const ids = await kind.filterIds(tx, vis, s.query, ceiling + 1);
    if (ids.length > ceiling) throw badRequest(`the filter matches more than ${ceiling} ${kind.plural}; narrow it down`);
    if (ids.length !== s.expected) throw conflict(`the filter now matches ${ids.length} ${kind.plural}, not the expected ${s.expected}`);
    return ids;
  }

  /** Checks `meta` against the entity's carrier and stores it the kind's way. */
  private async storeMeta(tx: Tx<Database>, kind: ContentKind, id: number, carrierId: number | null, meta: MetaObject, nullOverrides: string[]): Promise<void> {
    const content = this.repo.in(tx);
    if (carrierId !== null) {
      const carrier = await content.carrierSchema(kind.carrier, carrierId);
      if (carrier) checkMeta(carrier.meta_schema, meta, kind.carrier.label, carrier.name);
    }
    if (kind.writeMeta) await kind.writeMeta(tx, id, meta, nullOverrides);
    else await content.writeMeta(kind.table, id, JSON.stringify(meta));
  }

  /** Adds, removes or replaces link rows; returns rows changed and records the entities touched. */
  /**
   * A confined caller's link ops never touch links to entities it cannot see (contract, mass
   * edit): remove refuses to break one (403), replace keeps them. Links whose far end no longer
   * exists are dangling rows and are cleared like any other.
   */
  private async runLink(content: ContentRepository, spec: LinkSpec, op: LinkOp, selection: number[], touched: Set<number>, vis: Visibility): Promise<number> {
    const selfLinks = spec.target === 'groups' && spec.table === 'group_related_groups';
    let rows = 0;
    for (const part of chunks(selection)) {
      let existing = await content.links(spec, part);
      if (vis.kind === 'subtree' && spec.target !== 'tags' && existing.length > 0) {
        const far = [...new Set(existing.map((r) => r.o))];
        const live = new Set<number>();
        const seen = new Set<number>();
        for (const c of chunks(far)) {
          for (const id of await content.existingIds(spec.target, c, SEE_ALL)) live.add(id);
          for (const id of await content.existingIds(spec.target, c, vis)) seen.add(id);
        }
        const hidden = (o: number) => live.has(o) && !seen.has(o);
        if (op.verb === 'remove' && existing.some((r) => hidden(r.o) && op.ids.includes(r.o))) {
          throw forbidden(`cannot remove a link to an entity ${OUTSIDE_SCOPE}`);
        }
        existing = existing.filter((r) => !hidden(r.o));
      }
      const have = new Set(existing.map((r) => `${r.s}:${r.o}`));
      const wanted = new Set(op.ids);
      const toDelete = existing.filter((r) => (op.verb === 'remove' ? wanted.has(r.o) : op.verb === 'replace' ? !wanted.has(r.o) : false));
      const toInsert: LinkPair[] =
        op.verb === 'remove' ? [] : part.flatMap((s) => op.ids.filter((o) => !(selfLinks && o === s) && !have.has(`${s}:${o}`)).map((o) => ({ s, o })));
      for (const del of chunks(toDelete)) await content.unlink(spec, del);
      for (const ins of chunks(toInsert)) await content.link(spec, ins);
      for (const r of [...toDelete, ...toInsert]) touched.add(r.s);
      rows += toDelete.length + toInsert.length;
    }
    return rows;
  }

  private async runMeta(tx: Tx<Database>, kind: ContentKind, op: MetaOp, selection: number[], touched: Set<number>): Promise<number> {
    let rows = 0;
    for (const part of chunks(selection)) {
      for (const row of await this.repo.in(tx).metaRows(kind.table, kind.carrier, part)) {
        const meta = storedMeta(row.meta);
        const { next, nulls } = applyMeta(op, meta);
        // A removed key that was never there changes nothing, except for inherited meta.
        if (JSON.stringify(next) === JSON.stringify(meta) && (nulls.length === 0 || !kind.writeMeta)) continue;
        await this.storeMeta(tx, kind, row.id, row.carrier_id, next, nulls);
        touched.add(row.id);
        rows++;
      }
    }
    return rows;
  }

  private async runOwner(tx: Tx<Database>, kind: ContentKind, op: OwnerOp, selection: number[], touched: Set<number>, vis: Visibility): Promise<number> {
    const content = this.repo.in(tx);
    if (op.ownerId === null && vis.kind === 'subtree') throw forbidden('a group-limited account cannot clear an owner');
    if (op.ownerId !== null && (await content.existingIds('groups', [op.ownerId], SEE_ALL)).length === 0) throw notFound(`owner group ${op.ownerId} not found`);
    if (op.ownerId !== null && (await content.existingIds('groups', [op.ownerId], vis)).length === 0) throw forbidden(`owner group ${op.ownerId} is ${OUTSIDE_SCOPE}`);
    if (kind.checkOwner) await kind.checkOwner(tx, selection, op.ownerId);
    let rows = 0;
    for (const part of chunks(selection)) {
      const changed = await content.ownerDiffers(kind.table, part, op.ownerId);
      if (changed.length === 0) continue;
      await content.setOwner(kind.table, changed, op.ownerId);
      for (const id of changed) touched.add(id);
      rows += changed.length;
    }
    return rows;
  }

  async massEdit(kind: ContentKind, actor: Actor, plan: MassEditPlan, ceiling: number): Promise<MassEditResult> {
    const names = opNames(plan);
    const vis = visibilityOf(actor.principal);
    if (plan.dryRun) {
      const matched = await this.deps.transactor.run((tx) => this.resolveSelection(tx, kind, plan, ceiling, vis));
      return { entity: kind.entity, matched: matched.length, affected: 0, ops: names.map((op) => ({ op, rowsAffected: 0 })), dryRun: true };
    }
    // The selection is resolved first so that hooks see every item (§16.4: a veto on any item
    // cancels the batch, and each changed item fires its after-hook).
    const selection = await this.deps.transactor.run((tx) => this.resolveSelection(tx, kind, plan, ceiling, vis));
    const items = await this.hookItems(this.repo, kind, selection);
    const offered = snapshotItems(items);
    return withChange(this.deps.bus, actor, 'update', kind.entity, async () => {
      const result = await this.deps.transactor.run(async (tx) => {
        const content = this.repo.in(tx);
        // Fields a before-hook rewrote are the item's data for the edit (§16.4), written first.
        const touched = new Set<number>(await writeRewrites(content, kind.table, items, offered));
        const counts: number[] = [];
        for (const op of plan.links) {
          const spec = kind.links[op.link]!;
          // add and replace name far endpoints that must be visible; remove names existing ids
          // and refuses (in runLink) to break a link the caller cannot see.
          await this.requireIds(content, spec.target, op.ids, spec.target.replace(/s$/, ''), op.verb === 'remove' ? SEE_ALL : vis);
          counts.push(await this.runLink(content, spec, op, selection, touched, vis));
        }
        if (plan.meta) counts.push(await this.runMeta(tx, kind, plan.meta, selection, touched));
        if (plan.owner) counts.push(await this.runOwner(tx, kind, plan.owner, selection, touched, vis));
        const now = nowIso();
        for (const part of chunks([...touched])) await content.touch(kind.table, part, now);
        // After-hooks fire for the items that changed, with their fields as committed.
        const changed = await this.hookItems(content, kind, [...touched]);
        items.splice(0, items.length, ...changed);
        return { entity: kind.entity, matched: selection.length, affected: touched.size, ops: names.map((op, i) => ({ op, rowsAffected: counts[i] })), dryRun: false };
      });
      const summary = result.ops.map((o) => `${o.op} (${o.rowsAffected})`).join(', ') || 'no ops';
      return { message: `Mass edit of ${result.matched} ${kind.plural}: ${summary}`, result };
    }, { items });
  }

  private async hookItems(repo: ContentRepository, kind: ContentKind, ids: readonly number[]): Promise<ChangeData[]> {
    const out: ChangeData[] = [];
    for (const part of chunks([...ids].sort((a, b) => a - b))) {
      for (const r of await repo.hookRows(kind.table, part)) {
        out.push({ id: Number(r.id), name: r.name, description: r.description ?? '', meta: typeof r.meta === 'string' ? r.meta : JSON.stringify(r.meta ?? {}) });
      }
    }
    return out;
  }

  /** Sets one dot path of an entity's Meta, keeping every sibling (contract: Edit meta). */
  async editMeta(kind: ContentKind, actor: Actor, id: number, path: string, value: unknown) {
    const segments = parseMetaPath(path);
    return withChange(this.deps.bus, actor, 'update', kind.entity, async () => {
      const result = await this.deps.transactor.run(async (tx) => {
        const content = this.repo.in(tx);
        if ((await content.existingIds(kind.table, [id], visibilityOf(actor.principal))).length === 0) throw notFound(`${kind.entity} ${id} not found`);
        const [row] = await content.metaRows(kind.table, kind.carrier, [id]);
        if (!row) throw notFound(`${kind.entity} ${id} not found`);
        const next = setMetaPath(storedMeta(row.meta), segments, value);
        await this.storeMeta(tx, kind, id, row.carrier_id, next, value === null && segments.length === 1 ? segments : []);
        await content.touch(kind.table, [id], nowIso());
        return { name: row.name, meta: storedMeta(await content.readMeta(kind.table, id)) };
      });
      return { id, name: result.name, message: `Set meta ${path}`, result: { ok: true as const, id, meta: result.meta } };
    });
  }
}
