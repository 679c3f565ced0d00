// GET /v1/{resources,notes,groups}/meta/keys (companion §4.1): distinct top-level meta keys,
// alphabetical, in one statement per request.
import { sql } from 'kysely';
import type { Library } from '../context.js';
import type { LibraryRoutes } from '../http/routes.js';

const TABLES = { resources: 'resources', notes: 'notes', groups: 'groups' } as const;

export function registerMetaKeyRoutes(routes: LibraryRoutes, lib: Library): void {
  for (const [family, table] of Object.entries(TABLES)) {
    routes.add({
      method: 'GET',
      path: `/v1/${family}/meta/keys`,
      tag: family,
      summary: `Distinct top-level metadata keys of ${family}`,
      needs: 'read',
      handler: async ({ reply }) => {
        const query =
          lib.dialect.kind === 'sqlite'
            ? sql<{ key: string }>`SELECT DISTINCT j.key AS key FROM ${sql.table(table)} t, json_each(t.meta) j WHERE json_type(t.meta) = 'object' ORDER BY j.key`
            : sql<{ key: string }>`SELECT DISTINCT k AS key FROM ${sql.table(table)} t, jsonb_object_keys(CASE WHEN jsonb_typeof(t.meta) = 'object' THEN t.meta ELSE '{}'::jsonb END) k ORDER BY k`;
        if (family === 'resources') reply.header('Cache-Control', 'max-age=259200');
        return (await query.execute(lib.db)).rows.map((r) => ({ key: r.key }));
      },
    });
  }
}
