// The export request (companion §7.4): root groups plus three sets of toggles, gzip and a
// related-group depth. Missing toggles take the UI defaults (everything on except versions
// and previews); anything of the wrong type is a 400 naming the field.
import { Type } from '@sinclair/typebox';
import { badRequest } from '../../core/http/errors.js';
import type { ExportFidelity, ExportSchemaDefs, ExportScope } from '../archive/format.js';

export const MAX_RELATED_DEPTH = 5;

export interface ExportOptions {
  rootGroupIds: number[];
  scope: ExportScope;
  fidelity: ExportFidelity;
  schemaDefs: ExportSchemaDefs;
  gzip: boolean;
  relatedDepth: number;
}

const DEFAULTS = {
  scope: { subtree: true, owned_resources: true, owned_notes: true, related_m2m: true, group_relations: true } satisfies ExportScope,
  fidelity: { resource_blobs: true, resource_versions: false, resource_previews: false, resource_series: true } satisfies ExportFidelity,
  schemaDefs: { categories_and_types: true, tags: true, group_relation_types: true } satisfies ExportSchemaDefs,
};

export const ExportInput = Type.Object({
  rootGroupIds: Type.Array(Type.Integer(), { description: 'groups to export (required, non-empty)' }),
  scope: Type.Optional(Type.Unknown({ description: 'subtree, owned_resources, owned_notes, related_m2m, group_relations' })),
  fidelity: Type.Optional(Type.Unknown({ description: 'resource_blobs, resource_versions, resource_previews, resource_series' })),
  schemaDefs: Type.Optional(Type.Unknown({ description: 'categories_and_types, tags, group_relation_types' })),
  gzip: Type.Optional(Type.Boolean()),
  relatedDepth: Type.Optional(Type.Integer({ description: `0 to ${MAX_RELATED_DEPTH}` })),
});

function toggles<T extends object>(raw: unknown, field: string, defaults: T): T {
  if (raw === undefined || raw === null || raw === '') return { ...defaults };
  let value = raw;
  if (typeof raw === 'string') {
    try {
      value = JSON.parse(raw);
    } catch {
      throw badRequest(`${field} must be a JSON object`);
    }
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw badRequest(`${field} must be an object`);
  const out = { ...defaults } as Record<string, boolean>;
  for (const [key, v] of Object.entries(value)) {
    if (!(key in defaults)) continue;
    if (typeof v !== 'boolean') throw badRequest(`${field}.${key} must be true or false`);
    out[key] = v;
  }
  return out as T;
}

export function exportOptions(input: { rootGroupIds: number[]; scope?: unknown; fidelity?: unknown; schemaDefs?: unknown; gzip?: boolean; relatedDepth?: number }): ExportOptions {
  const roots = [...new Set(input.rootGroupIds ?? [])];
  if (roots.length === 0) throw badRequest('rootGroupIds is required');
  const depth = input.relatedDepth ?? 0;
  if (depth < 0 || depth > MAX_RELATED_DEPTH) throw badRequest(`relatedDepth must be between 0 and ${MAX_RELATED_DEPTH}`);
  return {
    rootGroupIds: roots,
    scope: toggles(input.scope, 'scope', DEFAULTS.scope),
    fidelity: toggles(input.fidelity, 'fidelity', DEFAULTS.fidelity),
    schemaDefs: toggles(input.schemaDefs, 'schemaDefs', DEFAULTS.schemaDefs),
    gzip: input.gzip ?? false,
    relatedDepth: depth,
  };
}

export const EXPORT_DEFAULTS = DEFAULTS;
