// Go duration syntax ("300ms", "1h30m", "720h"); no day unit, as in the reference service.
const UNITS: Record<string, number> = { ns: 1e-6, us: 1e-3, µs: 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** Parses a Go duration into milliseconds. */
export function parseDuration(text: string): number {
  const s = text.trim();
  if (s === '0') return 0;
  const re = /(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)/y;
  let total = 0;
  let pos = 0;
  if (!s) throw new Error('empty duration');
  while (pos < s.length) {
    re.lastIndex = pos;
    const m = re.exec(s);
    if (!m) throw new Error(`expected a number followed by one of ns, us, ms, s, m, h`);
    total += Number(m[1]) * UNITS[m[2]];
    pos = re.lastIndex;
  }
  return total;
}
