// The MRQL field catalogue (mrql.md §5) and dotted-name resolution (§6.14–6.18, V1–V16).
import type { FieldRef } from './ast.js';
import { validationError } from './errors.js';

export type Entity = 'resource' | 'note' | 'group';
export type EntityOrAll = Entity | 'unspecified';
export const ENTITIES: Entity[] = ['resource', 'note', 'group'];

export type ScalarKind = 'string' | 'number' | 'ref' | 'datetime';

export interface Scalar {
  kind: ScalarKind;
  col: string;
  nullable: boolean;
}

export interface Junction {
  table: string;
  own: string;
  other: string;
  related: 'tags' | 'groups' | 'notes' | 'resources';
}

const S = (kind: ScalarKind, col: string, nullable = false): Scalar => ({ kind, col, nullable });

const COMMON_SCALARS: Record<string, Scalar> = {
  id: S('number', 'id'),
  name: S('string', 'name'),
  description: S('string', 'description'),
  created: S('datetime', 'created_at'),
  updated: S('datetime', 'updated_at'),
  guid: S('string', 'guid', true),
};

export const SCALARS: Record<Entity, Record<string, Scalar>> = {
  resource: {
    ...COMMON_SCALARS,
    category: S('ref', 'resource_category_id'),
    contentType: S('string', 'content_type'),
    fileSize: S('number', 'file_size'),
    width: S('number', 'width'),
    height: S('number', 'height'),
    originalName: S('string', 'original_name'),
    originalLocation: S('string', 'original_location'),
    hash: S('string', 'hash'),
  },
  note: {
    ...COMMON_SCALARS,
    noteType: S('ref', 'note_type_id', true),
    startDate: S('datetime', 'start_date', true),
    endDate: S('datetime', 'end_date', true),
  },
  group: {
    ...COMMON_SCALARS,
    category: S('ref', 'category_id', true),
    url: S('string', 'url', true),
  },
};

/** Group columns reachable as traversal and recursive leaves. */
export const GROUP_LEAVES: Record<string, Scalar> = { ...COMMON_SCALARS, category: S('ref', 'category_id', true), url: S('string', 'url', true) };

export const JUNCTIONS: Record<Entity, Record<string, Junction>> = {
  resource: {
    tags: { table: 'resource_tags', own: 'resource_id', other: 'tag_id', related: 'tags' },
    groups: { table: 'groups_related_resources', own: 'resource_id', other: 'group_id', related: 'groups' },
    group: { table: 'groups_related_resources', own: 'resource_id', other: 'group_id', related: 'groups' },
    notes: { table: 'resource_notes', own: 'resource_id', other: 'note_id', related: 'notes' },
  },
  note: {
    tags: { table: 'note_tags', own: 'note_id', other: 'tag_id', related: 'tags' },
    groups: { table: 'groups_related_notes', own: 'note_id', other: 'group_id', related: 'groups' },
    group: { table: 'groups_related_notes', own: 'note_id', other: 'group_id', related: 'groups' },
    resources: { table: 'resource_notes', own: 'note_id', other: 'resource_id', related: 'resources' },
  },
  group: {
    tags: { table: 'group_tags', own: 'group_id', other: 'tag_id', related: 'tags' },
    resources: { table: 'groups_related_resources', own: 'group_id', other: 'resource_id', related: 'resources' },
    notes: { table: 'groups_related_notes', own: 'group_id', other: 'note_id', related: 'notes' },
  },
};

export const TABLE: Record<Entity, string> = { resource: 'resources', note: 'notes', group: 'groups' };

export type Leaf =
  | { kind: 'scalar'; scalar: Scalar; name: string }
  | { kind: 'tags' }
  | { kind: 'meta'; path: string[] }
  | { kind: 'relnull'; rel: 'parent' | 'children' };

export type Resolved =
  | { kind: 'type' }
  | { kind: 'scalar'; scalar: Scalar; name: string }
  | { kind: 'shared' }
  | { kind: 'junction'; j: Junction; name: string }
  | { kind: 'single'; name: 'owner' | 'parent' }
  | { kind: 'children' }
  | { kind: 'similarImages' }
  | { kind: 'meta'; path: string[] }
  | { kind: 'count'; of: Junction | 'children' }
  | { kind: 'bucket'; scalar: Scalar; base: string; unit: 'day' | 'week' | 'month' | 'year' }
  | { kind: 'chain'; root: 'owner' | 'parent' | 'children'; steps: ('parent' | 'children')[]; leaf: Leaf }
  | { kind: 'recursive'; dir: 'ancestors' | 'descendants'; leaf: Leaf };

const BUCKETS = new Set(['day', 'week', 'month', 'year']);
const SINGLE_ROOT: Record<Entity, string[]> = { resource: ['owner'], note: ['owner'], group: ['parent', 'children'] };
const REL_LEAVES = new Set(['parent', 'children', 'resources', 'notes']);

function one(entity: EntityOrAll, name: string): Resolved | null {
  if (name === 'type') return { kind: 'type' };
  if (entity === 'unspecified') {
    if (COMMON_SCALARS[name]) return { kind: 'scalar', scalar: COMMON_SCALARS[name], name };
    if (name === 'tags') return { kind: 'junction', j: JUNCTIONS.resource.tags, name };
    return null;
  }
  const s = SCALARS[entity][name];
  if (s) return { kind: 'scalar', scalar: s, name };
  const j = JUNCTIONS[entity][name];
  if (j) return { kind: 'junction', j, name };
  if (entity === 'note' && name === 'shared') return { kind: 'shared' };
  if (entity !== 'group' && name === 'owner') return { kind: 'single', name: 'owner' };
  if (entity === 'group' && name === 'parent') return { kind: 'single', name: 'parent' };
  if (entity === 'group' && name === 'children') return { kind: 'children' };
  if (entity === 'resource' && name === 'similarImages') return { kind: 'similarImages' };
  return null;
}

/** Whether `tags` is a field of the entity (used for cross-entity count errors). */
function countable(entity: EntityOrAll, base: string): Junction | 'children' | null {
  if (entity === 'unspecified') return base === 'tags' ? JUNCTIONS.resource.tags : null;
  if (entity === 'group' && base === 'children') return 'children';
  return JUNCTIONS[entity][base] ?? null;
}

/** Resolves a group leaf (traversal or recursive). Returns the leaf or an error description. */
function groupLeaf(f: FieldRef, idx: number): Leaf | 'unknown' | 'relation' | 'bare-meta' {
  const p = f.parts[idx];
  if (p === 'meta') return idx === f.parts.length - 1 ? 'bare-meta' : { kind: 'meta', path: f.parts.slice(idx + 1) };
  if (idx !== f.parts.length - 1) return 'unknown';
  if (GROUP_LEAVES[p]) return { kind: 'scalar', scalar: GROUP_LEAVES[p], name: p };
  if (p === 'tags') return { kind: 'tags' };
  if (REL_LEAVES.has(p)) return 'relation';
  return 'unknown';
}

/**
 * Resolves a field for an entity type. Throws the validation error of §7 for unknown names.
 * `allowRelNull` admits the two-part `R.parent` / `R.children` leaves used only by IS NULL.
 */
export function resolveField(entity: EntityOrAll, f: FieldRef, allowRelNull = false): Resolved {
  const err = (msg: string, pos = f.pos, len = f.len) => validationError(msg, pos, len);
  if (f.parts.length === 1) {
    const r = one(entity, f.parts[0]);
    if (!r) throw err(`unknown or invalid field "${f.text}" for entity type ${entity}`);
    return r;
  }
  const [p0, p1] = f.parts;
  if (p0 === 'meta') return { kind: 'meta', path: f.parts.slice(1) };
  if (p0 === 'ancestors' || p0 === 'descendants') {
    if (entity === 'unspecified') throw err(`${f.text} requires an explicit entity type (e.g. type = "group")`);
    if (p1 !== 'meta' && f.parts.length > 2) throw err(`${p0} does not support multi-level chains; use ${p0}.<group field> or ${p0}.meta.<key>`);
    const leaf = groupLeaf(f, 1);
    if (leaf === 'bare-meta') throw err(`${p0}.meta requires a key (e.g. ${p0}.meta.mykey)`);
    if (leaf === 'relation') throw err(`${f.text} is not supported; only scalar fields, tags, and meta are valid as ${p0} leaf fields`);
    if (leaf === 'unknown') {
      throw err(`unknown field "${p1}" for ${p0}; valid fields: name, description, tags, category, url, id, created, updated, meta.<key>`, f.partPos[1], p1.length);
    }
    return { kind: 'recursive', dir: p0, leaf };
  }
  if (f.parts.length === 2 && p1 === 'count') {
    if ((p0 === 'owner' && entity !== 'group') || (p0 === 'parent' && entity === 'group')) {
      throw err(`${p0} is a single reference and cannot be counted; use ${p0} IS NULL / IS NOT NULL`);
    }
    const c = countable(entity, p0);
    if (c) {
      if (entity === 'unspecified') throw err(`${f.text} requires an explicit entity type (e.g. type = "resource")`);
      return { kind: 'count', of: c };
    }
  }
  if (f.parts.length === 2 && BUCKETS.has(p1)) {
    const base = one(entity, p0);
    if (base?.kind === 'scalar' && base.scalar.kind === 'datetime') return { kind: 'bucket', scalar: base.scalar, base: p0, unit: p1 as 'day' };
  }
  if (p0 === 'owner' || p0 === 'parent' || p0 === 'children') {
    if (entity === 'unspecified' || !SINGLE_ROOT[entity].includes(p0)) throw err(`field "${f.text}": ${p0} traversal is not valid for entity type ${entity}`);
    const steps: ('parent' | 'children')[] = [];
    for (let i = 1; i < f.parts.length; i++) {
      const part = f.parts[i];
      const prefix = f.parts.slice(0, i).join('.');
      if (part === 'meta') {
        if (i === f.parts.length - 1) throw err(`${prefix}.meta requires a key (e.g. ${prefix}.meta.mykey)`);
        return { kind: 'chain', root: p0, steps, leaf: { kind: 'meta', path: f.parts.slice(i + 1) } };
      }
      if (i === f.parts.length - 1) {
        const leaf = groupLeaf(f, i);
        if (leaf === 'relation') {
          if (allowRelNull && i === 1 && (part === 'parent' || part === 'children')) return { kind: 'chain', root: p0, steps, leaf: { kind: 'relnull', rel: part } };
          throw err(`${f.text} is not supported; only scalar fields and tags are valid as traversal leaf fields`);
        }
        if (leaf === 'unknown' || leaf === 'bare-meta') {
          throw err(`unknown field "${part}" for traversal; valid fields: name, description, tags, category, url, id, created, updated`, f.partPos[i], part.length);
        }
        return { kind: 'chain', root: p0, steps, leaf };
      }
      if (part === 'parent' || part === 'children') steps.push(part);
      else if (part === 'owner') {
        throw err(`"owner" is not valid as intermediate in traversal chain "${f.text}"; only parent/children can appear in the middle`, f.partPos[i], part.length);
      } else throw err(`"${part}" is not a traversal field; cannot appear in traversal chain "${f.text}"`, f.partPos[i], part.length);
    }
  }
  throw err(`unknown field prefix "${p0}" in "${f.text}"; not a traversal field`);
}

/** Leaf scalar kind (for value checks); tags leaves behave like relations. */
export function leafKind(leaf: Leaf): ScalarKind | 'tags' | 'meta' | 'relnull' {
  return leaf.kind === 'scalar' ? leaf.scalar.kind : leaf.kind;
}
