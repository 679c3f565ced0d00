-- UserRepository.find
SELECT
  *
FROM
  "users"
WHERE
  "id" = ?;
-- params: [7]

-- UserRepository.findByUsername
SELECT
  *
FROM
  "users"
WHERE
  "username" = ?;
-- params: ["ada"]

-- UserRepository.list (a page)
SELECT
  *
FROM
  "users"
ORDER BY
  "username",
  "id"
LIMIT
  ?
OFFSET
  ?;
-- params: [50,50]

-- UserRepository.list (limit 0: all)
SELECT
  *
FROM
  "users"
ORDER BY
  "username",
  "id"
LIMIT
  ?
OFFSET
  ?;
-- params: [9007199254740991,0]

-- UserRepository.insert
INSERT INTO
  "users" (
    "created_at",
    "updated_at",
    "guid",
    "username",
    "display_name",
    "password_hash",
    "role",
    "scope_group_id",
    "disabled",
    "password_auto_generated"
  )
VALUES
  (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
RETURNING
  *;
-- params: ["2024-06-01T12:00:00.000Z","2024-06-01T12:00:00.000Z","00000000-0000-4000-8000-000000000000","ada","Ada","$2b$10$x","user",3,0,0]

-- UserRepository.update
UPDATE "users"
SET
  "role" = ?,
  "scope_group_id" = ?,
  "disabled" = ?,
  "updated_at" = ?
WHERE
  "id" = ?;
-- params: ["editor",null,1,"2024-06-01T12:00:00.000Z",7]

-- UserRepository.remove
DELETE FROM "users"
WHERE
  "id" = ?;
-- params: [7]

-- UserRepository.countEnabledAdmins (except one)
SELECT
  count(*) AS "n"
FROM
  "users"
WHERE
  "role" = ?
  AND "disabled" = ?
  AND "id" != ?;
-- params: ["admin",0,7]

-- UserRepository.countEnabledAdmins (all)
SELECT
  count(*) AS "n"
FROM
  "users"
WHERE
  "role" = ?
  AND "disabled" = ?;
-- params: ["admin",0]

-- UserRepository.countAdminsWithKnownPassword
SELECT
  count(*) AS "n"
FROM
  "users"
WHERE
  "role" = ?
  AND "disabled" = ?
  AND "password_auto_generated" = ?;
-- params: ["admin",0,0]

-- UserRepository.oldestEnabledAdmin
SELECT
  *
FROM
  "users"
WHERE
  "role" = ?
  AND "disabled" = ?
ORDER BY
  "created_at",
  "id"
LIMIT
  ?;
-- params: ["admin",0,1]

-- UserRepository.takenUsernames
SELECT
  "username"
FROM
  "users"
WHERE
  "username" IN (?, ?, ?);
-- params: ["root","root2","root3"]

-- UserRepository.scopeGroupExists
SELECT
  "id"
FROM
  "groups"
WHERE
  "id" = ?;
-- params: [3]

-- UserRepository.scopeGroupNames
SELECT
  "id",
  "name"
FROM
  "groups"
WHERE
  "id" IN (?, ?);
-- params: [3,4]

-- UserRepository.clearAuthorship
UPDATE "tags"
SET
  "created_by_user_id" = ?
WHERE
  "created_by_user_id" = ?;
-- params: [null,7]

UPDATE "categories"
SET
  "created_by_user_id" = ?
WHERE
  "created_by_user_id" = ?;
-- params: [null,7]

UPDATE "resource_categories"
SET
  "created_by_user_id" = ?
WHERE
  "created_by_user_id" = ?;
-- params: [null,7]

UPDATE "note_types"
SET
  "created_by_user_id" = ?
WHERE
  "created_by_user_id" = ?;
-- params: [null,7]

UPDATE "template_partials"
SET
  "created_by_user_id" = ?
WHERE
  "created_by_user_id" = ?;
-- params: [null,7]

UPDATE "queries"
SET
  "created_by_user_id" = ?
WHERE
  "created_by_user_id" = ?;
-- params: [null,7]

UPDATE "series"
SET
  "created_by_user_id" = ?
WHERE
  "created_by_user_id" = ?;
-- params: [null,7]

UPDATE "groups"
SET
  "created_by_user_id" = ?
WHERE
  "created_by_user_id" = ?;
-- params: [null,7]

UPDATE "notes"
SET
  "created_by_user_id" = ?
WHERE
  "created_by_user_id" = ?;
-- params: [null,7]

UPDATE "resources"
SET
  "created_by_user_id" = ?
WHERE
  "created_by_user_id" = ?;
-- params: [null,7]

UPDATE "group_relation_types"
SET
  "created_by_user_id" = ?
WHERE
  "created_by_user_id" = ?;
-- params: [null,7]

UPDATE "group_relations"
SET
  "created_by_user_id" = ?
WHERE
  "created_by_user_id" = ?;
-- params: [null,7]

UPDATE "resource_versions"
SET
  "created_by_user_id" = ?
WHERE
  "created_by_user_id" = ?;
-- params: [null,7]

UPDATE "note_blocks"
SET
  "created_by_user_id" = ?
WHERE
  "created_by_user_id" = ?;
-- params: [null,7]

UPDATE "saved_mrql_queries"
SET
  "created_by_user_id" = ?
WHERE
  "created_by_user_id" = ?;
-- params: [null,7]

UPDATE "download_history_entries"
SET
  "created_by_user_id" = ?
WHERE
  "created_by_user_id" = ?;
-- params: [null,7]

-- UserSettingRepository.all
SELECT
  "key",
  "value"
FROM
  "user_settings"
WHERE
  "user_id" = ?
ORDER BY
  "key";
-- params: [7]

-- UserSettingRepository.count
SELECT
  count(*) AS "n"
FROM
  "user_settings"
WHERE
  "user_id" = ?;
-- params: [7]

-- UserSettingRepository.exists
SELECT
  "id"
FROM
  "user_settings"
WHERE
  "user_id" = ?
  AND "key" = ?;
-- params: [7,"showDescriptions"]

-- UserSettingRepository.upsert
INSERT INTO
  "user_settings" ("user_id", "key", "value", "created_at", "updated_at")
VALUES
  (?, ?, ?, ?, ?)
ON CONFLICT ("user_id", "key") DO UPDATE
SET
  "value" = ?,
  "updated_at" = ?;
-- params: [7,"showDescriptions","true","2024-06-01T12:00:00.000Z","2024-06-01T12:00:00.000Z","true","2024-06-01T12:00:00.000Z"]

-- UserSettingRepository.remove
DELETE FROM "user_settings"
WHERE
  "user_id" = ?
  AND "key" = ?;
-- params: [7,"showDescriptions"]
