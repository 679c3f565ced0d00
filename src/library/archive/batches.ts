// Large id sets are queried in slices so a statement never carries an unbounded IN list.
export const BATCH = 500;

export function slices<T>(items: T[], size = BATCH): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** Runs `query` once per slice of `ids` and concatenates the rows. */
export async function batched<I, R>(ids: I[], query: (slice: I[]) => Promise<R[]>): Promise<R[]> {
  const out: R[] = [];
  for (const slice of slices(ids)) out.push(...(await query(slice)));
  return out;
}

export function groupRows<K, V>(rows: V[], key: (v: V) => K): Map<K, V[]> {
  const m = new Map<K, V[]>();
  for (const r of rows) {
    const k = key(r);
    const list = m.get(k);
    if (list) list.push(r);
    else m.set(k, [r]);
  }
  return m;
}
