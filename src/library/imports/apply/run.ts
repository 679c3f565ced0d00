// State of one import apply: the archive index and plan, the user's decisions, the local ids
// every export id and vocabulary key resolved to, the link rows waiting for the last phase,
// the result counters and warnings.
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Transactor } from '../../../core/db/repository.js';
import type { JobContext } from '../../../core/jobs/queue.js';
import type { Actor } from '../../auth/principal.js';
import type { BlockService } from '../../blocks/service.js';
import type { Database } from '../../schema/database.js';
import type { ResourceContext } from '../../resources/context.js';
import type { IngestService } from '../../resources/ingest.js';
import type { SchemaKind, TagRef } from '../../archive/format.js';
import type { ArchiveIndex } from '../archive-index.js';
import type { Decisions } from '../decisions.js';
import { isObj, timestamp, type Obj } from '../fields.js';
import { relationKey, resolvers, type KeyResolver, type Plan } from '../plan.js';
import type { GuidTable, ImportApplyRepository, LinkTable } from './repository.js';
import type { ImportResourceRepository } from './resources.repository.js';

export type { LinkTable };

export interface ImportResult {
  created_categories: number;
  created_note_types: number;
  created_resource_categories: number;
  created_tags: number;
  created_grts: number;
  created_series: number;
  reused_series: number;
  created_groups: number;
  created_resources: number;
  skipped_by_hash: number;
  skipped_missing_bytes: number;
  created_notes: number;
  created_previews: number;
  created_versions: number;
  created_shell_groups: number;
  mapped_shell_groups: number;
  merged_groups: number;
  merged_resources: number;
  merged_notes: number;
  linked_by_guid_groups: number;
  linked_by_guid_resources: number;
  linked_by_guid_notes: number;
  skipped_by_policy_groups: number;
  skipped_by_policy_resources: number;
  skipped_by_policy_notes: number;
  warnings: string[];
  created_group_ids: number[];
  created_resource_ids: number[];
  created_note_ids: number[];
  retry_safe: boolean;
}

export function emptyResult(): ImportResult {
  return {
    created_categories: 0,
    created_note_types: 0,
    created_resource_categories: 0,
    created_tags: 0,
    created_grts: 0,
    created_series: 0,
    reused_series: 0,
    created_groups: 0,
    created_resources: 0,
    skipped_by_hash: 0,
    skipped_missing_bytes: 0,
    created_notes: 0,
    created_previews: 0,
    created_versions: 0,
    created_shell_groups: 0,
    mapped_shell_groups: 0,
    merged_groups: 0,
    merged_resources: 0,
    merged_notes: 0,
    linked_by_guid_groups: 0,
    linked_by_guid_resources: 0,
    linked_by_guid_notes: 0,
    skipped_by_policy_groups: 0,
    skipped_by_policy_resources: 0,
    skipped_by_policy_notes: 0,
    warnings: [],
    created_group_ids: [],
    created_resource_ids: [],
    created_note_ids: [],
    retry_safe: true,
  };
}

/** A local row an export id resolved to; untouched rows (skipped, mapped) get no new links of their own. */
export interface Resolved {
  id: number;
  touched: boolean;
}

/** A link between two archive entities (or an entity and a local row), made in the last phase. */
export interface PendingLink {
  table: LinkTable;
  group?: string | number;
  other: string | number;
}

export interface PendingRelation {
  from: string;
  to: string | number;
  typeKey: string;
  name: string;
  description: string;
}

export interface ApplyDeps {
  repo: ImportApplyRepository;
  resourceRepo: ImportResourceRepository;
  transactor: Transactor<Database>;
  /** Keeps an imported note's description in step with its first text block. */
  blocks: Pick<BlockService, 'mirrorDescription'>;
  resources: { ctx: ResourceContext; ingest: IngestService };
  /** The staged import's folder. */
  dir: string;
}

const MAX_WARNINGS = 1000;

export class ApplyRun {
  readonly result = emptyResult();
  readonly res: Record<SchemaKind, KeyResolver>;
  /** Decision key → local id (null: not imported). */
  readonly vocab = new Map<string, number | null>();
  readonly groups = new Map<string, Resolved>();
  readonly notes = new Map<string, Resolved>();
  readonly resources = new Map<string, Resolved>();
  readonly series = new Map<string, number>();
  readonly links: PendingLink[] = [];
  readonly relations: PendingRelation[] = [];
  /** Export ids left out by the user (excluded groups with their subtree and content). */
  readonly excluded = new Set<string>();
  private done = 0;

  constructor(
    readonly deps: ApplyDeps,
    readonly index: ArchiveIndex,
    readonly plan: Plan,
    readonly d: Decisions,
    readonly actor: Actor,
    readonly job: JobContext,
  ) {
    this.res = resolvers(index);
    this.expandExcluded();
  }

  get repo(): ImportApplyRepository {
    return this.deps.repo;
  }

  get transactor(): Transactor<Database> {
    return this.deps.transactor;
  }

  warn(message: string): void {
    if (this.result.warnings.length < MAX_WARNINGS) this.result.warnings.push(message);
    else if (this.result.warnings.length === MAX_WARNINGS) this.result.warnings.push('further warnings were left out');
  }

  /** Job progress: entities handled so far out of every group, resource and note. */
  advance(n = 1): void {
    this.done += n;
    this.job.progress(this.done, this.index.groups.length + this.index.resources.length + this.index.notes.length);
  }

  checkCancelled(): void {
    if (this.job.signal.aborted) throw new Error('Cancelled');
  }

  private expandExcluded(): void {
    const wanted = new Set(this.d.excluded);
    const children = new Map<string, string[]>();
    for (const g of this.index.groups) if (g.owner) children.set(g.owner, [...(children.get(g.owner) ?? []), g.id]);
    const stack = this.index.groups.filter((g) => wanted.has(g.id)).map((g) => g.id);
    while (stack.length) {
      const id = stack.pop()!;
      if (this.excluded.has(id)) continue;
      this.excluded.add(id);
      stack.push(...(children.get(id) ?? []));
    }
    for (const e of [...this.index.notes, ...this.index.resources]) {
      if (wanted.has(e.id) || (e.owner !== null && this.excluded.has(e.owner))) this.excluded.add(e.id);
    }
  }

  /** An entity's extracted JSON. */
  async payload(file: string): Promise<Obj> {
    const v: unknown = JSON.parse(await readFile(join(this.deps.dir, file), 'utf8'));
    return isObj(v) ? v : {};
  }

  async schemaPayloads(kind: SchemaKind): Promise<Map<string, Obj>> {
    const file = this.index.schemas[kind]?.file;
    const out = new Map<string, Obj>();
    if (!file) return out;
    const v: unknown = JSON.parse(await readFile(join(this.deps.dir, file), 'utf8'));
    if (Array.isArray(v)) for (const d of v) if (isObj(d) && typeof d.export_id === 'string') out.set(d.export_id, d);
    return out;
  }

  blobFile(hash: string): string | null {
    return hash in this.index.blobs ? join(this.deps.dir, 'blobs', hash) : null;
  }

  previewFile(id: string): string | null {
    return this.index.previews.includes(id) ? join(this.deps.dir, 'previews', id) : null;
  }

  /** The local id of a vocabulary reference (category, note type, resource category, tag). */
  vocabId(kind: SchemaKind, ref: string | null, name: string | null): number | null {
    const key = this.res[kind].key(ref, name);
    return key === null ? null : (this.vocab.get(key) ?? null);
  }

  tagIds(tags: TagRef[]): number[] {
    return [...new Set(tags.map((t) => this.vocabId('tags', t.ref, t.name)).filter((id): id is number => id !== null))];
  }

  relationTypeId(name: string, from: string | null, to: string | null): number | null {
    return this.vocab.get(relationKey(name, from, to)) ?? null;
  }

  /** Where a new top-level entity goes: its archive owner when imported, else the chosen parent. */
  ownerOf(ownerRef: string | null): { id: number | null; excluded: boolean } {
    if (ownerRef === null) return { id: this.d.parentGroupId, excluded: false };
    const owner = this.groups.get(ownerRef);
    if (owner) return { id: owner.id, excluded: false };
    const inArchive = this.index.groups.some((g) => g.id === ownerRef);
    return inArchive ? { id: null, excluded: true } : { id: this.d.parentGroupId, excluded: false };
  }

  /** Timestamps kept from the archive when they are valid. */
  stamp(p: Obj): { created_at: string; updated_at: string; created_by_user_id: number } {
    const now = new Date().toISOString();
    const created = timestamp(p.created_at) ?? now;
    return { created_at: created, updated_at: timestamp(p.updated_at) ?? created, created_by_user_id: this.actor.principal.userId };
  }

  /** The archive's GUID when this library does not use it yet, else a new one (`repo` may be bound to a transaction). */
  async guidFor(repo: ImportApplyRepository, table: GuidTable, guid: unknown): Promise<string> {
    if (typeof guid === 'string' && /^[0-9A-Za-z-]{1,36}$/.test(guid) && !(await repo.guidTaken(table, guid))) return guid;
    // A content row without its archive GUID would not be recognised by a second run.
    if (table === 'groups' || table === 'notes' || table === 'resources') this.result.retry_safe = false;
    return randomUUID();
  }
}
