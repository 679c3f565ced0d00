// Structures that keep the clip list's filters and totals fast at 100,000 clips (issue 18),
// all maintained by triggers so every writer (services, plugins, restore, fixtures loaded
// straight into the file) keeps them exact:
//
// - clip_tree: one row per (tag, clip) where the clip carries the tag or a descendant of it,
//   with n = how many such links (a clip may carry several tags of one subtree after a tag
//   move). Tag subtrees are name prefixes among existing tags, so a tag created, renamed or
//   deleted changes which clips lie under it and under its ancestors.
// - tag_stats: per tag, its direct links and its clip_tree rows, so a tag's count and the
//   total of a one-tag filter are read, not counted.
// - clip_search: a trigram index of filename and text excerpt; a search of 3 or more
//   characters reads its candidates there when they are few, and LIKE then decides exactly
//   (companion §3.5.4).
import { sql, type Kysely, type Migration } from 'kysely';

/** Tags `a` whose name is `name` or one of its ancestors (by name; any may be absent). */
const ancestorOrSelf = (name: string) =>
  `a.name BETWEEN substr(${name}, 1, instr(${name} || '/', '/') - 1) AND ${name}
   AND (a.name = ${name} OR substr(${name}, 1, length(a.name) + 1) = a.name || '/')`;

/** Tags `d` in the subtree of the tag named `name`. */
const inSubtreeOf = (name: string) => `(d.name = ${name} OR (d.name >= ${name} || '/' AND d.name < ${name} || '0'))`;

const STATEMENTS = [
  `CREATE TABLE clip_tree (
    tag_id  INTEGER NOT NULL,
    clip_id INTEGER NOT NULL,
    n       INTEGER NOT NULL,
    PRIMARY KEY (tag_id, clip_id)
  ) WITHOUT ROWID`,
  `CREATE TABLE tag_stats (
    tag_id INTEGER PRIMARY KEY,
    links  INTEGER NOT NULL DEFAULT 0,
    tree   INTEGER NOT NULL DEFAULT 0
  )`,
  `INSERT INTO clip_tree (tag_id, clip_id, n)
    SELECT a.id, ct.clip_id, COUNT(*) FROM tags a JOIN tags d ON ${inSubtreeOf('a.name')} JOIN clip_tags ct ON ct.tag_id = d.id
    GROUP BY a.id, ct.clip_id`,
  `INSERT INTO tag_stats (tag_id, links, tree)
    SELECT t.id, (SELECT COUNT(*) FROM clip_tags ct WHERE ct.tag_id = t.id), (SELECT COUNT(*) FROM clip_tree r WHERE r.tag_id = t.id) FROM tags t`,

  `CREATE TRIGGER clip_tree_ai AFTER INSERT ON clip_tree BEGIN
    INSERT INTO tag_stats (tag_id, tree) VALUES (NEW.tag_id, 1) ON CONFLICT (tag_id) DO UPDATE SET tree = tree + 1;
  END`,
  `CREATE TRIGGER clip_tree_ad AFTER DELETE ON clip_tree BEGIN
    UPDATE tag_stats SET tree = tree - 1 WHERE tag_id = OLD.tag_id;
  END`,

  `CREATE TRIGGER clip_tags_ai AFTER INSERT ON clip_tags BEGIN
    INSERT INTO tag_stats (tag_id, links) VALUES (NEW.tag_id, 1) ON CONFLICT (tag_id) DO UPDATE SET links = links + 1;
    INSERT INTO clip_tree (tag_id, clip_id, n)
      SELECT a.id, NEW.clip_id, 1 FROM tags t JOIN tags a ON ${ancestorOrSelf('t.name')} WHERE t.id = NEW.tag_id
      ON CONFLICT (tag_id, clip_id) DO UPDATE SET n = n + 1;
  END`,
  `CREATE TRIGGER clip_tags_ad AFTER DELETE ON clip_tags BEGIN
    UPDATE tag_stats SET links = links - 1 WHERE tag_id = OLD.tag_id;
    UPDATE clip_tree SET n = n - 1 WHERE clip_id = OLD.clip_id
      AND tag_id IN (SELECT a.id FROM tags t JOIN tags a ON ${ancestorOrSelf('t.name')} WHERE t.id = OLD.tag_id);
    DELETE FROM clip_tree WHERE clip_id = OLD.clip_id AND n <= 0
      AND tag_id IN (SELECT a.id FROM tags t JOIN tags a ON ${ancestorOrSelf('t.name')} WHERE t.id = OLD.tag_id);
  END`,

  // A new tag is the ancestor of whatever already lies under its name.
  `CREATE TRIGGER tags_tree_ai AFTER INSERT ON tags BEGIN
    INSERT OR IGNORE INTO tag_stats (tag_id) VALUES (NEW.id);
    INSERT INTO clip_tree (tag_id, clip_id, n)
      SELECT NEW.id, ct.clip_id, COUNT(*) FROM tags d JOIN clip_tags ct ON ct.tag_id = d.id
      WHERE ${inSubtreeOf('NEW.name')} GROUP BY ct.clip_id;
  END`,
  // A renamed tag: its own links leave the old ancestors and join the new ones, and its rows
  // are rebuilt from its new subtree. Other tags' subtrees change by this tag's links only.
  `CREATE TRIGGER tags_tree_au AFTER UPDATE OF name ON tags WHEN OLD.name <> NEW.name BEGIN
    UPDATE clip_tree SET n = n - 1
      WHERE clip_id IN (SELECT clip_id FROM clip_tags WHERE tag_id = NEW.id)
      AND tag_id IN (SELECT a.id FROM tags a WHERE a.id <> NEW.id AND ${ancestorOrSelf('OLD.name')});
    DELETE FROM clip_tree WHERE n <= 0
      AND clip_id IN (SELECT clip_id FROM clip_tags WHERE tag_id = NEW.id)
      AND tag_id IN (SELECT a.id FROM tags a WHERE a.id <> NEW.id AND ${ancestorOrSelf('OLD.name')});
    INSERT INTO clip_tree (tag_id, clip_id, n)
      SELECT a.id, ct.clip_id, 1 FROM tags a JOIN clip_tags ct ON ct.tag_id = NEW.id
      WHERE a.id <> NEW.id AND ${ancestorOrSelf('NEW.name')}
      ON CONFLICT (tag_id, clip_id) DO UPDATE SET n = n + 1;
    DELETE FROM clip_tree WHERE tag_id = NEW.id;
    INSERT INTO clip_tree (tag_id, clip_id, n)
      SELECT NEW.id, ct.clip_id, COUNT(*) FROM tags d JOIN clip_tags ct ON ct.tag_id = d.id
      WHERE ${inSubtreeOf('NEW.name')} GROUP BY ct.clip_id;
  END`,
  // Links go first, while the tag still names its ancestors (a cascade would run after).
  `CREATE TRIGGER tags_tree_bd BEFORE DELETE ON tags BEGIN
    DELETE FROM clip_tags WHERE tag_id = OLD.id;
    DELETE FROM clip_tree WHERE tag_id = OLD.id;
  END`,
  `CREATE TRIGGER tags_tree_ad AFTER DELETE ON tags BEGIN
    DELETE FROM tag_stats WHERE tag_id = OLD.id;
  END`,

  `CREATE VIRTUAL TABLE clip_search USING fts5(filename, text_content, content = 'clips', content_rowid = 'id', tokenize = 'trigram')`,
  `INSERT INTO clip_search (clip_search) VALUES ('rebuild')`,
  `CREATE TRIGGER clips_search_ai AFTER INSERT ON clips BEGIN
    INSERT INTO clip_search (rowid, filename, text_content) VALUES (NEW.id, NEW.filename, NEW.text_content);
  END`,
  `CREATE TRIGGER clips_search_ad AFTER DELETE ON clips BEGIN
    INSERT INTO clip_search (clip_search, rowid, filename, text_content) VALUES ('delete', OLD.id, OLD.filename, OLD.text_content);
  END`,
  `CREATE TRIGGER clips_search_au AFTER UPDATE OF filename, text_content ON clips BEGIN
    INSERT INTO clip_search (clip_search, rowid, filename, text_content) VALUES ('delete', OLD.id, OLD.filename, OLD.text_content);
    INSERT INTO clip_search (rowid, filename, text_content) VALUES (NEW.id, NEW.filename, NEW.text_content);
  END`,
];

export const listIndexesMigration: Migration = {
  async up(db: Kysely<unknown>) {
    for (const statement of STATEMENTS) await sql.raw(statement).execute(db);
  },
};
