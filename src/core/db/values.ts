// Value conventions shared by both engines once connect.ts has set up the drivers: timestamps
// are ISO strings, JSON columns arrive as text, booleans as 0/1 or true/false.

/** The current instant as stored in timestamp columns. */
export function nowIso(): string {
  return new Date().toISOString();
}

/** Reads a boolean column value from either engine. */
export function bool(value: unknown): boolean {
  return value === true || value === 1 || value === '1';
}

/** Parses a JSON column; anything unreadable becomes `fallback`. */
export function parseJson<T = unknown>(value: unknown, fallback: T): T {
  if (value === null || value === undefined || value === '') return fallback;
  if (typeof value !== 'string') return value as T;
  try {
    return JSON.parse(value) as T;
  } catch {
    return fallback;
  }
}

/** Escapes LIKE wildcards so user text matches literally (escape character is \). */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}
