import { describe, expect, it } from 'vitest';
import { decimalText, insertStatement, NotABackupStatement, parseInsert, sqlLiteral, StatementSplitter, StatementTooLarge } from './sql-text.js';

describe('backup SQL text', () => {
  it('writes every literal of the dialect', () => {
    expect([null, 42, -7, 2n ** 62n, 0.5, 1e-7, 1.5e25, "it's", Buffer.from([0, 255])].map(sqlLiteral)).toEqual([
      'NULL', '42', '-7', '4611686018427387904', '0.5', '0.0000001', '15000000000000000000000000', "'it''s'", "X'00FF'",
    ]);
    expect(decimalText(-1.25e-3)).toBe('-0.00125');
    expect(insertStatement('tags', ['id', 'name'], [1, 'a;b'])).toBe("INSERT INTO tags (id, name) VALUES (1, 'a;b');\n");
  });

  it('reads back what it writes, with quotes, newlines, semicolons and comment marks inside strings', () => {
    const values = [1, "line one\nline 'two'; -- not a comment", null, Buffer.from('bytes'), 2n ** 60n, -3.25, ''];
    const sql = insertStatement('clips', ['a', 'b', 'c', 'd', 'e', 'f', 'g'], values);
    const split = new StatementSplitter(1 << 20).feed(`-- header\n\n${sql}`, true);
    expect(split).toHaveLength(1);
    expect(split[0].line).toBe(3);
    expect(parseInsert(split[0].sql)).toEqual({ table: 'clips', columns: ['a', 'b', 'c', 'd', 'e', 'f', 'g'], values: [1, values[1], null, Buffer.from('bytes'), 2n ** 60n, -3.25, ''] });
  });

  it('splits statements across chunk boundaries anywhere', () => {
    const text = "-- c\nINSERT INTO t (a) VALUES ('x;y');\nINSERT INTO t (a) VALUES (-1);\n-- end\n";
    for (let cut = 0; cut <= text.length; cut++) {
      const s = new StatementSplitter(1000);
      const got = [...s.feed(text.slice(0, cut)), ...s.feed(text.slice(cut), true)];
      expect(got.map((g) => [g.line, parseInsert(g.sql)?.values[0]]), `cut at ${cut}`).toEqual([[2, 'x;y'], [3, -1]]);
    }
  });

  it('refuses everything else with the line it starts on', () => {
    for (const bad of ['DROP TABLE clips', 'INSERT INTO t (a) VALUES (1), (2)', 'INSERT INTO t (a, b) VALUES (1)', 'INSERT INTO t (a) SELECT 1', "INSERT INTO t (a) VALUES (X'0')", 'INSERT INTO t (a) VALUES (1) ; x', "INSERT INTO t (a) VALUES (abs(1))", 'INSERT INTO t (a) VALUES (1e5)']) {
      const statements = new StatementSplitter(1000).feed(`${bad};`, true);
      expect(statements.every((st) => parseInsert(st.sql) !== null), bad).toBe(false);
    }
    expect(() => new StatementSplitter(1000).feed("\n\nINSERT INTO t (a) VALUES ('open", true)).toThrow(new NotABackupStatement(3));
    expect(() => new StatementSplitter(1000).feed('INSERT INTO t (a) VALUES (1)', true)).toThrow(NotABackupStatement);
    expect(() => new StatementSplitter(10).feed("INSERT INTO t (a) VALUES ('0123456789')")).toThrow(StatementTooLarge);
  });
});
