// Duration strings (library-plugins.md §19.1): an optional sign, then one or more
// <number><unit> groups with units ns, us, µs, ms, s, m, h; "0" alone is also valid. Used by
// mah.schedule's `every`, mah.download's `delay` and the manifest's download_limits.

const UNIT_MS: Record<string, number> = { ns: 1e-6, us: 1e-3, µs: 1e-3, μs: 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

export class DurationError extends Error {}

/** Milliseconds of a duration string; throws DurationError with the reason it is not one. */
export function parseDuration(text: string): number {
  const quoted = JSON.stringify(text);
  if (text === '0' || text === '+0' || text === '-0') return 0;
  let rest = text;
  let sign = 1;
  if (rest.startsWith('-') || rest.startsWith('+')) {
    sign = rest[0] === '-' ? -1 : 1;
    rest = rest.slice(1);
  }
  if (rest === '') throw new DurationError(`time: invalid duration ${quoted}`);
  let total = 0;
  while (rest !== '') {
    const num = /^(\d+\.?\d*|\.\d+)/.exec(rest);
    if (!num) throw new DurationError(`time: invalid duration ${quoted}`);
    rest = rest.slice(num[0].length);
    const unit = /^[^\d.]+/.exec(rest);
    if (!unit) throw new DurationError(`time: missing unit in duration ${quoted}`);
    const scale = UNIT_MS[unit[0]];
    if (scale === undefined) throw new DurationError(`time: unknown unit ${JSON.stringify(unit[0])} in duration ${quoted}`);
    rest = rest.slice(unit[0].length);
    total += Number(num[0]) * scale;
  }
  return sign * total;
}
