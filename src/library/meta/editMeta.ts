// POST /v1/{resource,note,group}/editMeta?id= (contract: Edit meta): sets one dot path in an
// entity's Meta, keeping every sibling, validated against the carrier's MetaSchema.
import { Type } from '@sinclair/typebox';
import { sql } from 'kysely';
import { nowIso } from '../../core/db/values.js';
import { badRequest, notFound } from '../../core/http/errors.js';
import { sendWrite } from '../../core/http/respond.js';
import type { Library } from '../context.js';
import type { Actor } from '../auth/principal.js';
import { withChange } from '../common/crud.js';
import { checkCarrierMeta, writeMeta, type ContentKind } from '../common/content.js';
import { actorOf, type LibraryRoutes } from '../http/routes.js';
import { parseMetaPath, parseMetaValue, setMetaPath, storedMeta } from './paths.js';

export async function editMeta(lib: Library, kind: ContentKind, actor: Actor, id: number, path: string, value: unknown) {
  const segments = parseMetaPath(path);
  return withChange(lib, actor, 'update', kind.entity, async () => {
    const result = await lib.db.transaction().execute(async (trx) => {
      const row = (await trx
        .selectFrom(kind.table as 'groups')
        .select(['id', 'name', 'meta', sql.ref<number | null>(kind.carrier.column).as('carrier_id')])
        .where('id', '=', id)
        .executeTakeFirst()) as { id: number; name: string; meta: string; carrier_id: number | null } | undefined;
      if (!row) throw notFound(`${kind.entity} ${id} not found`);
      const next = setMetaPath(storedMeta(row.meta), segments, value);
      await checkCarrierMeta(trx, kind.carrier, row.carrier_id, next);
      await writeMeta(trx, kind, id, next, value === null && segments.length === 1 ? segments : []);
      await trx.updateTable(kind.table as 'groups').set({ updated_at: nowIso() }).where('id', '=', id).execute();
      const after = await trx.selectFrom(kind.table as 'groups').select('meta').where('id', '=', id).executeTakeFirstOrThrow();
      return { name: row.name, meta: storedMeta(after.meta) };
    });
    return { id, name: result.name, message: `Set meta ${path}`, result: { ok: true as const, id, meta: result.meta } };
  });
}

const EditMetaInput = Type.Object({
  id: Type.Optional(Type.Integer()),
  path: Type.Optional(Type.String({ description: 'dot path into Meta, e.g. address.city' })),
  value: Type.Optional(Type.Unknown({ description: 'JSON-encoded value (JSON bodies may also send the value itself)' })),
});

export function registerEditMeta(routes: LibraryRoutes, lib: Library, kind: ContentKind, opts: { path: string; page: string }): void {
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
      const result = await editMeta(lib, kind, actorOf(req), input.id, input.path, value);
      return sendWrite(req, reply, result, `${opts.page}?id=${input.id}`);
    },
  });
}
