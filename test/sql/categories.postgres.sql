-- CarrierRepository.find
SELECT
  *
FROM
  "categories"
WHERE
  "categories"."id" = $1;
-- params: [7]

-- CarrierRepository.findByName
SELECT
  *
FROM
  "categories"
WHERE
  "name" = $1
ORDER BY
  "id";
-- params: ["Person"]

-- CarrierRepository.findMany
SELECT
  *
FROM
  "categories"
WHERE
  "categories"."id" IN ($1, $2)
ORDER BY
  "categories"."id";
-- params: [1,2]

-- CarrierRepository.page
SELECT
  "categories".*
FROM
  "categories"
WHERE
  "categories"."name" ILIKE CAST($1 AS text) ESCAPE '\'
ORDER BY
  "categories"."name" ASC NULLS LAST,
  "categories"."created_at" DESC,
  "categories"."id" DESC
LIMIT
  $2
OFFSET
  $3;
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
      WHEN "categories"."created_at" >= $1
      AND "categories"."created_at" < $2 THEN 1
      ELSE 0
    END
  ) AS "c0",
  sum(
    CASE
      WHEN "categories"."updated_at" >= $3
      AND "categories"."updated_at" < $4
      AND "categories"."updated_at" > "categories"."created_at" THEN 1
      ELSE 0
    END
  ) AS "u0"
FROM
  "categories"
WHERE
  "categories"."name" ILIKE CAST($5 AS text) ESCAPE '\'
  AND (
    (
      "categories"."created_at" >= $6
      AND "categories"."created_at" < $7
    )
    OR (
      "categories"."updated_at" >= $8
      AND "categories"."updated_at" < $9
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
  ($1, $2, $3, $4, $5, $6, $7, $8, $9)
RETURNING
  *;
-- params: ["2024-01-01T00:00:00.000Z","2024-01-01T00:00:00.000Z",1,"00000000-0000-4000-8000-000000000000","Person","","","{}","<b>h</b>"]

-- CarrierRepository.update
UPDATE "categories"
SET
  "name" = $1,
  "meta_schema" = $2,
  "updated_at" = $3
WHERE
  "categories"."id" = $4;
-- params: ["People","{\"type\":\"object\"}","2024-06-01T12:00:00.000Z",7]

-- CarrierRepository.remove
DELETE FROM "categories"
WHERE
  "categories"."id" IN ($1);
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
  "id" = $1;
-- params: [7]

-- CarrierRepository.members (categories type groups)
SELECT
  "id",
  "name"
FROM
  "groups"
WHERE
  "category_id" = $1
ORDER BY
  "name"
LIMIT
  $2;
-- params: [7,20]

-- CarrierRepository.memberCount
SELECT
  count(*) AS "n"
FROM
  "groups"
WHERE
  "category_id" = $1;
-- params: [7]

-- CarrierRepository.find (note types)
SELECT
  *
FROM
  "note_types"
WHERE
  "note_types"."id" = $1;
-- params: [5]

-- CarrierRepository.members (note types type notes)
SELECT
  "id",
  "name"
FROM
  "notes"
WHERE
  "note_type_id" = $1
ORDER BY
  "name"
LIMIT
  $2;
-- params: [5,20]

-- CarrierRepository.members (resource categories type resources)
SELECT
  "id",
  "name"
FROM
  "resources"
WHERE
  "resource_category_id" = $1
ORDER BY
  "name"
LIMIT
  $2;
-- params: [3,20]

-- CarrierRepository.memberCount (resources)
SELECT
  count(*) AS "n"
FROM
  "resources"
WHERE
  "resource_category_id" = $1;
-- params: [3]

-- CarrierRepository.reassignResources
UPDATE "resources"
SET
  "resource_category_id" = $1,
  "updated_at" = $2
WHERE
  "resource_category_id" = $3;
-- params: [1,"2024-06-01T12:00:00.000Z",3]
