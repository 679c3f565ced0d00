// POST /v1/{resource,note,group}/editMeta?id= (contract: Edit meta): sets one dot path in an
// entity's Meta, keeping every sibling, validated against the carrier's MetaSchema (the rule
// itself: ContentEdits.editMeta).
import { Type } from '@sinclair/typebox';
import { badRequest } from '../../core/http/errors.js';
import { sendWrite } from '../../core/http/respond.js';
import type { Library } from '../context.js';
import type { ContentKind } from '../common/content.js';
import { actorOf, type LibraryRoutes } from '../http/routes.js';
import { contentEdits } from '../massEdit/feature.js';
import { parseMetaValue } from './paths.js';

const EditMetaInput = Type.Object({
  id: Type.Optional(Type.Integer()),
  path: Type.Optional(Type.String({ description: 'dot path into Meta, e.g. address.city' })),
  value: Type.Optional(Type.Unknown({ description: 'JSON-encoded value (JSON bodies may also send the value itself)' })),
});

export function registerEditMeta(routes: LibraryRoutes, lib: Library, kind: ContentKind, opts: { path: string; page: string }): void {
  const edits = contentEdits(lib);
  routes.add({
    method: 'POST',
    path: opts.path,
    tag: kind.plural,
    summary: `Set one dot path in a ${kind.entity}'s Meta, keeping its siblings`,
    needs: 'write',
    input: EditMetaInput,
    handler: async ({ req, reply, input }) => {
      if (input.id === undefined) throw badRequest('id is required');
      if (input.path === undefined || input.path === '') throw badRequest('path is required');
      if (input.value === undefined) throw badRequest('value is required');
      // Form and query values are JSON text; a JSON body may also carry the value itself.
      const jsonBody = String(req.headers['content-type'] ?? '').includes('application/json');
      const raw = !jsonBody && Array.isArray(input.value) ? input.value[0] : input.value;
      const value = typeof raw === 'string' ? parseMetaValue(raw) : raw;
      const result = await edits.editMeta(kind, actorOf(req), input.id, input.path, value);
      return sendWrite(req, reply, result, `${opts.page}?id=${input.id}`);
    },
  });
}
