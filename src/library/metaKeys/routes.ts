// GET /v1/{resources,notes,groups}/meta/keys (companion §4.1): distinct top-level meta keys,
// alphabetical, in one statement per request.
import type { LibraryRoutes } from '../http/routes.js';
import type { MetaKeyService, MetaKeyTable } from './service.js';

const FAMILIES: MetaKeyTable[] = ['resources', 'notes', 'groups'];

export function registerMetaKeyRoutes(routes: LibraryRoutes, metaKeys: MetaKeyService): void {
  for (const family of FAMILIES) {
    routes.add({
      method: 'GET',
      path: `/v1/${family}/meta/keys`,
      tag: family,
      summary: `Distinct top-level metadata keys of ${family}`,
      needs: 'read',
      handler: async ({ reply }) => {
        if (family === 'resources') reply.header('Cache-Control', 'max-age=259200');
        return metaKeys.keys(family);
      },
    });
  }
}
