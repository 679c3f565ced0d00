// mah.db.transaction (library-plugins.md §11.10): the block runs in one ambient database
// transaction that every mah.db, mah.kv and mah.log statement joins (and so do other plugins'
// before-hooks fired by those writes). After-hooks raised inside wait for the commit; a nested
// block is a savepoint whose queued after-hooks join the outer block's only if it succeeded.
import { AsyncLocalStorage } from 'node:async_hooks';
import { ambientTransaction } from '../../core/db/ambient.js';
import type { LibraryDb } from '../schema/database.js';

interface PluginTx {
  afterCommit: (() => Promise<void>)[];
}

const blocks = new AsyncLocalStorage<PluginTx | undefined>();

/** True inside a plugin's mah.db.transaction block. */
export function inPluginTransaction(): boolean {
  return blocks.getStore() !== undefined;
}

/** The refusal text of a call that may not run inside a block (§11.10). */
export function refusedInTransaction(call: string, why: string): string {
  return `${call} cannot run inside mah.db.transaction: ${why}`;
}

/**
 * Queues work to run once the enclosing block commits; false when no block is open (the caller
 * then runs it now).
 */
export function deferUntilCommit(work: () => Promise<void>): boolean {
  const tx = blocks.getStore();
  if (!tx) return false;
  tx.afterCommit.push(work);
  return true;
}

/** Runs `work` as one transaction block; after-hooks run after the outermost commit. */
export async function pluginTransaction<R>(db: LibraryDb, work: () => Promise<R>): Promise<R> {
  const outer = blocks.getStore();
  const tx: PluginTx = { afterCommit: [] };
  const result = await blocks.run(tx, () => ambientTransaction(db, work));
  if (outer) {
    outer.afterCommit.push(...tx.afterCommit);
    return result;
  }
  await blocks.run(undefined, async () => {
    for (const next of tx.afterCommit) await next();
  });
  return result;
}
