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
  "plugin_name" = $1;
-- params: ["echo-api"]

-- PluginStateRepository.ensure
INSERT INTO
  "plugin_states" ("plugin_name", "created_at", "updated_at")
VALUES
  ($1, $2, $3)
ON CONFLICT ("plugin_name") DO NOTHING;
-- params: ["echo-api","2024-06-01T12:00:00.000Z","2024-06-01T12:00:00.000Z"]

-- PluginStateRepository.setEnabled
INSERT INTO
  "plugin_states" ("plugin_name", "created_at", "updated_at")
VALUES
  ($1, $2, $3)
ON CONFLICT ("plugin_name") DO NOTHING;
-- params: ["echo-api","2024-06-01T12:00:00.000Z","2024-06-01T12:00:00.000Z"]

UPDATE "plugin_states"
SET
  "enabled" = $1,
  "updated_at" = $2
WHERE
  "plugin_name" = $3;
-- params: [true,"2024-06-01T12:00:00.000Z","echo-api"]

-- PluginStateRepository.setSettings
INSERT INTO
  "plugin_states" ("plugin_name", "created_at", "updated_at")
VALUES
  ($1, $2, $3)
ON CONFLICT ("plugin_name") DO NOTHING;
-- params: ["echo-api","2024-06-01T12:00:00.000Z","2024-06-01T12:00:00.000Z"]

UPDATE "plugin_states"
SET
  "settings_json" = $1,
  "updated_at" = $2
WHERE
  "plugin_name" = $3;
-- params: ["{\"token\":\"k\"}","2024-06-01T12:00:00.000Z","echo-api"]

-- PluginStateRepository.setGrants
INSERT INTO
  "plugin_states" ("plugin_name", "created_at", "updated_at")
VALUES
  ($1, $2, $3)
ON CONFLICT ("plugin_name") DO NOTHING;
-- params: ["echo-api","2024-06-01T12:00:00.000Z","2024-06-01T12:00:00.000Z"]

UPDATE "plugin_states"
SET
  "grants_json" = $1,
  "updated_at" = $2
WHERE
  "plugin_name" = $3;
-- params: ["{\"legacy\":true}","2024-06-01T12:00:00.000Z","echo-api"]

-- PluginStateRepository.setScopedAccess
INSERT INTO
  "plugin_states" ("plugin_name", "created_at", "updated_at")
VALUES
  ($1, $2, $3)
ON CONFLICT ("plugin_name") DO NOTHING;
-- params: ["echo-api","2024-06-01T12:00:00.000Z","2024-06-01T12:00:00.000Z"]

UPDATE "plugin_states"
SET
  "allow_scoped_principals" = $1,
  "updated_at" = $2
WHERE
  "plugin_name" = $3;
-- params: [true,"2024-06-01T12:00:00.000Z","echo-api"]

-- PluginKvRepository.get
SELECT
  "value"
FROM
  "plugin_kvs"
WHERE
  "plugin_name" = $1
  AND "key" = $2;
-- params: ["kv-fixture","greeting"]

-- PluginKvRepository.set
INSERT INTO
  "plugin_kvs" ("plugin_name", "key", "value", "created_at", "updated_at")
VALUES
  ($1, $2, $3, $4, $5)
ON CONFLICT ("plugin_name", "key") DO UPDATE
SET
  "value" = $6,
  "updated_at" = $7;
-- params: ["kv-fixture","greeting","\"hello\"","2024-06-01T12:00:00.000Z","2024-06-01T12:00:00.000Z","\"hello\"","2024-06-01T12:00:00.000Z"]

-- PluginKvRepository.insertIfAbsent
INSERT INTO
  "plugin_kvs" ("plugin_name", "key", "value", "created_at", "updated_at")
VALUES
  ($1, $2, $3, $4, $5)
ON CONFLICT ("plugin_name", "key") DO NOTHING;
-- params: ["kv-fixture","c","1","2024-06-01T12:00:00.000Z","2024-06-01T12:00:00.000Z"]

-- PluginKvRepository.replaceIf
UPDATE "plugin_kvs"
SET
  "value" = $1,
  "updated_at" = $2
WHERE
  "plugin_name" = $3
  AND "key" = $4
  AND "value" = $5;
-- params: ["2","2024-06-01T12:00:00.000Z","kv-fixture","c","1"]

-- PluginKvRepository.delete
DELETE FROM "plugin_kvs"
WHERE
  "plugin_name" = $1
  AND "key" = $2;
-- params: ["kv-fixture","greeting"]

-- PluginKvRepository.keys
SELECT
  "key"
FROM
  "plugin_kvs"
WHERE
  "plugin_name" = $1;
-- params: ["kv-fixture"]

-- PluginKvRepository.purge
DELETE FROM "plugin_kvs"
WHERE
  "plugin_name" = $1;
-- params: ["kv-fixture"]
