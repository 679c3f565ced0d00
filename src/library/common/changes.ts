// Change events around every write: `before` listeners may refuse it, `after` listeners (the
// audit log, later plugins) see what changed. Services wrap each write in `withChange`.
import { randomUUID } from 'node:crypto';
import type { ChangeAction, EventBus } from '../../core/events/bus.js';
import { nowIso } from '../../core/db/values.js';
import type { Actor, Principal } from '../auth/principal.js';

export interface ChangeOutcome<R> {
  id?: number;
  name?: string;
  result: R;
  before?: unknown;
  after?: unknown;
  message?: string;
}

export async function withChange<R>(
  bus: EventBus<Principal>,
  actor: Actor,
  action: ChangeAction,
  entityType: string,
  work: () => Promise<ChangeOutcome<R>>,
): Promise<R> {
  await bus.before({ entityType, action, principal: actor.principal, origin: actor.origin });
  const done = await work();
  await bus.after({
    entityType,
    action,
    id: done.id,
    name: done.name,
    before: done.before,
    after: done.after,
    message: done.message,
    principal: actor.principal,
    origin: actor.origin,
  });
  return done.result;
}

/** Columns every new row carries: timestamps and the acting user (companion §2). */
export function rowStamp(actor: Actor) {
  const now = nowIso();
  return { created_at: now, updated_at: now, created_by_user_id: actor.principal.userId };
}

/** rowStamp plus a fresh GUID, for the tables export/import recognises entities by. */
export function newRowStamp(actor: Actor) {
  return { ...rowStamp(actor), guid: randomUUID() };
}
