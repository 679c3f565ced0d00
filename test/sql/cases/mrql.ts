// Representative MRQL queries, compiled by the engine and run through its repository (see
// ../snapshots.test.ts). The recorder answers no rows, so statements that need rows of an
// earlier one (bucket items, hydrating a random sample) run directly from statements.ts.
import type { Kysely } from 'kysely';
import type { Dialect } from '../../../src/core/db/dialect/index.js';
import type { Principal } from '../../../src/library/auth/principal.js';
import { MrqlEngine } from '../../../src/library/mrql/engine.js';
import { MrqlRepository, SavedMrqlRepository } from '../../../src/library/mrql/repository.js';
import * as statements from '../../../src/library/mrql/statements.js';
import type { RunOptions } from '../../../src/library/mrql/types.js';
import { sqlCases } from '../capture.js';

const NOW = new Date('2025-02-01T12:00:00Z');
const SETTINGS = { defaultLimit: 50, timeoutMs: 1000, similarityThreshold: 10, ahashThreshold: 5, pageQueryBudget: 20 };

/** The engine over the repository the current case set built (cases run one set at a time). */
let engine: MrqlEngine;

function build(db: Kysely<never>, dialect: Dialect): MrqlRepository {
  const repo = new MrqlRepository(db as never, dialect);
  engine = new MrqlEngine(repo, dialect, true, SETTINGS, () => NOW, 'UTC');
  return repo;
}

const run = (text: string, opts: RunOptions = {}) => () => engine.execute(text, opts);

const scoped: Principal = { userId: 2, username: 'guest', role: 'user', scopeGroupId: 9, superUser: false };

export default [
  sqlCases(
    MrqlRepository,
    [
      ['rows (scalar filter, folded sort)', run('type = resource AND fileSize > 10MB AND name ~ "sun*" ORDER BY name DESC LIMIT 20')],
      ['rows (string equality, IN, null checks)', run('type = note AND name = "Kickoff" AND noteType IN (1, 2) AND startDate IS NOT NULL')],
      ['rows (datetime relative and text match)', run('type = group AND created > -7d AND updated ~ "2025-01"')],
      ['rows (meta paths: number, bool, string, empty, sort)', run('type = resource AND meta.rating >= 3 AND meta.draft = false AND meta.camera ~ "x1" AND meta.note IS NOT EMPTY ORDER BY meta.rating DESC')],
      ['rows (meta IN and relative date)', run('type = note AND meta.priority IN ("high", "low") AND meta.due < -1w')],
      ['rows (tags by id, name, pattern, list, empty)', run('type = resource AND tags = 3 AND tags = "holiday" AND tags ~ "hol*" AND tags IN ("a", 7) AND NOT groups IS EMPTY')],
      ['rows (owner, parent chain, children, recursive)', run('type = group AND parent.name = "Projects" AND children ~ "alp" AND ancestors.name = "Studio" AND descendants.meta.tier = 1')],
      ['rows (counts)', run('type = group AND resources.count > 2 AND children.count = 0 ORDER BY resources.count DESC')],
      ['rows (regex; refused before translation on SQLite)', run('type = resource AND name ~* "^sun(rise|set)" AND description !~* "night"')],
      ['rows (full text ranked)', run('type = resource AND TEXT ~ "harbour light" ORDER BY RANK LIMIT 10')],
      ['rows (one-word full text ranked)', run('type = resource AND TEXT ~ "harbour" ORDER BY RANK LIMIT 10')],
      ['rows (one-word full text ranked, filtered)', run('type = group AND TEXT ~ "harbour" AND id > 2 ORDER BY RANK LIMIT 10')],
      ['rows (full text in OR, ranked)', run('type = note AND (TEXT ~ "launch" OR name = "Todo") ORDER BY RANK')],
      ['rows (similarity with distance)', run('type = resource AND SIMILAR TO resource(1) WITHIN 8 ORDER BY distance')],
      ['rows (context scope, page 3)', run('type = resource ORDER BY created DESC', { contextScope: 5, limit: 20, page: 3 })],
      ['rows (principal scope, groups)', run('type = group ORDER BY name', { principal: scoped })],
      ['rows (scope of a missing anchor: runs nothing)', run('type = note', { contextScope: null })],
      ['rows (scope by id)', run('type = resource SCOPE 4')],
      ['rows (scope by name)', run('type = note SCOPE "Projects"')],
      ['rows (cross-entity top n)', run('name ~ "a" ORDER BY created DESC LIMIT 5 OFFSET 5')],
      ['rows (cross-entity random)', run('name ~ "a" ORDER BY RANDOM() LIMIT 5')],
      ['rows (random order)', run('type = group ORDER BY RANDOM() LIMIT 3')],
      ['rows (GROUP BY aggregates, HAVING)', run('type = resource GROUP BY contentType COUNT() SUM(fileSize) MAX(created) HAVING COUNT() > 1 ORDER BY count DESC LIMIT 10')],
      ['rows (GROUP BY contentType COUNT() of all resources: the count table)', run('type = resource GROUP BY contentType COUNT() ORDER BY count DESC LIMIT 20')],
      ['rows (GROUP BY meta and month)', run('type = resource GROUP BY meta.camera, created.month COUNT() AVG(meta.rating) MIN(meta.rating) ORDER BY meta.camera')],
      ['rows (GROUP BY relation)', run('type = note GROUP BY owner, tags COUNT()')],
      ['rows (buckets: key discovery of an unfiltered key)', run('type = resource GROUP BY contentType LIMIT 3')],
      ['rows (buckets: key discovery)', run('type = resource GROUP BY created.week, meta.camera ORDER BY created DESC LIMIT 3', { buckets: 10 })],
      [
        'rows (buckets: items of two buckets)',
        async () => {
          const p = await engine.prepare('type = resource AND fileSize > 1000 GROUP BY contentType, created.day ORDER BY name LIMIT 3', {}, { statements: 0, rows: 0 });
          const part = [
            { k0_0: 'image/png', k1_0: '2024-03-10' },
            { k0_0: null, k1_0: '2024-03-11' },
          ];
          await engine.run(statements.bucketItems(p, engine.env(NOW, p), part, 0), { statements: 0, rows: 0 });
        },
      ],
      [
        'rows (cross-entity random: probe of drawn ids)',
        async () => {
          const p = await engine.prepare('name ~ "a" SCOPE 4 ORDER BY RANDOM() LIMIT 5', {}, { statements: 0, rows: 0 });
          await engine.run(statements.probe(p, engine.env(NOW, p), { resource: [7, 3], note: [], group: [2] }), { statements: 0, rows: 0 });
        },
      ],
      [
        'rows (nested queries of a card list: one statement)',
        async () => {
          const a = await engine.prepare('type = resource ORDER BY id', { contextScope: 2, limit: 20 }, { statements: 0, rows: 0 });
          const b = await engine.prepare('type = resource AND meta.rating > 2', { contextScope: 3, limit: 5 }, { statements: 0, rows: 0 });
          await engine.run(statements.flatBatch([a, b], 'resource', engine.env(NOW)), { statements: 0, rows: 0 });
        },
      ],
      [
        'rows (one nested query under many scopes)',
        async () => {
          const p = await engine.prepare('type = note AND tags = 3 ORDER BY created DESC', { contextScope: 2, limit: 20 }, { statements: 0, rows: 0 });
          const st = statements.flatScopes(p, [2, 3, 5], 'note', engine.env(NOW, p));
          if (st) await engine.run(st, { statements: 0, rows: 0 });
        },
      ],
      [
        'rows (one nested query under many scopes, in id order)',
        async () => {
          const p = await engine.prepare('type = resource AND meta.rating > 2', { contextScope: 2, limit: 5 }, { statements: 0, rows: 0 });
          const st = statements.flatScopes(p, [2, 3], 'resource', engine.env(NOW, p));
          if (st) await engine.run(st, { statements: 0, rows: 0 });
        },
      ],
      ['rows (hydrate sampled ids)', async () => engine.run(statements.hydrate(engine.dialect, 'note', [3, 1, 2]), { statements: 0, rows: 0 })],
      ['rows (total count)', () => engine.countTotal('tags = "red"', { contextScope: 2 })],
      ['plans (explain with the native plan)', () => engine.explain('type = resource AND meta.rating > 2 ORDER BY created DESC LIMIT 5', {}, true)],
    ],
    build,
  ),
  sqlCases(SavedMrqlRepository, [
    ['find', (r) => r.find(3)],
    ['findByName', (r) => r.findByName('by tag')],
    ['list (a page)', (r) => r.list({ limit: 50, offset: 50 })],
    ['list (all)', (r) => r.list(null)],
    ['insert', (r) => r.insert({ name: 'by tag', query: 'type = resource AND tags = $tag', description: '', created_at: '2024-06-01T12:00:00.000Z', updated_at: '2024-06-01T12:00:00.000Z', created_by_user_id: 1 })],
    ['update', (r) => r.update(3, { name: 'by tag', query: 'type = note', description: 'notes', updated_at: '2024-06-01T12:00:00.000Z' })],
    ['remove', (r) => r.remove(3)],
  ]),
];
