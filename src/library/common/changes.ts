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
  /** Nothing changed after all (an idempotent create found the row): no after event. */
  unchanged?: boolean;
}

/** Fields of an entity as change listeners (plugin hooks) see and may rewrite them. */
export interface ChangeData {
  id: number;
  name?: string;
  description?: string;
  meta?: string;
  [key: string]: unknown;
}

/** What work happens on: the data as before listeners left it, and the ids of a bulk change. */
export interface ChangeInput {
  data?: ChangeData;
  ids?: number[];
  /** Per-item fields of a bulk update (§16.4: each item fires its hooks). */
  items?: ChangeData[];
}

export async function withChange<R>(
  bus: EventBus<Principal>,
  actor: Actor,
  action: ChangeAction,
  entityType: string,
  work: () => Promise<ChangeOutcome<R>>,
  input: ChangeInput = {},
): Promise<R> {
  await bus.before({ entityType, action, principal: actor.principal, origin: actor.origin, data: input.data, ids: input.ids, items: input.items });
  const done = await work();
  if (done.unchanged) return done.result;
  if (input.data && done.id !== undefined) input.data.id = done.id;
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
    data: input.data,
    ids: input.ids,
    items: input.items,
  });
  return done.result;
}

/** A field a before listener may have rewritten: its text, or the fallback when it is not text. */
export function changedText(data: ChangeData, field: 'name' | 'description' | 'meta', fallback: string): string {
  const v = data[field];
  return typeof v === 'string' ? v : fallback;
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
