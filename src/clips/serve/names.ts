// File names on a tag server (companion §3.3, §9.2): the stored filename, or clip-<id> when it is
// empty; a name already taken at the level gets " (2)", " (3)" … before its extension, in
// creation order.

/** Splits "a.tar.gz" into ["a.tar", ".gz"]; a leading dot is part of the stem. */
function splitExtension(name: string): [string, string] {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
}

export function servedNames<T extends { id: number; filename: string }>(clips: readonly T[]): { name: string; clip: T }[] {
  const taken = new Set<string>();
  const seen = new Map<string, number>();
  return clips.map((clip) => {
    const base = clip.filename === '' ? `clip-${clip.id}` : clip.filename;
    let name = base;
    if (taken.has(name)) {
      const [stem, ext] = splitExtension(base);
      let n = seen.get(base) ?? 1;
      do name = `${stem} (${++n})${ext}`;
      while (taken.has(name));
      seen.set(base, n);
    }
    taken.add(name);
    return { name, clip };
  });
}
