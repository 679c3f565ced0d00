// What a shortcode sees: the entity being rendered (its API record), its type, and the three
// scope anchors nested [mrql] shortcodes resolve against (mrql.md §16, §19.1).
import type { Entity } from '../mrql/fields.js';
import type { Stats } from '../mrql/types.js';
import { CARRIER_TABLE, type TemplateRepository } from './repository.js';

export { CARRIER_TABLE };

export interface Anchors {
  /** The group itself (groups) or the owner (resources, notes); null when there is none. */
  scope: number | null;
  parent: number | null;
  root: number | null;
}

export interface EntityContext {
  type: Entity;
  entity: Record<string, unknown>;
  anchors?: Anchors;
  /** The carrier's MetaSchema text, for [meta]. */
  metaSchema?: string;
  /** List header and footer render with the carrier as entity; [mrql] then runs unscoped. */
  globalScope?: boolean;
}

export interface Carrier {
  id: number;
  mrqlResult: string;
  css: string;
  metaSchema: string;
}

export const CARRIER_COLUMN: Record<Entity, string> = { resource: 'ResourceCategoryId', note: 'NoteTypeId', group: 'CategoryId' };

export function carrierIdOf(ctx: EntityContext): number | null {
  const v = ctx.entity[CARRIER_COLUMN[ctx.type]];
  return typeof v === 'number' ? v : null;
}

/** Batch lookups of carriers and group chains, cached for one render. */
export class Lookups {
  private readonly carriers = new Map<string, Carrier | null>();
  private readonly chains = new Map<number, { parent: number | null; root: number }>();
  /** Groups of a batch whose chains may be asked for: loaded with the first chain asked for. */
  private readonly wanted = new Set<number>();

  constructor(
    private readonly repo: TemplateRepository,
    /** Counts lookup statements (benchmarks report them with the MRQL statements). */
    private readonly stats?: Stats,
  ) {}

  /** One statement through the repository, counted. */
  private counted<T>(work: Promise<T>): Promise<T> {
    if (this.stats) this.stats.statements++;
    return work;
  }

  async loadCarriers(type: Entity, ids: number[]): Promise<void> {
    const missing = [...new Set(ids)].filter((id) => !this.carriers.has(`${type}:${id}`));
    if (!missing.length) return;
    const rows = await this.counted(this.repo.carriers(type, missing));
    for (const id of missing) this.carriers.set(`${type}:${id}`, null);
    for (const r of rows) {
      this.carriers.set(`${type}:${r.id}`, { id: Number(r.id), mrqlResult: String(r.custom_mrql_result ?? ''), css: String(r.custom_css ?? ''), metaSchema: String(r.meta_schema ?? '') });
    }
  }

  carrier(type: Entity, id: number | null): Carrier | null {
    return id === null ? null : (this.carriers.get(`${type}:${id}`) ?? null);
  }

  /**
   * Notes the groups of a batch whose parent and root a card may ask for. Nothing is read yet:
   * the first card that asks (`anchorsOf`: scope="parent"/"root", [link to="owner"/"root"])
   * loads them all in one statement; a list whose cards never ask reads no chain.
   */
  wantChains(groupIds: number[]): void {
    for (const id of groupIds) if (!this.chains.has(id)) this.wanted.add(id);
  }

  /** Loads parent and root of each group, and of every group `wantChains` noted (one recursive statement). */
  async loadChains(groupIds: number[]): Promise<void> {
    const missing = [...new Set([...groupIds, ...this.wanted])].filter((id) => !this.chains.has(id));
    this.wanted.clear();
    if (!missing.length) return;
    const rows = await this.counted(this.repo.chains(missing));
    const byStart = new Map<number, typeof rows>();
    for (const r of rows) {
      const s = Number(r.start);
      if (!byStart.has(s)) byStart.set(s, []);
      byStart.get(s)!.push(r);
    }
    for (const [start, chain] of byStart) {
      const first = chain[0];
      this.chains.set(start, { parent: first.owner_id === null ? null : Number(first.owner_id), root: Number(chain[chain.length - 1].id) });
    }
  }

  /** The scope anchor alone: the group itself or the owner, read from the entity (no chain needed). */
  static scopeOf(type: Entity, entity: Record<string, unknown>): number | null {
    return (type === 'group' ? (entity.ID as number | undefined) : (entity.OwnerId as number | null | undefined)) ?? null;
  }

  /** All three anchors; parent and root need the chain loaded first (`loadChains`). */
  anchorsFor(type: Entity, entity: Record<string, unknown>): Anchors {
    const scope = Lookups.scopeOf(type, entity);
    if (scope === null) return { scope: null, parent: null, root: null };
    const c = this.chains.get(scope);
    return { scope, parent: c?.parent ?? null, root: c?.root ?? scope };
  }

  /** Base group ids whose chains `anchorsFor` needs. */
  static baseIds(type: Entity, entities: Record<string, unknown>[]): number[] {
    return entities.map((e) => (type === 'group' ? e.ID : e.OwnerId)).filter((v): v is number => typeof v === 'number');
  }

  async partial(name: string): Promise<string | null> {
    const content = await this.counted(this.repo.partial(name));
    return content === undefined ? null : String(content ?? '');
  }
}
