// Parses a mass-edit request (contract: Mass edit) into a plan: which entities, and which ops
// with which verbs. An unknown verb, or an op the entity does not have, is refused, never
// defaulted; an empty verb leaves that part unchanged.
import { Type, type Static } from '@sinclair/typebox';
import { badRequest } from '../../core/http/errors.js';
import type { ContentKind, LinkName } from '../common/content.js';
import type { MetaObject } from '../meta/paths.js';

const ids = (description: string) => Type.Optional(Type.Array(Type.Integer(), { description }));
const verb = (description: string) => Type.Optional(Type.String({ description }));

export const MassEditInput = Type.Object({
  ID: ids('explicit selection; duplicates removed'),
  Target: Type.Optional(Type.String({ description: 'ids (default) or filter' })),
  Filter: Type.Optional(Type.String({ description: "the list page's raw query string; empty means every entity" })),
  ExpectedCount: Type.Optional(Type.Integer({ description: 'required with Target=filter; a different recount gives 409' })),
  TagsOp: verb('add, remove or replace'),
  TagIds: ids('tag ids'),
  GroupsOp: verb('add, remove or replace related groups (resources and notes)'),
  GroupIds: ids('group ids'),
  NotesOp: verb('add, remove or replace related notes (resources and groups)'),
  NoteIds: ids('note ids'),
  ResourcesOp: verb('add, remove or replace related resources (notes and groups)'),
  ResourceIds: ids('resource ids'),
  RelatedGroupsOp: verb('add, remove or replace related groups (groups only)'),
  RelatedGroupIds: ids('group ids'),
  OwnerOp: verb('set or clear'),
  OwnerId: Type.Optional(Type.Integer({ description: 'the new owner for set' })),
  MetaOp: verb('merge, replace or removeKeys'),
  Meta: Type.Optional(Type.Unknown({ description: 'JSON object (text) for merge and replace' })),
  MetaKeys: Type.Optional(Type.Array(Type.String(), { description: 'top-level keys to remove' })),
  DryRun: Type.Optional(Type.Boolean()),
});
export type MassEditRequest = Static<typeof MassEditInput>;

export type LinkVerb = 'add' | 'remove' | 'replace';
export interface LinkOp {
  link: LinkName;
  verb: LinkVerb;
  ids: number[];
}
export interface MetaOp {
  verb: 'merge' | 'replace' | 'removeKeys';
  object: MetaObject;
  keys: string[];
}
export interface OwnerOp {
  verb: 'set' | 'clear';
  ownerId: number | null;
}

export type Selection = { target: 'ids'; ids: number[] } | { target: 'filter'; query: Record<string, unknown>; expected: number };

export interface MassEditPlan {
  selection: Selection;
  links: LinkOp[];
  meta?: MetaOp;
  owner?: OwnerOp;
  dryRun: boolean;
}

/** The request fields of each link op, in the order the ops run. */
const LINK_FIELDS: [LinkName, 'TagsOp' | 'GroupsOp' | 'NotesOp' | 'ResourcesOp' | 'RelatedGroupsOp', 'TagIds' | 'GroupIds' | 'NoteIds' | 'ResourceIds' | 'RelatedGroupIds'][] = [
  ['tags', 'TagsOp', 'TagIds'],
  ['groups', 'GroupsOp', 'GroupIds'],
  ['notes', 'NotesOp', 'NoteIds'],
  ['resources', 'ResourcesOp', 'ResourceIds'],
  ['relatedGroups', 'RelatedGroupsOp', 'RelatedGroupIds'],
];

function verbOf<V extends string>(field: string, raw: string | undefined, allowed: readonly V[]): V | undefined {
  const v = (raw ?? '').trim();
  if (v === '') return undefined;
  if (!(allowed as readonly string[]).includes(v)) throw badRequest(`${field} must be one of ${allowed.join(', ')} (got "${v}")`);
  return v as V;
}

function metaObject(raw: unknown): MetaObject {
  let value = raw;
  if (typeof raw === 'string') {
    try {
      value = JSON.parse(raw);
    } catch (e) {
      throw badRequest(`Meta is not valid JSON: ${(e as Error).message}`);
    }
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw badRequest('Meta must be a JSON object');
  if (Object.keys(value).some((k) => k.trim() === '')) throw badRequest('Meta keys must not be empty');
  return value as MetaObject;
}

/** A list page's raw query string as a parameter object (repeated keys become arrays). */
export function parseFilter(text: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const params = new URLSearchParams(text.replace(/^\?/, ''));
  for (const key of new Set(params.keys())) {
    const values = params.getAll(key);
    out[key] = values.length === 1 ? values[0] : values;
  }
  return out;
}

export function planMassEdit(kind: ContentKind, input: MassEditRequest): MassEditPlan {
  const target = (input.Target ?? '').trim() || 'ids';
  let selection: Selection;
  if (target === 'ids') {
    const ids = [...new Set(input.ID ?? [])];
    if (ids.length === 0) throw badRequest(`ID must list at least one ${kind.entity}`);
    selection = { target, ids };
  } else if (target === 'filter') {
    if (input.ExpectedCount === undefined) throw badRequest('ExpectedCount is required when Target is filter');
    selection = { target, query: parseFilter(input.Filter ?? ''), expected: input.ExpectedCount };
  } else {
    throw badRequest(`Target must be ids or filter (got "${target}")`);
  }

  const links: LinkOp[] = [];
  for (const [link, opField, idsField] of LINK_FIELDS) {
    const v = verbOf(opField, input[opField], ['add', 'remove', 'replace'] as const);
    if (!v) continue;
    if (!kind.links[link]) throw badRequest(`${opField} does not apply to ${kind.plural}`);
    const list = [...new Set(input[idsField] ?? [])];
    if (list.length === 0 && v !== 'replace') throw badRequest(`${idsField} must list at least one id for ${opField}=${v}`);
    links.push({ link, verb: v, ids: list });
  }

  let meta: MetaOp | undefined;
  const metaVerb = verbOf('MetaOp', input.MetaOp, ['merge', 'replace', 'removeKeys'] as const);
  if (metaVerb === 'removeKeys') {
    const keys = [...new Set((input.MetaKeys ?? []).map((k) => k.trim()).filter((k) => k !== ''))];
    if (keys.length === 0) throw badRequest('MetaKeys must list at least one key for MetaOp=removeKeys');
    meta = { verb: metaVerb, object: {}, keys };
  } else if (metaVerb) {
    if (input.Meta === undefined || input.Meta === '') throw badRequest(`Meta is required for MetaOp=${metaVerb}`);
    meta = { verb: metaVerb, object: metaObject(input.Meta), keys: [] };
  }

  let owner: OwnerOp | undefined;
  const ownerVerb = verbOf('OwnerOp', input.OwnerOp, ['set', 'clear'] as const);
  if (ownerVerb === 'set') {
    if (input.OwnerId === undefined) throw badRequest('OwnerId is required for OwnerOp=set');
    owner = { verb: ownerVerb, ownerId: input.OwnerId };
  } else if (ownerVerb === 'clear') {
    owner = { verb: ownerVerb, ownerId: null };
  }

  return { selection, links, meta, owner, dryRun: input.DryRun ?? false };
}

/** The op names of the reply, in execution order (owner always last). */
export function opNames(plan: MassEditPlan): string[] {
  return [...plan.links.map((l) => `${l.link}.${l.verb}`), ...(plan.meta ? [`meta.${plan.meta.verb}`] : []), ...(plan.owner ? [`owner.${plan.owner.verb}`] : [])];
}
