-- UserRepository.find
SELECT
  *
FROM
  "users"
WHERE
  "id" = $1;
-- params: [7]

-- UserRepository.findByUsername
SELECT
  *
FROM
  "users"
WHERE
  "username" = $1;
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
  $1
OFFSET
  $2;
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
  $1
OFFSET
  $2;
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
  ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
RETURNING
  *;
-- params: ["2024-06-01T12:00:00.000Z","2024-06-01T12:00:00.000Z","00000000-0000-4000-8000-000000000000","ada","Ada","$2b$10$x","user",3,false,false]

-- UserRepository.update
UPDATE "users"
SET
  "role" = $1,
  "scope_group_id" = $2,
  "disabled" = $3,
  "updated_at" = $4
WHERE
  "id" = $5;
-- params: ["editor",null,true,"2024-06-01T12:00:00.000Z",7]

-- UserRepository.remove
DELETE FROM "users"
WHERE
  "id" = $1;
-- params: [7]

-- UserRepository.countEnabledAdmins (except one)
SELECT
  count(*) AS "n"
FROM
  "users"
WHERE
  "role" = $1
  AND "disabled" = $2
  AND "id" != $3;
-- params: ["admin",false,7]

-- UserRepository.countEnabledAdmins (all)
SELECT
  count(*) AS "n"
FROM
  "users"
WHERE
  "role" = $1
  AND "disabled" = $2;
-- params: ["admin",false]

-- UserRepository.countAdminsWithKnownPassword
SELECT
  count(*) AS "n"
FROM
  "users"
WHERE
  "role" = $1
  AND "disabled" = $2
  AND "password_auto_generated" = $3;
-- params: ["admin",false,false]

-- UserRepository.oldestEnabledAdmin
SELECT
  *
FROM
  "users"
WHERE
  "role" = $1
  AND "disabled" = $2
ORDER BY
  "created_at",
  "id"
LIMIT
  $3;
-- params: ["admin",false,1]

-- UserRepository.takenUsernames
SELECT
  "username"
FROM
  "users"
WHERE
  "username" IN ($1, $2, $3);
-- params: ["root","root2","root3"]

-- UserRepository.scopeGroupExists
SELECT
  "id"
FROM
  "groups"
WHERE
  "id" = $1;
-- params: [3]

-- UserRepository.scopeGroupNames
SELECT
  "id",
  "name"
FROM
  "groups"
WHERE
  "id" IN ($1, $2);
-- params: [3,4]

-- UserRepository.clearAuthorship
UPDATE "tags"
SET
  "created_by_user_id" = $1
WHERE
  "created_by_user_id" = $2;
-- params: [null,7]

UPDATE "categories"
SET
  "created_by_user_id" = $1
WHERE
  "created_by_user_id" = $2;
-- params: [null,7]

UPDATE "resource_categories"
SET
  "created_by_user_id" = $1
WHERE
  "created_by_user_id" = $2;
-- params: [null,7]

UPDATE "note_types"
SET
  "created_by_user_id" = $1
WHERE
  "created_by_user_id" = $2;
-- params: [null,7]

UPDATE "template_partials"
SET
  "created_by_user_id" = $1
WHERE
  "created_by_user_id" = $2;
-- params: [null,7]

UPDATE "queries"
SET
  "created_by_user_id" = $1
WHERE
  "created_by_user_id" = $2;
-- params: [null,7]

UPDATE "series"
SET
  "created_by_user_id" = $1
WHERE
  "created_by_user_id" = $2;
-- params: [null,7]

UPDATE "groups"
SET
  "created_by_user_id" = $1
WHERE
  "created_by_user_id" = $2;
-- params: [null,7]

UPDATE "notes"
SET
  "created_by_user_id" = $1
WHERE
  "created_by_user_id" = $2;
-- params: [null,7]

UPDATE "resources"
SET
  "created_by_user_id" = $1
WHERE
  "created_by_user_id" = $2;
-- params: [null,7]

UPDATE "group_relation_types"
SET
  "created_by_user_id" = $1
WHERE
  "created_by_user_id" = $2;
-- params: [null,7]

UPDATE "group_relations"
SET
  "created_by_user_id" = $1
WHERE
  "created_by_user_id" = $2;
-- params: [null,7]

UPDATE "resource_versions"
SET
  "created_by_user_id" = $1
WHERE
  "created_by_user_id" = $2;
-- params: [null,7]

UPDATE "note_blocks"
SET
  "created_by_user_id" = $1
WHERE
  "created_by_user_id" = $2;
-- params: [null,7]

UPDATE "saved_mrql_queries"
SET
  "created_by_user_id" = $1
WHERE
  "created_by_user_id" = $2;
-- params: [null,7]

UPDATE "download_history_entries"
SET
  "created_by_user_id" = $1
WHERE
  "created_by_user_id" = $2;
-- params: [null,7]

-- UserSettingRepository.all
SELECT
  "key",
  "value"
FROM
  "user_settings"
WHERE
  "user_id" = $1
ORDER BY
  "key";
-- params: [7]

-- UserSettingRepository.count
SELECT
  count(*) AS "n"
FROM
  "user_settings"
WHERE
  "user_id" = $1;
-- params: [7]

-- UserSettingRepository.exists
SELECT
  "id"
FROM
  "user_settings"
WHERE
  "user_id" = $1
  AND "key" = $2;
-- params: [7,"showDescriptions"]

-- UserSettingRepository.upsert
INSERT INTO
  "user_settings" ("user_id", "key", "value", "created_at", "updated_at")
VALUES
  ($1, $2, $3, $4, $5)
ON CONFLICT ("user_id", "key") DO UPDATE
SET
  "value" = $6,
  "updated_at" = $7;
-- params: [7,"showDescriptions","true","2024-06-01T12:00:00.000Z","2024-06-01T12:00:00.000Z","true","2024-06-01T12:00:00.000Z"]

-- UserSettingRepository.remove
DELETE FROM "user_settings"
WHERE
  "user_id" = $1
  AND "key" = $2;
-- params: [7,"showDescriptions"]
