// Fuzzing the MRQL front end and translator (issue 6): random text and random valid queries
// never crash, never answer 500, and never put a supplied value into SQL text.
process.env.TZ = 'UTC';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestLibrary, type TestLibrary } from '../../helpers/library.js';
import type { MrqlEngine } from '../../../src/library/mrql/engine.js';
import { MrqlError } from '../../../src/library/mrql/errors.js';
import { parseFilter, parseQuery } from '../../../src/library/mrql/parser.js';
import { validateQuery } from '../../../src/library/mrql/validate.js';
import { complete } from '../../../src/library/mrql/complete.js';
import { loadFixture } from '../../helpers/mrql-fixture.js';

let t: TestLibrary;
let engine: MrqlEngine;
beforeAll(async () => {
  t = await startTestLibrary();
  await loadFixture(t);
  engine = t.mrql.service.engine;
});
afterAll(async () => t?.close());

const WORDS = [
  'type', '=', '!=', '<', '>=', '~', '!~', '~*', 'AND', 'OR', 'NOT', '(', ')', 'IN', 'IS', 'NULL', 'EMPTY', 'BETWEEN', 'resource', 'note', 'group',
  'name', 'tags', 'meta.rating', 'owner.parent.name', 'ancestors.name', 'children.count', 'fileSize', 'created', '"x"', '5mb', '-7d', 'NOW()',
  'TEXT', 'SIMILAR TO resource(1)', 'WITHIN', 'SCOPE', 'GROUP BY', 'ORDER BY', 'RANDOM()', 'RANK', 'LIMIT', 'OFFSET', 'COUNT()', 'SUM(fileSize)',
  'HAVING', ',', '.', '$p', '10', '"', '\\', "'", '#', ';', '--', '/*', 'é', '\u0000',
];
const soup = fc.array(fc.constantFrom(...WORDS), { maxLength: 25 }).map((w) => w.join(' '));
const text = fc.oneof(fc.string({ maxLength: 80 }), fc.string({ unit: 'grapheme', maxLength: 40 }), soup);

/** Only MRQL errors may escape the front end. */
function frontEnd(q: string): void {
  for (const step of [() => validateQuery(parseQuery(q)), () => parseFilter(q)]) {
    try {
      step();
    } catch (e) {
      if (!(e instanceof MrqlError)) throw e;
    }
  }
  complete(q, q.length);
  complete(q, Math.floor(q.length / 2), 'note');
}

describe('fuzz: random text', () => {
  it('the parser, validator and completion never throw anything but MRQL errors', () => {
    fc.assert(fc.property(text, (q) => frontEnd(q)), { numRuns: 400 });
  });

  it('random text over HTTP never answers 500', async () => {
    await fc.assert(
      fc.asyncProperty(text, async (q) => {
        for (const path of ['/v1/mrql', '/v1/mrql/validate', '/v1/mrql/complete', '/v1/mrql/explain']) {
          const r = await t.json('POST', path, { query: q, cursor: q.length });
          expect(r.status).toBeLessThan(500);
        }
        const list = await t.json('GET', `/v1/groups?mrql=${encodeURIComponent(q)}`);
        expect(list.status).toBeLessThan(500);
      }),
      { numRuns: 40 },
    );
  });
});

// A marker no fixed SQL text contains, plus characters that would break naive splicing.
const marker = fc.stringMatching(/^[a-z]{6}$/).map((s) => `zq${s}`);
const nasty = fc.tuple(marker, fc.constantFrom('', "'", '"', "'; DROP TABLE resources; --", '%', '_', '\\', ' OR 1=1')).map(([m, x]) => `${m}${x}`);
const lit = (s: string) => `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;

const FIELDS: Record<string, string[]> = {
  resource: ['name', 'description', 'contentType', 'originalName', 'hash', 'tags', 'groups', 'notes', 'owner', 'owner.name', 'owner.parent.name', 'owner.tags', 'owner.meta.region', 'ancestors.name', 'descendants.meta.k', 'meta.camera', 'meta.a.b'],
  note: ['name', 'description', 'tags', 'groups', 'resources', 'owner', 'owner.name', 'ancestors.url', 'meta.priority'],
  group: ['name', 'description', 'url', 'tags', 'parent', 'children', 'children.name', 'parent.parent.name', 'resources', 'notes', 'descendants.name', 'meta.region'],
};
const OPS = ['=', '!=', '~', '!~', '<', '>='];
const RELATION_OK = new Set(['=', '!=', '~', '!~']);

const predicate = (entity: string) =>
  fc.tuple(fc.constantFrom(...FIELDS[entity]), fc.constantFrom(...OPS), nasty).map(([f, op, v]) => {
    const relation = ['tags', 'groups', 'notes', 'resources', 'owner', 'parent', 'children', 'owner.tags'].includes(f);
    return { text: `${f} ${relation && !RELATION_OK.has(op) ? '=' : op} ${lit(v)}`, value: v };
  });

const query = fc.constantFrom('resource', 'note', 'group').chain((entity) =>
  fc
    .tuple(fc.array(predicate(entity), { minLength: 1, maxLength: 4 }), fc.array(fc.constantFrom('AND', 'OR', 'AND NOT'), { minLength: 3, maxLength: 3 }), fc.constantFrom('', 'ORDER BY name', 'ORDER BY created DESC', 'ORDER BY meta.x', 'GROUP BY tags COUNT()', 'GROUP BY name'), fc.boolean())
    .map(([preds, joins, tail, text]) => {
      let q = `type = ${entity} AND (${preds[0].text}`;
      preds.slice(1).forEach((p, i) => (q += ` ${joins[i]} ${p.text}`));
      q += ')';
      const values = preds.map((p) => p.value);
      if (text) {
        q += ` AND TEXT ~ ${lit(values[0])}`;
      }
      return { q: `${q} ${tail} LIMIT 20`, values };
    }),
);

describe('fuzz: random valid queries', () => {
  it('translate to parameterised SQL only, and execute without crashing', async () => {
    let executed = 0;
    await fc.assert(
      fc.asyncProperty(query, async ({ q, values }) => {
        let x: { statements: { sql: string; vars: unknown[] }[] };
        try {
          x = (await engine.explain(q, {}, false)) as typeof x;
        } catch (e) {
          if (e instanceof MrqlError) return; // e.g. a pattern on a field that refuses it
          throw e;
        }
        for (const s of x.statements) {
          for (const v of values) expect(s.sql.toLowerCase()).not.toContain(v.slice(0, 8).toLowerCase());
        }
        try {
          await engine.execute(q);
          executed++;
        } catch (e) {
          if (!(e instanceof MrqlError)) throw e;
          expect(e.status).toBeLessThan(500);
        }
      }),
      { numRuns: 150 },
    );
    // The generator must mostly produce valid queries, or the property proves little.
    expect(executed).toBeGreaterThan(75);
  });

  it('bound placeholder values never reach SQL text', async () => {
    await fc.assert(
      fc.asyncProperty(nasty, fc.constantFrom('name', 'tags', 'owner.name', 'meta.k', 'descendants.name'), async (v, f) => {
        const q = `type = resource AND ${f} = $v`;
        const x = (await engine.explain(q, { params: { v } }, false)) as { statements: { sql: string }[] };
        for (const s of x.statements) expect(s.sql.toLowerCase()).not.toContain(v.slice(0, 8).toLowerCase());
        const r = await t.json('POST', '/v1/mrql', { query: q, params: { v } });
        expect(r.status).toBe(200);
      }),
      { numRuns: 60 },
    );
  });
});
