// SQL snapshots: every repository statement, compiled with representative arguments for SQLite
// and PostgreSQL, must equal the committed test/sql/<feature>.<dialect>.sql, so every SQL
// change shows in review for both engines. `npm run sql:snapshots` rewrites the files.
//
// Every repository class under src/library must have cases (test/sql/cases/<feature>.ts), and
// every method of it must run in some case (directly or through another method): a new query
// cannot slip in unreviewed.
import { readdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { DbKind } from '../../src/core/db/connect.js';
import { Repository } from '../../src/core/db/repository.js';
import { pretty, recorder, type SqlCaseSet } from './capture.js';

const ROOT = join(import.meta.dirname, '..', '..');
const SRC = join(ROOT, 'src', 'library');
const CASES = join(import.meta.dirname, 'cases');
const UPDATE = process.env.UPDATE_SQL_SNAPSHOTS === '1';
const KINDS: DbKind[] = ['sqlite', 'postgres'];

function repositoryFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...repositoryFiles(path));
    else if (/^(repository|.+\.repository)\.ts$/.test(entry.name)) out.push(path);
  }
  return out.sort();
}

/** The feature a repository belongs to: its first folder under src/library. */
function featureOf(file: string): string {
  return relative(SRC, file).split(sep)[0];
}

type AnyClass = abstract new (...args: never[]) => unknown;

async function repositoryClasses(): Promise<Map<string, AnyClass[]>> {
  const byFeature = new Map<string, AnyClass[]>();
  for (const file of repositoryFiles(SRC)) {
    const mod = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
    for (const value of Object.values(mod)) {
      if (typeof value === 'function' && value.prototype instanceof Repository) {
        const list = byFeature.get(featureOf(file)) ?? [];
        list.push(value as AnyClass);
        byFeature.set(featureOf(file), list);
      }
    }
  }
  return byFeature;
}

async function caseSets(feature: string): Promise<SqlCaseSet[]> {
  const file = join(CASES, `${feature}.ts`);
  if (!existsSync(file)) return [];
  const mod = (await import(pathToFileURL(file).href)) as { default: SqlCaseSet[] };
  return mod.default;
}

function methodsOf(cls: AnyClass): string[] {
  const names = new Set<string>();
  for (let proto = cls.prototype as object; proto && proto !== Repository.prototype; proto = Object.getPrototypeOf(proto) as object) {
    for (const name of Object.getOwnPropertyNames(proto)) {
      if (name !== 'constructor' && typeof Object.getOwnPropertyDescriptor(proto, name)?.value === 'function') names.add(name);
    }
  }
  return [...names].sort();
}

/** Records the names of the methods called on `repo` (its own calls through `this` included). */
function instrument(repo: object, called: Set<string>): void {
  const target = repo as Record<string, unknown>;
  for (let proto = Object.getPrototypeOf(repo) as object; proto && proto !== Repository.prototype; proto = Object.getPrototypeOf(proto) as object) {
    for (const name of Object.getOwnPropertyNames(proto)) {
      const fn = Object.getOwnPropertyDescriptor(proto, name)?.value as unknown;
      if (name === 'constructor' || typeof fn !== 'function' || Object.prototype.hasOwnProperty.call(target, name)) continue;
      target[name] = function (this: unknown, ...args: unknown[]) {
        called.add(name);
        return (fn as (...a: unknown[]) => unknown).apply(this, args);
      };
    }
  }
}

async function render(kind: DbKind, sets: SqlCaseSet[], called = new Map<SqlCaseSet, Set<string>>()): Promise<string> {
  const rec = recorder(kind);
  const blocks: string[] = [];
  for (const set of sets) {
    const repo = set.build(rec.db, rec.dialect) as object;
    const names = called.get(set) ?? new Set<string>();
    called.set(set, names);
    instrument(repo, names);
    for (const [label, run] of set.cases) {
      try {
        await run(repo);
      } catch {
        // No rows come back, so "take first or throw" throws after compiling; the SQL is what counts.
      }
      const statements = rec.take();
      const body = statements.length
        ? statements.map((s) => `${pretty(kind, s.sql)};\n-- params: ${JSON.stringify(s.params)}`).join('\n\n')
        : '-- (no statement)';
      blocks.push(`-- ${set.repository.name}.${label}\n${body}`);
    }
  }
  return blocks.join('\n\n') + '\n';
}

const classes = await repositoryClasses();

describe('SQL snapshots', () => {
  // Statements that stamp rows bind "now": a fixed clock keeps the snapshots stable.
  beforeAll(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2024-06-01T12:00:00.000Z'));
  });
  for (const [feature, list] of classes) {
    it(`${feature}: every repository method runs in a case`, async () => {
      const sets = await caseSets(feature);
      const called = new Map<SqlCaseSet, Set<string>>();
      await render('sqlite', sets, called);
      for (const cls of list) {
        const set = sets.find((s) => s.repository === cls);
        expect(set, `${cls.name} has no cases in test/sql/cases/${feature}.ts`).toBeDefined();
        const missing = methodsOf(cls).filter((m) => !called.get(set!)?.has(m));
        expect(missing, `${cls.name} methods no case runs`).toEqual([]);
      }
    });

    for (const kind of KINDS) {
      it(`${feature}: ${kind} statements match test/sql/${feature}.${kind}.sql`, async () => {
        const text = await render(kind, await caseSets(feature));
        const file = join(import.meta.dirname, `${feature}.${kind}.sql`);
        if (UPDATE) writeFileSync(file, text);
        const committed = existsSync(file) ? readFileSync(file, 'utf8') : '';
        expect(text, `run "npm run sql:snapshots" and review the diff of ${feature}.${kind}.sql`).toBe(committed);
      });
    }
  }
});
