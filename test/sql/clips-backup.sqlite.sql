-- Snapshot.constructor
BEGIN;
-- params: []

SELECT
  COUNT(*)
FROM
  sqlite_master;
-- params: []

-- Snapshot.columns
SELECT
  name
FROM
  pragma_table_info (?, ?);
-- params: ["clips","main"]

-- Snapshot.rows
SELECT
  "id",
  "name",
  "color",
  "created_at"
FROM
  "tags"
ORDER BY
  rowid;
-- params: []

-- Snapshot.summary
SELECT
  COUNT(*)
FROM
  main.clips;
-- params: []

SELECT
  COUNT(*)
FROM
  main.tags;
-- params: []

SELECT
  COUNT(*)
FROM
  main.plugins;
-- params: []

SELECT
  COUNT(*)
FROM
  main.watched_folders;
-- params: []

-- Snapshot.sensitiveSettings
SELECT
  KEY
FROM
  settings
ORDER BY
  KEY;
-- params: []

-- Snapshot.contents
SELECT
  content_hash AS hash,
  MIN(content_type) AS type
FROM
  clips
GROUP BY
  content_hash
ORDER BY
  content_hash;
-- params: []

-- Snapshot.pluginFiles
SELECT
  filename
FROM
  plugins
ORDER BY
  id;
-- params: []

-- Snapshot.close
-- (no statement)

-- StagingDb.columnsOf
SELECT
  name
FROM
  pragma_table_info (?, ?);
-- params: ["clips","main"]

-- StagingDb.insert
INSERT INTO
  "tags" ("id", "name", "color", "created_at")
VALUES
  (?, ?, ?, ?);
-- params: [1,"work","#78716C","2024-06-01T12:00:00.000Z"]

-- StagingDb.clipsAfter
SELECT
  id,
  content_hash,
  content_type,
  size
FROM
  clips
WHERE
  id > ?
ORDER BY
  id
LIMIT
  ?;
-- params: [40,1000]

-- StagingDb.needsContent
SELECT
  1
FROM
  clips
WHERE
  content_hash = ?
LIMIT
  1;
-- params: ["b94d27b9934d3e08a52e52d7da7dabfac484efe37a5380ee9088f7ace2efcde9"]

-- StagingDb.setContent
UPDATE clips
SET
  content_hash = ?,
  size = ?,
  text_content = ?
WHERE
  id = ?;
-- params: ["b94d27b9934d3e08a52e52d7da7dabfac484efe37a5380ee9088f7ace2efcde9",11,"hello world",5]

-- StagingDb.danglingReferences
PRAGMA foreign_key_check;
-- params: []

-- StagingDb.summary
SELECT
  COUNT(*)
FROM
  main.clips;
-- params: []

SELECT
  COUNT(*)
FROM
  main.tags;
-- params: []

SELECT
  COUNT(*)
FROM
  main.plugins;
-- params: []

SELECT
  COUNT(*)
FROM
  main.watched_folders;
-- params: []

-- StagingDb.finish
-- (no statement)

-- StagingDb.close
-- (no statement)

-- LiveRestore.swapInStaged
ATTACH DATABASE ? AS restore;
-- params: ["/tmp/staging.db"]

PRAGMA foreign_keys = OFF;
-- params: []

BEGIN IMMEDIATE;
-- params: []

SELECT
  k.id,
  k.scoped_tag_id,
  t.name AS tag_name
FROM
  api_keys k
  LEFT JOIN tags t ON t.id = k.scoped_tag_id
WHERE
  k.scoped_tag_id IS NOT NULL;
-- params: []

SELECT
  KEY,
  value
FROM
  settings;
-- params: []

DELETE FROM main."plugin_permissions";
-- params: []

DELETE FROM main."plugin_storage";
-- params: []

DELETE FROM main."plugins";
-- params: []

DELETE FROM main."watched_folders";
-- params: []

DELETE FROM main."settings";
-- params: []

DELETE FROM main."clip_metadata";
-- params: []

DELETE FROM main."clip_tags";
-- params: []

DELETE FROM main."clips";
-- params: []

DELETE FROM main."tags";
-- params: []

SELECT
  name
FROM
  pragma_table_info (?, ?);
-- params: ["tags","restore"]

SELECT
  name
FROM
  pragma_table_info (?, ?);
-- params: ["tags","main"]

SELECT
  name
FROM
  pragma_table_info (?, ?);
-- params: ["tags","main"]

INSERT INTO
  main."tags" ("id", "name")
SELECT
  "id",
  "name"
FROM
  restore."tags";
-- params: []

SELECT
  name
FROM
  pragma_table_info (?, ?);
-- params: ["clips","restore"]

SELECT
  name
FROM
  pragma_table_info (?, ?);
-- params: ["clips","main"]

SELECT
  name
FROM
  pragma_table_info (?, ?);
-- params: ["clips","main"]

INSERT INTO
  main."clips" ("id", "name")
SELECT
  "id",
  "name"
FROM
  restore."clips";
-- params: []

SELECT
  name
FROM
  pragma_table_info (?, ?);
-- params: ["clip_tags","restore"]

SELECT
  name
FROM
  pragma_table_info (?, ?);
-- params: ["clip_tags","main"]

SELECT
  name
FROM
  pragma_table_info (?, ?);
-- params: ["clip_tags","main"]

INSERT INTO
  main."clip_tags" ("id", "name")
SELECT
  "id",
  "name"
FROM
  restore."clip_tags";
-- params: []

SELECT
  name
FROM
  pragma_table_info (?, ?);
-- params: ["clip_metadata","restore"]

SELECT
  name
FROM
  pragma_table_info (?, ?);
-- params: ["clip_metadata","main"]

SELECT
  name
FROM
  pragma_table_info (?, ?);
-- params: ["clip_metadata","main"]

INSERT INTO
  main."clip_metadata" ("id", "name")
SELECT
  "id",
  "name"
FROM
  restore."clip_metadata";
-- params: []

SELECT
  name
FROM
  pragma_table_info (?, ?);
-- params: ["settings","restore"]

SELECT
  name
FROM
  pragma_table_info (?, ?);
-- params: ["settings","main"]

SELECT
  name
FROM
  pragma_table_info (?, ?);
-- params: ["settings","main"]

INSERT INTO
  main."settings" ("id", "name")
SELECT
  "id",
  "name"
FROM
  restore."settings";
-- params: []

SELECT
  name
FROM
  pragma_table_info (?, ?);
-- params: ["watched_folders","restore"]

SELECT
  name
FROM
  pragma_table_info (?, ?);
-- params: ["watched_folders","main"]

SELECT
  name
FROM
  pragma_table_info (?, ?);
-- params: ["watched_folders","main"]

INSERT INTO
  main."watched_folders" ("id", "name")
SELECT
  "id",
  "name"
FROM
  restore."watched_folders";
-- params: []

SELECT
  name
FROM
  pragma_table_info (?, ?);
-- params: ["plugins","restore"]

SELECT
  name
FROM
  pragma_table_info (?, ?);
-- params: ["plugins","main"]

SELECT
  name
FROM
  pragma_table_info (?, ?);
-- params: ["plugins","main"]

INSERT INTO
  main."plugins" ("id", "name")
SELECT
  "id",
  "name"
FROM
  restore."plugins";
-- params: []

SELECT
  name
FROM
  pragma_table_info (?, ?);
-- params: ["plugin_storage","restore"]

SELECT
  name
FROM
  pragma_table_info (?, ?);
-- params: ["plugin_storage","main"]

SELECT
  name
FROM
  pragma_table_info (?, ?);
-- params: ["plugin_storage","main"]

INSERT INTO
  main."plugin_storage" ("id", "name")
SELECT
  "id",
  "name"
FROM
  restore."plugin_storage";
-- params: []

SELECT
  name
FROM
  pragma_table_info (?, ?);
-- params: ["plugin_permissions","restore"]

SELECT
  name
FROM
  pragma_table_info (?, ?);
-- params: ["plugin_permissions","main"]

SELECT
  name
FROM
  pragma_table_info (?, ?);
-- params: ["plugin_permissions","main"]

INSERT INTO
  main."plugin_permissions" ("id", "name")
SELECT
  "id",
  "name"
FROM
  restore."plugin_permissions";
-- params: []

UPDATE plugin_permissions
SET
  pending_reconfirm = 1;
-- params: []

UPDATE watched_folders
SET
  is_paused = 1;
-- params: []

INSERT OR IGNORE INTO
  settings (KEY, value)
VALUES
  ('global_watch_paused', 'false');
-- params: []

PRAGMA main.foreign_key_check;
-- params: []

COMMIT;
-- params: []

PRAGMA foreign_keys = ON;
-- params: []

DETACH DATABASE restore;
-- params: []
