// SQL snapshots: every repository statement, compiled with representative arguments for each
// engine the service runs on, must equal the committed test/sql/<feature>.<dialect>.sql, so
// every SQL change shows in review. `npm run sql:snapshots` rewrites the files.
//
// Every repository class under src/library and src/clips must have cases
// (test/sql/cases/<feature>.ts; clip features are named clips-<feature>), and every method of it
// must run in some case (directly or through another method): a new query cannot slip in
// unreviewed. The library runs on SQLite and PostgreSQL; the clip service on SQLite only.
import { readdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { DbKind } from '../../src/core/db/connect.js';
import { Repository } from '../../src/core/db/repository.js';
import { pretty, recorder, type Captured, type SqlCaseSet } from './capture.js';

const ROOT = join(import.meta.dirname, '..', '..');
const CASES = join(import.meta.dirname, 'cases');
const UPDATE = process.env.UPDATE_SQL_SNAPSHOTS === '1';

interface Service {
  src: string;
  /** Put before the feature folder's name, so clips-tags and the library's tags stay apart. */
  prefix: string;
  kinds: DbKind[];
}

const SERVICES: Service[] = [
  { src: join(ROOT, 'src', 'library'), prefix: '', kinds: ['sqlite', 'postgres'] },
  { src: join(ROOT, 'src', 'clips'), prefix: 'clips-', kinds: ['sqlite'] },
];

function repositoryFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...repositoryFiles(path));
    else if (/^(repository|.+\.repository)\.ts$/.test(entry.name)) out.push(path);
  }
  return out.sort();
}

/** The feature a repository belongs to: its first folder under the service's source. */
function featureOf(service: Service, file: string): string {
  return service.prefix + relative(service.src, file).split(sep)[0];
}

type AnyClass = abstract new (...args: never[]) => unknown;

interface Feature {
  classes: AnyClass[];
  kinds: DbKind[];
}

async function repositoryClasses(): Promise<Map<string, Feature>> {
  const byFeature = new Map<string, Feature>();
  for (const service of SERVICES) {
    for (const file of repositoryFiles(service.src)) {
      const mod = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
      const name = featureOf(service, file);
      // A repository on a better-sqlite3 connection (the clip backup) is no Repository: its
      // case file alone makes it a feature.
      if (existsSync(join(CASES, `${name}.ts`)) && !byFeature.has(name)) byFeature.set(name, { classes: [], kinds: service.kinds });
      for (const value of Object.values(mod)) {
        if (typeof value === 'function' && value.prototype instanceof Repository) {
          const feature = byFeature.get(name) ?? { classes: [], kinds: service.kinds };
          feature.classes.push(value as AnyClass);
          byFeature.set(name, feature);
        }
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
  for (let proto = cls.prototype as object; proto && proto !== Repository.prototype && proto !== Object.prototype; proto = Object.getPrototypeOf(proto) as object) {
    for (const name of Object.getOwnPropertyNames(proto)) {
      if (name !== 'constructor' && typeof Object.getOwnPropertyDescriptor(proto, name)?.value === 'function') names.add(name);
    }
  }
  return [...names].sort();
}

/** Records the names of the methods called on `repo` (its own calls through `this` included). */
function instrument(repo: object, called: Set<string>): void {
  const target = repo as Record<string, unknown>;
  for (let proto = Object.getPrototypeOf(repo) as object; proto && proto !== Repository.prototype && proto !== Object.prototype; proto = Object.getPrototypeOf(proto) as object) {
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
  const block = (set: SqlCaseSet, label: string, statements: Captured[]) => {
    const body = statements.length
      ? statements.map((s) => `${pretty(kind, s.sql)};\n-- params: ${JSON.stringify(s.params)}`).join('\n\n')
      : '-- (no statement)';
    blocks.push(`-- ${set.repository.name}.${label}\n${body}`);
  };
  for (const set of sets) {
    const repo = set.build(rec.db, rec.dialect, rec.native) as object;
    const names = called.get(set) ?? new Set<string>();
    called.set(set, names);
    instrument(repo, names);
    // A repository whose constructor runs statements (the backup's read snapshot).
    const built = rec.take();
    if (built.length) block(set, 'constructor', built);
    for (const [label, run] of set.cases) {
      try {
        await run(repo);
      } catch {
        // No rows come back, so "take first or throw" throws after compiling; the SQL is what counts.
      }
      block(set, label, rec.take());
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
  // Test files share a worker (isolate: false): the next file gets the real clock back.
  afterAll(() => {
    vi.useRealTimers();
  });
  for (const [feature, { classes: list, kinds }] of classes) {
    it(`${feature}: every repository method runs in a case`, async () => {
      const sets = await caseSets(feature);
      const called = new Map<SqlCaseSet, Set<string>>();
      await render('sqlite', sets, called);
      // Repository classes must have cases; classes that only have cases must be covered too.
      for (const cls of new Set([...list, ...sets.map((s) => s.repository as AnyClass)])) {
        const set = sets.find((s) => s.repository === cls);
        expect(set, `${cls.name} has no cases in test/sql/cases/${feature}.ts`).toBeDefined();
        const missing = methodsOf(cls).filter((m) => !called.get(set!)?.has(m));
        expect(missing, `${cls.name} methods no case runs`).toEqual([]);
      }
    });

    for (const kind of kinds) {
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
