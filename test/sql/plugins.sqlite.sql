-- PluginStateRepository.all
SELECT
  *
FROM
  "plugin_states"
ORDER BY
  "id";
-- params: []

-- PluginStateRepository.find
SELECT
  *
FROM
  "plugin_states"
WHERE
  "plugin_name" = ?;
-- params: ["echo-api"]

-- PluginStateRepository.ensure
INSERT INTO
  "plugin_states" ("plugin_name", "created_at", "updated_at")
VALUES
  (?, ?, ?)
ON CONFLICT ("plugin_name") DO NOTHING;
-- params: ["echo-api","2024-06-01T12:00:00.000Z","2024-06-01T12:00:00.000Z"]

-- PluginStateRepository.setEnabled
INSERT INTO
  "plugin_states" ("plugin_name", "created_at", "updated_at")
VALUES
  (?, ?, ?)
ON CONFLICT ("plugin_name") DO NOTHING;
-- params: ["echo-api","2024-06-01T12:00:00.000Z","2024-06-01T12:00:00.000Z"]

UPDATE "plugin_states"
SET
  "enabled" = ?,
  "updated_at" = ?
WHERE
  "plugin_name" = ?;
-- params: [1,"2024-06-01T12:00:00.000Z","echo-api"]

-- PluginStateRepository.setSettings
INSERT INTO
  "plugin_states" ("plugin_name", "created_at", "updated_at")
VALUES
  (?, ?, ?)
ON CONFLICT ("plugin_name") DO NOTHING;
-- params: ["echo-api","2024-06-01T12:00:00.000Z","2024-06-01T12:00:00.000Z"]

UPDATE "plugin_states"
SET
  "settings_json" = ?,
  "updated_at" = ?
WHERE
  "plugin_name" = ?;
-- params: ["{\"token\":\"k\"}","2024-06-01T12:00:00.000Z","echo-api"]

-- PluginStateRepository.setGrants
INSERT INTO
  "plugin_states" ("plugin_name", "created_at", "updated_at")
VALUES
  (?, ?, ?)
ON CONFLICT ("plugin_name") DO NOTHING;
-- params: ["echo-api","2024-06-01T12:00:00.000Z","2024-06-01T12:00:00.000Z"]

UPDATE "plugin_states"
SET
  "grants_json" = ?,
  "updated_at" = ?
WHERE
  "plugin_name" = ?;
-- params: ["{\"legacy\":true}","2024-06-01T12:00:00.000Z","echo-api"]

-- PluginStateRepository.setScopedAccess
INSERT INTO
  "plugin_states" ("plugin_name", "created_at", "updated_at")
VALUES
  (?, ?, ?)
ON CONFLICT ("plugin_name") DO NOTHING;
-- params: ["echo-api","2024-06-01T12:00:00.000Z","2024-06-01T12:00:00.000Z"]

UPDATE "plugin_states"
SET
  "allow_scoped_principals" = ?,
  "updated_at" = ?
WHERE
  "plugin_name" = ?;
-- params: [1,"2024-06-01T12:00:00.000Z","echo-api"]

-- PluginKvRepository.get
SELECT
  "value"
FROM
  "plugin_kvs"
WHERE
  "plugin_name" = ?
  AND "key" = ?;
-- params: ["kv-fixture","greeting"]

-- PluginKvRepository.set
INSERT INTO
  "plugin_kvs" ("plugin_name", "key", "value", "created_at", "updated_at")
VALUES
  (?, ?, ?, ?, ?)
ON CONFLICT ("plugin_name", "key") DO UPDATE
SET
  "value" = ?,
  "updated_at" = ?;
-- params: ["kv-fixture","greeting","\"hello\"","2024-06-01T12:00:00.000Z","2024-06-01T12:00:00.000Z","\"hello\"","2024-06-01T12:00:00.000Z"]

-- PluginKvRepository.insertIfAbsent
INSERT INTO
  "plugin_kvs" ("plugin_name", "key", "value", "created_at", "updated_at")
VALUES
  (?, ?, ?, ?, ?)
ON CONFLICT ("plugin_name", "key") DO NOTHING;
-- params: ["kv-fixture","c","1","2024-06-01T12:00:00.000Z","2024-06-01T12:00:00.000Z"]

-- PluginKvRepository.replaceIf
UPDATE "plugin_kvs"
SET
  "value" = ?,
  "updated_at" = ?
WHERE
  "plugin_name" = ?
  AND "key" = ?
  AND "value" = ?;
-- params: ["2","2024-06-01T12:00:00.000Z","kv-fixture","c","1"]

-- PluginKvRepository.delete
DELETE FROM "plugin_kvs"
WHERE
  "plugin_name" = ?
  AND "key" = ?;
-- params: ["kv-fixture","greeting"]

-- PluginKvRepository.keys
SELECT
  "key"
FROM
  "plugin_kvs"
WHERE
  "plugin_name" = ?;
-- params: ["kv-fixture"]

-- PluginKvRepository.purge
DELETE FROM "plugin_kvs"
WHERE
  "plugin_name" = ?;
-- params: ["kv-fixture"]
