// Pacing of plugins' queued downloads (library-plugins.md §15.5): per plugin and rule, at most
// `concurrency` jobs at once, starts `minIntervalMs` apart, and a pause after a 429 or 503
// answer. The queue asks before a job takes a slot, so a paced job waits without holding one.
// State lives in memory only (a restart forgets it), one entry per rule that has paced a job.
import type { JobAdmission } from '../../core/jobs/queue.js';
import type { DownloadPayload } from './payload.js';

export interface PaceRule {
  /** null: no limit on simultaneous jobs. */
  concurrency: number | null;
  minIntervalMs: number;
  /** 0 disables the pause after 429 and 503. */
  backoffMs: number;
}

/**
 * The rule pacing a plugin's download of `url`, with the key its state is kept under (unique
 * within the plugin); null when no rule applies.
 */
export type PaceRuleLookup = (plugin: string, url: URL) => { key: string; rule: PaceRule } | null;

interface PaceState {
  running: number;
  lastStartMs: number;
  blockedUntilMs: number;
}

/** Retry-After as milliseconds from now (delta-seconds or an HTTP date); null when unusable. */
export function retryAfterMs(header: string | undefined, now: number): number | null {
  const text = header?.trim() ?? '';
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // HTTP dates open with the weekday; Date.parse alone would read "-5" as a year.
  const at = /^[A-Za-z]/.test(text) ? Date.parse(text) : NaN;
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

export class DownloadPacer implements JobAdmission<DownloadPayload> {
  private readonly states = new Map<string, PaceState>();

  constructor(
    private readonly lookup: PaceRuleLookup,
    private readonly now: () => number = Date.now,
  ) {}

  waitMs(payload: DownloadPayload): number {
    const paced = this.paced(payload);
    if (!paced) return 0;
    const state = this.states.get(paced.key);
    if (!state) return 0;
    if (paced.rule.concurrency !== null && state.running >= paced.rule.concurrency) return Infinity;
    const now = this.now();
    return Math.max(0, state.lastStartMs + paced.rule.minIntervalMs - now, state.blockedUntilMs - now);
  }

  admit(payload: DownloadPayload): () => void {
    const paced = this.paced(payload);
    if (!paced) return () => undefined;
    const state = this.state(paced.key);
    state.running++;
    state.lastStartMs = this.now();
    // The release counts against the rule the job started under, even if the manifest changed since.
    let released = false;
    return () => {
      if (released) return;
      released = true;
      state.running--;
    };
  }

  /** A job's answer: 429 and 503 hold later jobs of its rule back (Retry-After capped at backoff). */
  answered(payload: DownloadPayload, status: number, retryAfter: string | undefined): void {
    if (status !== 429 && status !== 503) return;
    const paced = this.paced(payload);
    if (!paced || paced.rule.backoffMs <= 0) return;
    const now = this.now();
    const asked = retryAfterMs(retryAfter, now);
    const pause = asked === null ? paced.rule.backoffMs : Math.min(asked, paced.rule.backoffMs);
    const state = this.state(paced.key);
    state.blockedUntilMs = Math.max(state.blockedUntilMs, now + pause);
  }

  private paced(payload: DownloadPayload): { key: string; rule: PaceRule } | null {
    if (payload.plugin === undefined) return null;
    let url: URL;
    try {
      url = new URL(payload.url);
    } catch {
      return null;
    }
    const found = this.lookup(payload.plugin, url);
    // The plugin name keeps two plugins' rules for the same host apart.
    return found && { key: `${payload.plugin}\n${found.key}`, rule: found.rule };
  }

  private state(key: string): PaceState {
    let s = this.states.get(key);
    if (!s) {
      s = { running: 0, lastStartMs: -Infinity, blockedUntilMs: -Infinity };
      this.states.set(key, s);
    }
    return s;
  }
}
