// The internal before/after event bus every entity change goes through. Services emit; the
// audit log, plugins and jobs subscribe. A `before` handler may veto a change by throwing
// (the error reaches the client); an `after` handler's failure is logged and never undoes
// the committed change.

export type ChangeAction = 'create' | 'update' | 'delete';

export interface ChangeEvent<P = unknown> {
  entityType: string;
  action: ChangeAction;
  id?: number;
  name?: string;
  /** Entity state before the change (update, delete). */
  before?: unknown;
  /** Entity state after the change (create, update). */
  after?: unknown;
  /** Who made the change. */
  principal: P;
  /** The request that caused the change, when there was one. */
  origin?: RequestOrigin;
  /** Free text for the audit log (bulk operations, merges). */
  message?: string;
  /**
   * The entity's fields as plugins see them (library-plugins.md §16.3). On `before` a listener
   * may rewrite name, description and meta in place; the service then writes what it finds.
   */
  data?: Record<string, unknown>;
  /** Every entity a bulk change touches (bulk deletes), for per-item listeners. */
  ids?: number[];
  /**
   * The fields of every entity a bulk update touches, for per-item listeners: as stored before
   * the change on `before`, refreshed by the service before `after`.
   */
  items?: Record<string, unknown>[];
}

export interface RequestOrigin {
  path: string;
  userAgent: string;
  ip: string;
  /** The plugin whose code made the change on this request's behalf (the audit log names it). */
  plugin?: string;
}

type Handler<P> = (event: ChangeEvent<P>) => void | Promise<void>;

export class EventBus<P = unknown> {
  private readonly beforeHandlers: Handler<P>[] = [];
  private readonly afterHandlers: Handler<P>[] = [];

  onBefore(handler: Handler<P>): () => void {
    this.beforeHandlers.push(handler);
    return () => this.beforeHandlers.splice(this.beforeHandlers.indexOf(handler), 1);
  }

  onAfter(handler: Handler<P>): () => void {
    this.afterHandlers.push(handler);
    return () => this.afterHandlers.splice(this.afterHandlers.indexOf(handler), 1);
  }

  async before(event: ChangeEvent<P>): Promise<void> {
    for (const h of this.beforeHandlers) await h(event);
  }

  async after(event: ChangeEvent<P>): Promise<void> {
    for (const h of this.afterHandlers) {
      try {
        await h(event);
      } catch (e) {
        console.error(`event handler failed for ${event.entityType} ${event.action}:`, e);
      }
    }
  }
}
