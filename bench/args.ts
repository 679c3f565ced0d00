// Command-line options of the benchmark scripts: `--name value`. A flag given without a value
// (last on the line) falls back to the default, so a typo never becomes NaN or "undefined".

function raw(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] !== undefined ? process.argv[i + 1] : undefined;
}

export function argText(name: string, fallback: string): string {
  return raw(name) || fallback;
}

export function argNumber(name: string, fallback: number): number {
  const value = raw(name);
  return value === undefined ? fallback : Number(value);
}
