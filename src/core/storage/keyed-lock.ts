// In-process mutual exclusion per key (a content hash, a resource id). Waiters queue in order;
// a wait can be bounded so a stuck holder turns into a clear error instead of a hung request.

export class LockTimeoutError extends Error {}

export class KeyedLock {
  private readonly tails = new Map<string, Promise<void>>();

  async with<T>(key: string, work: () => Promise<T>, timeoutMs = 0): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((r) => (release = r));
    const tail = previous.then(() => mine);
    this.tails.set(key, tail);
    try {
      if (timeoutMs > 0) {
        let timer: NodeJS.Timeout | undefined;
        const timeout = new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new LockTimeoutError(`waited more than ${timeoutMs} ms for ${key}`)), timeoutMs);
        });
        try {
          await Promise.race([previous, timeout]);
        } finally {
          clearTimeout(timer);
        }
      } else {
        await previous;
      }
      return await work();
    } finally {
      release();
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }
}
