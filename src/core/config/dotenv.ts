// Reads KEY=VALUE lines from ./.env into the environment without overriding real variables,
// so a .env file acts as environment defaults (companion §1.1).
import { existsSync, readFileSync } from 'node:fs';

export function loadDotEnv(path = '.env', env: NodeJS.ProcessEnv = process.env): void {
  if (!existsSync(path)) return;
  for (const line of readFileSync(path, 'utf8').split(/\r?\n/)) {
    const m = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*?)\s*$/.exec(line);
    if (!m || line.trimStart().startsWith('#')) continue;
    let value = m[2];
    if (/^(["']).*\1$/.test(value)) value = value.slice(1, -1);
    if (env[m[1]] === undefined) env[m[1]] = value;
  }
}
