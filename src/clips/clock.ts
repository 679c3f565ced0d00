// The service's notion of "now", injectable so expiry, cleanup and key-retention rules can be
// tested without waiting (companion §14). Also the two timestamp formats of §2.5.

export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock that only moves when told to (tests). */
export class ManualClock implements Clock {
  private offsetMs = 0;
  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }
  advance(ms: number): void {
    this.offsetMs += ms;
  }
}

/** Stored form of clip timestamps: ISO 8601 UTC with milliseconds (sorts as text). */
export function isoStamp(d: Date): string {
  return d.toISOString();
}

/** JSON form of clip and tag timestamps: RFC 3339 UTC, second precision. */
export function rfc3339(stored: string): string {
  return stored.length >= 19 ? `${stored.slice(0, 19)}Z` : stored;
}

/** API key timestamps: "YYYY-MM-DD HH:MM:SS" in UTC. */
export function keyStamp(d: Date): string {
  return d.toISOString().slice(0, 19).replace('T', ' ');
}
