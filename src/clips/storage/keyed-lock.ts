// Serialises async work per key (a content hash): a blob's move into place plus its row insert,
// and the garbage collection of the same hash, never interleave (companion §2.2.1).

export class KeyedLock {
  private readonly tails = new Map<string, Promise<unknown>>();

  async run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const current = previous.then(work, work);
    const tail = current.catch(() => undefined);
    this.tails.set(key, tail);
    try {
      return await current;
    } finally {
      // The last waiter cleans up so the map does not grow with every hash ever seen.
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }
}
