// Group commit: work items submitted during one turn of the event loop are written by one
// transaction instead of one each. On SQLite most of a small insert's cost is the commit and the
// full-text index's per-transaction segment (bench/README.md, "Clip service": a clip row with its
// trigram index costs 290 µs alone and 128 µs in a transaction of eight), so concurrent small
// uploads share it. Each item still succeeds or fails on its own (the writer runs each in a
// savepoint); a failure of the whole transaction fails every item of the batch.

/** What the writer answers for one item: its value, or the error that failed only that item. */
export type ItemOutcome<O> = { ok: true; value: O } | { ok: false; error: unknown };

export class GroupCommit<I, O> {
  private queue: { item: I; resolve: (value: O) => void; reject: (error: unknown) => void }[] = [];

  /** `write` gets the items of one batch, in submission order, and answers one outcome per item. */
  constructor(private readonly write: (items: readonly I[]) => Promise<ItemOutcome<O>[]>) {}

  /** Resolves once the batch holding `item` has committed (or rejects with its error). */
  submit(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      // setImmediate runs after the I/O callbacks of this turn: requests whose bodies arrived
      // together join one batch, and a lone request waits for no timer.
      if (this.queue.length === 1) setImmediate(() => void this.flush());
    });
  }

  private async flush(): Promise<void> {
    const batch = this.queue;
    this.queue = [];
    let outcomes: ItemOutcome<O>[];
    try {
      outcomes = await this.write(batch.map((b) => b.item));
      if (outcomes.length !== batch.length) throw new Error(`group commit: ${outcomes.length} outcomes for ${batch.length} items`);
    } catch (e) {
      for (const b of batch) b.reject(e);
      return;
    }
    batch.forEach((b, i) => {
      const outcome = outcomes[i];
      if (outcome.ok) b.resolve(outcome.value);
      else b.reject(outcome.error);
    });
  }
}
