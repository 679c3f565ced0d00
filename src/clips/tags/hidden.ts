// Hidden tags (companion §3.7): a stored preference for clients (settings.hidden_tags) and the
// effective hidden set a list call computes from its own `hidden` and `tag` parameters.
import type { Executor } from '../../core/db/repository.js';
import { parseJson } from '../../core/db/values.js';
import type { ClipDatabase } from '../schema/database.js';
import { SettingsRepository } from '../settings/repository.js';
import { ancestorsOf, type TagRef } from './names.js';
import type { TagRepository } from './repository.js';

type Db = Executor<ClipDatabase>;
const KEY = 'hidden_tags';

export async function readHiddenList(db: Db): Promise<number[]> {
  const ids = parseJson<unknown>(await new SettingsRepository(db).get(KEY), []);
  return Array.isArray(ids) ? ids.filter((v): v is number => Number.isSafeInteger(v)) : [];
}

export async function writeHiddenList(db: Db, ids: readonly number[]): Promise<void> {
  await new SettingsRepository(db).set(KEY, JSON.stringify([...new Set(ids)]));
}

/**
 * The effective hidden set H: every hidden tag with its subtree, minus each filter tag's
 * subtree, minus each filter tag's ancestors (an explicit filter outweighs hiding).
 */
export async function effectiveHidden(tags: TagRepository, hiddenIds: readonly number[], filters: readonly TagRef[]): Promise<number[]> {
  if (hiddenIds.length === 0) return [];
  const hidden = new Set<number>();
  for (const tag of await tags.findMany([...new Set(hiddenIds)])) {
    for (const t of await tags.subtree(tag)) hidden.add(t.id);
  }
  for (const filter of filters) {
    for (const t of await tags.subtree(filter)) hidden.delete(t.id);
    for (const t of await tags.findByNames(ancestorsOf(filter.name))) hidden.delete(t.id);
  }
  return [...hidden];
}
