// The MRQL cache of library-plugins.md §11.6: within one entry point identical mrql_query calls
// answer from the cache, and any mah.db write (or a committed transaction) empties it. The render
// entry points of one page render (every slot and shortcode) share one cache (§24), kept in the
// page render's shared state; every other entry point keeps its own on its invocation.
import { pageRenders } from '../../core/http/pages.js';
import { invocations } from './invocation.js';

const PAGE_CACHE = Symbol('plugin MRQL cache');

/** The cache the current call reads and clears; null outside any entry point. */
export function mrqlCache(): Map<string, unknown> | null {
  const inv = invocations.getStore();
  if (!inv) return null;
  const page = inv.render ? pageRenders.getStore() : undefined;
  if (!page) return (inv.mrql ??= new Map());
  let shared = page.get(PAGE_CACHE) as Map<string, unknown> | undefined;
  if (!shared) page.set(PAGE_CACHE, (shared = new Map()));
  return shared;
}

/** After a mah.db write, successful or not, or a committed transaction. */
export function clearMrqlCache(): void {
  mrqlCache()?.clear();
}
