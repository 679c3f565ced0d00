// Login throttling (companion §10.7). Every attempt is keyed by client IP and by the lower-cased
// username; an attempt is refused up front while either key holds `max` failures within the
// window, attempts still in flight included (so a burst cannot slip past the count). Failures
// count on both keys; a success clears the username's. State lives in memory, bounded.

const MAX_KEYS = 50_000;
/** Eviction frees a tenth of the bound at once, so a flood of new keys costs O(1) each. */
const EVICT_TO = MAX_KEYS * 0.9;

interface Entry {
  failures: number[];
  inFlight: number;
}

export interface LoginAttempt {
  /** The attempt failed on credentials: counts against both keys. */
  failed(): void;
  /** The attempt succeeded: the username's failures are forgotten. */
  succeeded(): void;
  /** The attempt ended for another reason (infrastructure): counts nowhere. */
  abandoned(): void;
}

export class LoginLimiter {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly max: number,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  get enabled(): boolean {
    return this.max > 0;
  }

  /** Starts an attempt, or returns null when it must be refused (429). */
  begin(ip: string, username: string): LoginAttempt | null {
    const keys = [`ip:${ip}`];
    const name = username.trim().toLowerCase();
    if (name !== '') keys.push(`user:${name}`);
    if (!this.enabled) return { failed() {}, succeeded() {}, abandoned() {} };
    const now = this.now();
    if (keys.some((k) => this.load(k, now) >= this.max)) return null;
    const entries = keys.map((k) => this.entry(k));
    for (const e of entries) e.inFlight++;
    let open = true;
    const end = (then: () => void) => {
      if (!open) return;
      open = false;
      for (const e of entries) e.inFlight--;
      then();
      this.prune(keys);
    };
    return {
      failed: () => end(() => entries.forEach((e) => e.failures.push(this.now()))),
      succeeded: () => end(() => { if (entries[1]) entries[1].failures = []; }),
      abandoned: () => end(() => undefined),
    };
  }

  private load(key: string, now: number): number {
    const e = this.entries.get(key);
    if (!e) return 0;
    const since = now - this.windowMs;
    e.failures = e.failures.filter((t) => t > since);
    return e.failures.length + e.inFlight;
  }

  private entry(key: string): Entry {
    let e = this.entries.get(key);
    if (!e) {
      if (this.entries.size >= MAX_KEYS) this.evict();
      e = { failures: [], inFlight: 0 };
      this.entries.set(key, e);
    }
    return e;
  }

  /** Forgets keys with nothing left to remember. */
  private prune(keys: string[]): void {
    for (const k of keys) {
      const e = this.entries.get(k);
      if (e && e.inFlight === 0 && e.failures.length === 0) this.entries.delete(k);
    }
  }

  /**
   * At the bound: drop expired keys, then the oldest idle ones (a Map keeps insertion order)
   * until a tenth of the room is free. Under a flood of distinct keys the oldest failures are
   * forgotten first: memory stays bounded, which the companion asks for.
   */
  private evict(): void {
    const since = this.now() - this.windowMs;
    for (const [k, e] of this.entries) {
      e.failures = e.failures.filter((t) => t > since);
      if (e.inFlight === 0 && e.failures.length === 0) this.entries.delete(k);
    }
    for (const [k, e] of this.entries) {
      if (this.entries.size <= EVICT_TO) break;
      if (e.inFlight === 0) this.entries.delete(k);
    }
  }

  /** Keys held (tests and the bound). */
  get size(): number {
    return this.entries.size;
  }
}
