// Integrity-constraint failures reported by either driver, classified by their error codes
// (SQLite extended result codes, PostgreSQL SQLSTATE) — never by message text.
export type ConstraintKind = 'unique' | 'foreign_key' | 'not_null' | 'check';

const SQLITE: Record<string, ConstraintKind> = {
  SQLITE_CONSTRAINT_UNIQUE: 'unique',
  SQLITE_CONSTRAINT_PRIMARYKEY: 'unique',
  SQLITE_CONSTRAINT_FOREIGNKEY: 'foreign_key',
  SQLITE_CONSTRAINT_NOTNULL: 'not_null',
  SQLITE_CONSTRAINT_CHECK: 'check',
};

const POSTGRES: Record<string, ConstraintKind> = {
  '23505': 'unique',
  '23503': 'foreign_key',
  '23502': 'not_null',
  '23514': 'check',
};

export interface ConstraintFailure {
  kind: ConstraintKind;
  /** The table, when the driver reports it (PostgreSQL). */
  table?: string;
}

export function constraintFailure(err: unknown): ConstraintFailure | null {
  if (!err || typeof err !== 'object') return null;
  const e = err as { code?: unknown; table?: unknown };
  if (typeof e.code !== 'string') return null;
  const kind = SQLITE[e.code] ?? POSTGRES[e.code];
  if (!kind) return null;
  return { kind, table: typeof e.table === 'string' ? e.table : undefined };
}
