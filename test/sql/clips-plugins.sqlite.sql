-- PluginRepository.list
SELECT
  *
FROM
  "plugins"
ORDER BY
  "name",
  "id";
-- params: []

-- PluginRepository.find
SELECT
  *
FROM
  "plugins"
WHERE
  "id" = ?;
-- params: [4]

-- PluginRepository.findByFilename
SELECT
  *
FROM
  "plugins"
WHERE
  "filename" = ?;
-- params: ["hello.lua"]

-- PluginRepository.insert
INSERT INTO
  "plugins" (
    "filename",
    "name",
    "version",
    "source_url",
    "enabled",
    "status",
    "error_count",
    "created_at",
    "updated_at"
  )
VALUES
  (?, ?, ?, ?, ?, ?, ?, ?, ?)
RETURNING
  "id";
-- params: ["hello.lua","hello","1.0.0","https://example.org/hello.lua",1,"loaded",0,"2024-06-01T12:00:00.000Z","2024-06-01T12:00:00.000Z"]

-- PluginRepository.replace
UPDATE "plugins"
SET
  "name" = ?,
  "version" = ?,
  "source_url" = ?,
  "enabled" = ?,
  "status" = ?,
  "error_count" = ?,
  "last_error" = ?,
  "updated_at" = ?
WHERE
  "id" = ?;
-- params: ["hello","1.1.0","https://example.org/hello.lua",1,"loaded",0,null,"2024-06-01T12:00:00.000Z",4]

-- PluginRepository.replace (source kept)
UPDATE "plugins"
SET
  "name" = ?,
  "version" = ?,
  "enabled" = ?,
  "status" = ?,
  "error_count" = ?,
  "last_error" = ?,
  "updated_at" = ?
WHERE
  "id" = ?;
-- params: ["hello","1.1.0",1,"loaded",0,null,"2024-06-01T12:00:00.000Z",4]

-- PluginRepository.setState
UPDATE "plugins"
SET
  "enabled" = ?,
  "status" = ?,
  "error_count" = ?,
  "last_error" = ?,
  "updated_at" = ?
WHERE
  "id" = ?;
-- params: [0,"error",3,"boom","2024-06-01T12:00:00.000Z",4]

-- PluginRepository.setState (counts kept)
UPDATE "plugins"
SET
  "enabled" = ?,
  "status" = ?,
  "updated_at" = ?
WHERE
  "id" = ?;
-- params: [1,"loaded","2024-06-01T12:00:00.000Z",4]

-- PluginRepository.setErrors
UPDATE "plugins"
SET
  "error_count" = ?,
  "last_error" = ?
WHERE
  "id" = ?;
-- params: [2,"timeout",4]

-- PluginRepository.setErrors (last error kept)
UPDATE "plugins"
SET
  "error_count" = ?
WHERE
  "id" = ?;
-- params: [0,4]

-- PluginRepository.delete
DELETE FROM "plugins"
WHERE
  "id" = ?;
-- params: [4]

-- PluginRepository.storageAll
SELECT
  "key",
  "value"
FROM
  "plugin_storage"
WHERE
  "plugin_id" = ?
ORDER BY
  "key";
-- params: [4]

-- PluginRepository.storageKeys
SELECT
  "key"
FROM
  "plugin_storage"
WHERE
  "plugin_id" = ?
ORDER BY
  "key";
-- params: [4]

-- PluginRepository.storageGet
SELECT
  "value"
FROM
  "plugin_storage"
WHERE
  "plugin_id" = ?
  AND "key" = ?;
-- params: [4,"counter"]

-- PluginRepository.storageSize
SELECT
  COALESCE(SUM(length(value)), 0) AS "n"
FROM
  "plugin_storage"
WHERE
  "plugin_id" = ?
  AND "key" <> ?;
-- params: [4,"counter"]

-- PluginRepository.storagePut
INSERT INTO
  "plugin_storage" ("plugin_id", "key", "value")
VALUES
  (?, ?, ?)
ON CONFLICT ("plugin_id", "key") DO UPDATE
SET
  "value" = ?;
-- params: [4,"counter","7","7"]

-- PluginRepository.storageDelete
DELETE FROM "plugin_storage"
WHERE
  "plugin_id" = ?
  AND "key" = ?;
-- params: [4,"counter"]

-- PluginRepository.effectiveGrants
SELECT
  "permission_type",
  "path"
FROM
  "plugin_permissions"
WHERE
  "plugin_id" = ?
  AND "pending_reconfirm" = ?;
-- params: [4,0]

-- PluginRepository.addGrant
INSERT INTO
  "plugin_permissions" ("plugin_id", "permission_type", "path", "granted_at", "pending_reconfirm")
VALUES
  (?, ?, ?, ?, ?);
-- params: [4,"fs_read","/home/me/notes","2024-06-01T12:00:00.000Z",0]
