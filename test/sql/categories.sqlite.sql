-- CarrierRepository.find
SELECT
  *
FROM
  "categories"
WHERE
  "categories"."id" = ?;
-- params: [7]

-- CarrierRepository.findByName
SELECT
  *
FROM
  "categories"
WHERE
  "name" = ?
ORDER BY
  "id";
-- params: ["Person"]

-- CarrierRepository.findMany
SELECT
  *
FROM
  "categories"
WHERE
  "categories"."id" IN (?, ?)
ORDER BY
  "categories"."id";
-- params: [1,2]

-- CarrierRepository.page
SELECT
  "categories".*
FROM
  "categories"
WHERE
  lower("categories"."name") LIKE lower(?) ESCAPE '\'
ORDER BY
  "categories"."name" ASC NULLS LAST,
  "categories"."created_at" DESC,
  "categories"."id" DESC
LIMIT
  ?
OFFSET
  ?;
-- params: ["%per%",50,0]

-- CarrierRepository.count
SELECT
  count(*) AS "n"
FROM
  "categories";
-- params: []

-- CarrierRepository.timeline
SELECT
  sum(
    CASE
      WHEN "categories"."created_at" >= ?
      AND "categories"."created_at" < ? THEN 1
      ELSE 0
    END
  ) AS "c0",
  sum(
    CASE
      WHEN "categories"."updated_at" >= ?
      AND "categories"."updated_at" < ?
      AND "categories"."updated_at" > "categories"."created_at" THEN 1
      ELSE 0
    END
  ) AS "u0"
FROM
  "categories"
WHERE
  lower("categories"."name") LIKE lower(?) ESCAPE '\'
  AND (
    (
      "categories"."created_at" >= ?
      AND "categories"."created_at" < ?
    )
    OR (
      "categories"."updated_at" >= ?
      AND "categories"."updated_at" < ?
    )
  );
-- params: ["2024-01-01T00:00:00.000Z","2025-01-01T00:00:00.000Z","2024-01-01T00:00:00.000Z","2025-01-01T00:00:00.000Z","%per%","2024-01-01T00:00:00.000Z","2025-01-01T00:00:00.000Z","2024-01-01T00:00:00.000Z","2025-01-01T00:00:00.000Z"]

-- CarrierRepository.insert
INSERT INTO
  "categories" (
    "created_at",
    "updated_at",
    "created_by_user_id",
    "guid",
    "name",
    "description",
    "meta_schema",
    "section_config",
    "custom_header"
  )
VALUES
  (?, ?, ?, ?, ?, ?, ?, ?, ?)
RETURNING
  *;
-- params: ["2024-01-01T00:00:00.000Z","2024-01-01T00:00:00.000Z",1,"00000000-0000-4000-8000-000000000000","Person","","","{}","<b>h</b>"]

-- CarrierRepository.update
UPDATE "categories"
SET
  "name" = ?,
  "meta_schema" = ?,
  "updated_at" = ?
WHERE
  "categories"."id" = ?;
-- params: ["People","{\"type\":\"object\"}","2024-06-01T12:00:00.000Z",7]

-- CarrierRepository.remove
DELETE FROM "categories"
WHERE
  "categories"."id" IN (?);
-- params: [7]

-- CarrierRepository.options
SELECT
  "id",
  "name"
FROM
  "categories"
ORDER BY
  "name",
  "id";
-- params: []

-- CarrierRepository.schemaOf
SELECT
  "name",
  "meta_schema"
FROM
  "categories"
WHERE
  "id" = ?;
-- params: [7]

-- CarrierRepository.members (categories type groups)
SELECT
  "id",
  "name"
FROM
  "groups"
WHERE
  "category_id" = ?
ORDER BY
  "name"
LIMIT
  ?;
-- params: [7,20]

-- CarrierRepository.memberCount
SELECT
  count(*) AS "n"
FROM
  "groups"
WHERE
  "category_id" = ?;
-- params: [7]

-- CarrierRepository.find (note types)
SELECT
  *
FROM
  "note_types"
WHERE
  "note_types"."id" = ?;
-- params: [5]

-- CarrierRepository.members (note types type notes)
SELECT
  "id",
  "name"
FROM
  "notes"
WHERE
  "note_type_id" = ?
ORDER BY
  "name"
LIMIT
  ?;
-- params: [5,20]

-- CarrierRepository.members (resource categories type resources)
SELECT
  "id",
  "name"
FROM
  "resources"
WHERE
  "resource_category_id" = ?
ORDER BY
  "name"
LIMIT
  ?;
-- params: [3,20]

-- CarrierRepository.memberCount (resources)
SELECT
  count(*) AS "n"
FROM
  "resources"
WHERE
  "resource_category_id" = ?;
-- params: [3]

-- CarrierRepository.reassignResources
UPDATE "resources"
SET
  "resource_category_id" = ?,
  "updated_at" = ?
WHERE
  "resource_category_id" = ?;
-- params: [1,"2024-06-01T12:00:00.000Z",3]
