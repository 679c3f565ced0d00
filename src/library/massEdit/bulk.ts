// The list pages' bulk endpoints (addTags, removeTags, replaceTags, addGroups, addMeta) are
// mass edits over explicit ids, so they share the engine: one transaction, one audit entry,
// the same existence and MetaSchema checks.
import { Type } from '@sinclair/typebox';
import { badRequest } from '../../core/http/errors.js';
import { sendWrite } from '../../core/http/respond.js';
import type { Library } from '../context.js';
import type { ContentKind, LinkName } from '../common/content.js';
import { jsonObjectText } from '../common/names.js';
import { actorOf, type LibraryRoutes } from '../http/routes.js';
import { contentEdits } from './feature.js';
import type { LinkVerb, MassEditPlan } from './plan.js';

export type BulkOp = 'addTags' | 'removeTags' | 'replaceTags' | 'addGroups' | 'addMeta';

const LINK_OPS: Record<Exclude<BulkOp, 'addMeta'>, [LinkName, LinkVerb]> = {
  addTags: ['tags', 'add'],
  removeTags: ['tags', 'remove'],
  replaceTags: ['tags', 'replace'],
  addGroups: ['groups', 'add'],
};

function selection(ids: number[], kind: ContentKind): MassEditPlan['selection'] {
  const unique = [...new Set(ids)];
  if (unique.length === 0) throw badRequest(`ID must list at least one ${kind.entity}`);
  return { target: 'ids', ids: unique };
}

export function registerBulkEdits(routes: LibraryRoutes, lib: Library, kind: ContentKind, opts: { base: string; page: string; ops: BulkOp[] }): void {
  const edits = contentEdits(lib);
  const run = (actorReq: Parameters<typeof actorOf>[0], plan: MassEditPlan) => edits.massEdit(kind, actorOf(actorReq), plan, lib.config.massEditFilterLimit);
  for (const op of opts.ops) {
    if (op === 'addMeta') {
      routes.add({
        method: 'POST',
        path: `${opts.base}/addMeta`,
        tag: kind.plural,
        summary: `Merge a JSON object into the meta of several ${kind.plural}`,
        needs: 'write',
        input: Type.Object({ ID: Type.Array(Type.Integer()), Meta: Type.String({ description: 'JSON object, merged at the top level' }) }),
        handler: async ({ req, reply, input }) => {
          const object = JSON.parse(jsonObjectText(input.Meta, 'Meta')) as Record<string, unknown>;
          await run(req, { selection: selection(input.ID, kind), links: [], meta: { verb: 'merge', object, keys: [] }, dryRun: false });
          return sendWrite(req, reply, { ok: true }, opts.page);
        },
      });
      continue;
    }
    const [link, verb] = LINK_OPS[op];
    routes.add({
      method: 'POST',
      path: `${opts.base}/${op}`,
      tag: kind.plural,
      summary: `${op} on several ${kind.plural}: ID lists the ${kind.plural}, EditedId the ${link}`,
      needs: 'write',
      input: Type.Object({ ID: Type.Array(Type.Integer()), EditedId: Type.Optional(Type.Array(Type.Integer())) }),
      handler: async ({ req, reply, input }) => {
        const ids = [...new Set(input.EditedId ?? [])];
        if (ids.length === 0 && verb !== 'replace') throw badRequest('EditedId must list at least one id');
        await run(req, { selection: selection(input.ID, kind), links: [{ link, verb, ids }], dryRun: false });
        return sendWrite(req, reply, { ok: true }, opts.page);
      },
    });
  }
}
