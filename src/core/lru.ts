// One bounded cache for the whole code base: a Map keeps insertion order, so moving an entry to
// the end on use and dropping from the front keeps the least recently used entry first out.

export class LruMap<K, V> {
  private readonly entries = new Map<K, V>();

  constructor(private readonly max: number) {
    if (!(max >= 1)) throw new RangeError('an LRU map holds at least one entry');
  }

  get size(): number {
    return this.entries.size;
  }

  /** The entry for `key`, which becomes the most recently used. */
  get(key: K): V | undefined {
    if (!this.entries.has(key)) return undefined;
    const value = this.entries.get(key) as V;
    this.entries.delete(key);
    this.entries.set(key, value);
    return value;
  }

  /** The entry for `key` without counting it as a use. */
  peek(key: K): V | undefined {
    return this.entries.get(key);
  }

  /** Stores `value` as the most recently used entry and drops the oldest beyond the bound. */
  set(key: K, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, value);
    while (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value as K);
  }

  delete(key: K): boolean {
    return this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }
}
