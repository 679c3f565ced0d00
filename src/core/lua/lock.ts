// The VM lock (library-plugins.md §9.2): one entry point of a plugin at a time, waiters served
// in arrival order, a waiter may give up (timeout, or its request was cancelled).

export type LockRelease = () => void;

export class LockWaitFailed extends Error {
  constructor(readonly reason: 'timeout' | 'aborted' | 'closed') {
    super(`lock wait failed: ${reason}`);
  }
}

export interface LockWaitOptions {
  signal?: AbortSignal;
  /** Give up after this long; 0 means "only if free right now". */
  timeoutMs?: number;
}

interface Waiter {
  grant(release: LockRelease): void;
  fail(error: Error): void;
}

export class FifoLock {
  private held = false;
  private readonly waiters: Waiter[] = [];

  get isHeld(): boolean {
    return this.held;
  }

  acquire(options: LockWaitOptions = {}): Promise<LockRelease> {
    const { signal, timeoutMs } = options;
    if (signal?.aborted) return Promise.reject(new LockWaitFailed('aborted'));
    if (!this.held) {
      this.held = true;
      return Promise.resolve(this.releaser());
    }
    if (timeoutMs !== undefined && timeoutMs <= 0) return Promise.reject(new LockWaitFailed('timeout'));
    return new Promise<LockRelease>((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const cleanup = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        const i = this.waiters.indexOf(waiter);
        if (i >= 0) this.waiters.splice(i, 1);
      };
      const waiter: Waiter = {
        grant: (release) => {
          cleanup();
          resolve(release);
        },
        fail: (error) => {
          cleanup();
          reject(error);
        },
      };
      const onAbort = () => waiter.fail(new LockWaitFailed('aborted'));
      signal?.addEventListener('abort', onAbort, { once: true });
      if (timeoutMs !== undefined) timer = setTimeout(() => waiter.fail(new LockWaitFailed('timeout')), timeoutMs);
      this.waiters.push(waiter);
    });
  }

  /** Fails every waiter (the lock holder keeps the lock until it releases). */
  failWaiters(): void {
    for (const w of [...this.waiters]) w.fail(new LockWaitFailed('closed'));
  }

  private releaser(): LockRelease {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiters.shift();
      if (next) next.grant(this.releaser());
      else this.held = false;
    };
  }
}
