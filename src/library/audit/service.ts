// The audit log: every create, update and delete that passes the event bus becomes an entry
// (companion §12.10). A failed log write never fails the operation that caused it.
import type { ChangeEvent, EventBus, RequestOrigin } from '../../core/events/bus.js';
import { nowIso, parseJson } from '../../core/db/values.js';
import type { Principal } from '../auth/principal.js';
import type { LogFilter, LogRepository, LogRow } from './repository.js';

const VERB = { create: 'Created', update: 'Updated', delete: 'Deleted' } as const;

export function logRecord(row: LogRow) {
  const rec: Record<string, unknown> = {
    id: row.id,
    createdAt: row.created_at,
    level: row.level,
    action: row.action,
    entityType: row.entity_type,
    entityId: row.entity_id,
    entityName: row.entity_name,
    message: row.message,
    requestPath: row.request_path ?? '',
  };
  const details = parseJson<unknown>(row.details, null);
  if (details !== null) rec.details = details;
  if (row.user_agent) rec.userAgent = row.user_agent;
  if (row.ip_address) rec.ipAddress = row.ip_address;
  return rec;
}

export class AuditLog {
  constructor(private readonly repo: LogRepository) {}

  /** One page of entries and the total matching the filter. */
  list(filter: LogFilter, limit: number, offset: number): Promise<{ rows: LogRow[]; total: number }> {
    return this.repo.list(filter, limit, offset);
  }

  get(id: number): Promise<LogRow | undefined> {
    return this.repo.get(id);
  }

  /** Retention: removes entries older than `iso`; returns how many. */
  deleteOlderThan(iso: string): Promise<number> {
    return this.repo.deleteOlderThan(iso);
  }

  subscribe(bus: EventBus<Principal>): void {
    bus.onAfter((e) => this.record(e));
  }

  /** Entries that are not entity changes: warnings, system events, setting resets. */
  async note(entry: {
    level: 'info' | 'warning' | 'error';
    action: 'create' | 'update' | 'delete' | 'system' | 'progress' | 'plugin' | 'reset';
    entityType: string;
    entityId?: number;
    entityName?: string;
    message: string;
    details?: Record<string, unknown>;
    origin?: RequestOrigin;
  }): Promise<void> {
    try {
      await this.repo.insert({
        created_at: nowIso(),
        level: entry.level,
        action: entry.action,
        entity_type: entry.entityType.slice(0, 50),
        entity_id: entry.entityId ?? null,
        entity_name: (entry.entityName ?? '').slice(0, 255),
        message: entry.message.slice(0, 1000),
        details: entry.details ? JSON.stringify(entry.details) : null,
        request_path: entry.origin?.path ?? '',
        user_agent: entry.origin?.userAgent ?? '',
        ip_address: (entry.origin?.ip ?? '').slice(0, 45),
      });
    } catch (err) {
      console.error('audit log write failed:', err);
    }
  }

  async record(e: ChangeEvent<Principal>): Promise<void> {
    const name = (e.name ?? '').slice(0, 255);
    const message = e.message ?? `${VERB[e.action]} ${e.entityType.replace(/_/g, ' ')}${name ? ` "${name}"` : ''}`;
    try {
      await this.repo.insert({
        created_at: nowIso(),
        level: 'info',
        action: e.action,
        entity_type: e.entityType,
        entity_id: e.id ?? null,
        entity_name: name,
        message: message.slice(0, 1000),
        details: JSON.stringify(e.origin?.plugin ? { userId: e.principal.userId, plugin: e.origin.plugin } : { userId: e.principal.userId }),
        request_path: e.origin?.path ?? '',
        user_agent: e.origin?.userAgent ?? '',
        ip_address: (e.origin?.ip ?? '').slice(0, 45),
      });
    } catch (err) {
      console.error('audit log write failed:', err);
    }
  }
}
