// POST /v1/{resources,notes,groups}/massEdit: one declaration per entity, one engine.
import { sendWrite } from '../../core/http/respond.js';
import type { Library } from '../context.js';
import type { ContentKind } from '../common/content.js';
import { actorOf, type LibraryRoutes } from '../http/routes.js';
import { contentEdits } from './feature.js';
import { MassEditInput, planMassEdit } from './plan.js';

export function registerMassEdit(routes: LibraryRoutes, lib: Library, kind: ContentKind, opts: { path: string; page: string }): void {
  const edits = contentEdits(lib);
  routes.add({
    method: 'POST',
    path: opts.path,
    tag: kind.plural,
    summary: `Apply several edits to many ${kind.plural} in one transaction (DryRun resolves without committing)`,
    needs: 'write',
    input: MassEditInput,
    handler: async ({ req, reply, input }) => {
      const plan = planMassEdit(kind, input);
      const result = await edits.massEdit(kind, actorOf(req), plan, lib.config.massEditFilterLimit);
      return sendWrite(req, reply, result, opts.page);
    },
  });
}
