// The shortcode routes: GET /v1/shortcodes/docs (companion §5.7), the catalogue for template
// editors, and POST /v1/shortcodes/deferred (§5.3), the sealed body of a [lazy], [details] or
// [reload] region, rendered for the caller.
import { Type } from '@sinclair/typebox';
import type { LibraryRoutes } from '../http/routes.js';
import type { Shortcodes } from './index.js';

export function registerShortcodeRoutes(routes: LibraryRoutes, shortcodes: Shortcodes): void {
  routes.add({
    method: 'GET',
    path: '/v1/shortcodes/docs',
    tag: 'templates',
    summary: 'Documentation of the built-in shortcodes and of the documented shortcodes of enabled plugins',
    needs: 'read',
    handler: async ({ req }) => shortcodes.docs(req.principal),
  });
  routes.add({
    method: 'POST',
    path: '/v1/shortcodes/deferred',
    tag: 'templates',
    summary: 'Render the body of a deferred [lazy] or [details] shortcode from its sealed token',
    needs: 'read',
    input: Type.Object({ token: Type.Optional(Type.String()) }),
    handler: async ({ req, input }) => shortcodes.deferred(input.token ?? '', req.principal),
  });
}
