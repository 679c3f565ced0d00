-- QueryRepository.find
SELECT
  *
FROM
  "queries"
WHERE
  "queries"."id" = $1;
-- params: [7]

-- QueryRepository.findByName
SELECT
  *
FROM
  "queries"
WHERE
  "name" = $1
ORDER BY
  "id";
-- params: ["all tags"]

-- QueryRepository.findMany
SELECT
  *
FROM
  "queries"
WHERE
  "queries"."id" IN ($1, $2)
ORDER BY
  "queries"."id";
-- params: [1,2]

-- QueryRepository.page
SELECT
  "queries".*
FROM
  "queries"
ORDER BY
  "queries"."created_at" DESC,
  "queries"."id" DESC
LIMIT
  $1
OFFSET
  $2;
-- params: [50,0]

-- QueryRepository.page (text filter)
SELECT
  "queries".*
FROM
  "queries"
WHERE
  "queries"."text" ILIKE CAST($1 AS text) ESCAPE '\'
ORDER BY
  "queries"."name" DESC NULLS LAST,
  "queries"."created_at" DESC,
  "queries"."id" DESC
LIMIT
  $2
OFFSET
  $3;
-- params: ["%order by%",50,0]

-- QueryRepository.count
SELECT
  count(*) AS "n"
FROM
  "queries"
WHERE
  "queries"."text" ILIKE CAST($1 AS text) ESCAPE '\';
-- params: ["%order by%"]

-- QueryRepository.timeline (text filter)
SELECT
  sum(
    CASE
      WHEN "queries"."created_at" >= $1
      AND "queries"."created_at" < $2 THEN 1
      ELSE 0
    END
  ) AS "c0",
  sum(
    CASE
      WHEN "queries"."updated_at" >= $3
      AND "queries"."updated_at" < $4
      AND "queries"."updated_at" > "queries"."created_at" THEN 1
      ELSE 0
    END
  ) AS "u0"
FROM
  "queries"
WHERE
  "queries"."text" ILIKE CAST($5 AS text) ESCAPE '\'
  AND (
    (
      "queries"."created_at" >= $6
      AND "queries"."created_at" < $7
    )
    OR (
      "queries"."updated_at" >= $8
      AND "queries"."updated_at" < $9
    )
  );
-- params: ["2024-01-01T00:00:00.000Z","2025-01-01T00:00:00.000Z","2024-01-01T00:00:00.000Z","2025-01-01T00:00:00.000Z","%42%","2024-01-01T00:00:00.000Z","2025-01-01T00:00:00.000Z","2024-01-01T00:00:00.000Z","2025-01-01T00:00:00.000Z"]

-- QueryRepository.insert
INSERT INTO
  "queries" ("created_at", "updated_at", "created_by_user_id", "name", "text", "template", "description")
VALUES
  ($1, $2, $3, $4, $5, $6, $7)
RETURNING
  *;
-- params: ["2024-01-01T00:00:00.000Z","2024-01-01T00:00:00.000Z",1,"all tags","SELECT 1","",""]

-- QueryRepository.update
UPDATE "queries"
SET
  "text" = $1,
  "updated_at" = $2
WHERE
  "queries"."id" = $3;
-- params: ["SELECT 2","2024-06-01T12:00:00.000Z",7]

-- QueryRepository.remove
DELETE FROM "queries"
WHERE
  "queries"."id" IN ($1);
-- params: [7]

-- QueryRepository.columns
SELECT
  table_name,
  column_name
FROM
  information_schema.columns
WHERE
  table_schema = current_schema()
ORDER BY
  table_name,
  ordinal_position;
-- params: []
