// /mrql/syntax: a short reference of MRQL with examples that open in the editor (issue 16).
// The full grammar is in docs/mrql.md; this page is what a person needs at the keyboard.
import type { FastifyInstance } from 'fastify';
import { h } from '../../core/html/jsx.js';
import { registerPage, type Layout } from '../../core/http/pages.js';

const EXAMPLES: [string, string][] = [
  ['type = resource AND tags = "holiday"', 'Resources tagged holiday'],
  ['type = note AND created > -7d ORDER BY created DESC', 'Notes of the last week, newest first'],
  ['type = resource AND contentType ~ "image/*" AND fileSize > 5mb', 'Images over 5 MB'],
  ['type = group AND name ~ "garden*"', 'Groups whose name starts with garden'],
  ['type = resource AND owner = "Home"', 'Resources owned by the group Home'],
  ['TEXT ~ "invoice"', 'Anything whose text mentions invoice'],
  ['type = resource AND meta.camera = "X100"', 'A value inside the metadata'],
  ['type = resource GROUP BY contentType COUNT() SUM(fileSize)', 'How much of each file type'],
  ['type = note AND tags IN ("work", "home") LIMIT 20', 'Notes with either tag, at most 20'],
  ['type = resource AND created BETWEEN "2024-01-01" AND "2024-12-31"', 'Resources created in 2024'],
];

const ROWS: [string, string][] = [
  ['type = resource | note | group', 'which kind of entity to list; without it, every kind is searched'],
  ['=  !=  <  <=  >  >=', 'compare a field with a value'],
  ['~  !~', 'pattern match: * any text, ? one character'],
  ['IN (a, b)  NOT IN (…)', 'one of several values'],
  ['BETWEEN a AND b', 'a range, both ends included'],
  ['IS EMPTY  IS NULL  (and NOT forms)', 'a field without a value (or with one)'],
  ['AND  OR  NOT  ( )', 'combine conditions; AND binds tighter than OR'],
  ['-7d  -3m  NOW()  START_OF_MONTH()', 'relative dates and date functions'],
  ['10kb  5mb  1gb', 'sizes'],
  ['$name', 'a placeholder: the page asks for its value before running'],
  ['ORDER BY field [ASC|DESC], …', 'sort; RANDOM() shuffles'],
  ['LIMIT n  OFFSET n', 'page through results'],
  ['GROUP BY field COUNT() SUM(f) AVG(f) MIN(f) MAX(f)', 'aggregate instead of listing'],
  ['SCOPE "Group name"', 'only what lies under a group'],
];

const FIELDS = 'id, name, description, created, updated, tags, guid, meta.<key>; resources add contentType, fileSize, width, height, originalName, originalLocation, hash, owner, groups, notes, category; notes add owner, groups, resources, noteType, startDate, endDate, shared; groups add owner, parent, children, category, url, resources, notes.';

export function registerMrqlSyntaxPage(app: FastifyInstance, layout: Layout): void {
  registerPage(app, layout, {
    path: '/mrql/syntax',
    needs: 'read',
    load: async () => ({
      pageTitle: 'MRQL syntax',
      examples: EXAMPLES.map(([query, meaning]) => ({ query, meaning })),
      _layout: { actions: <a class="button" href="/mrql">Open the editor</a> },
    }),
    view: (ctx) => (
      <div class="mrql-syntax">
        <section class="card">
          <h2>How a query reads</h2>
          <p>A query is a condition on fields, optionally followed by ORDER BY, LIMIT or GROUP BY. Words are case-insensitive; text values go in double quotes.</p>
          <table class="list">
            <tbody>
              {ROWS.map(([syntax, meaning]) => (
                <tr>
                  <td>
                    <code>{syntax}</code>
                  </td>
                  <td>{meaning}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <p>
            <strong>Fields:</strong> {FIELDS}
          </p>
        </section>
        <section class="card">
          <h2>Examples</h2>
          <ul class="mrql-examples">
            {ctx.examples.map((e) => (
              <li>
                <a href={`/mrql?q=${encodeURIComponent(e.query)}`}>
                  <code>{e.query}</code>
                </a>{' '}
                <span class="hint">— {e.meaning}</span>
              </li>
            ))}
          </ul>
        </section>
      </div>
    ),
  });
}
