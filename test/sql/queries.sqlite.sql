-- QueryRepository.find
SELECT
  *
FROM
  "queries"
WHERE
  "queries"."id" = ?;
-- params: [7]

-- QueryRepository.findByName
SELECT
  *
FROM
  "queries"
WHERE
  "name" = ?
ORDER BY
  "id";
-- params: ["all tags"]

-- QueryRepository.findMany
SELECT
  *
FROM
  "queries"
WHERE
  "queries"."id" IN (?, ?)
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
  ?
OFFSET
  ?;
-- params: [50,0]

-- QueryRepository.page (text filter)
SELECT
  "queries".*
FROM
  "queries"
WHERE
  lower("queries"."text") LIKE lower(?) ESCAPE '\'
ORDER BY
  "queries"."name" DESC NULLS LAST,
  "queries"."created_at" DESC,
  "queries"."id" DESC
LIMIT
  ?
OFFSET
  ?;
-- params: ["%order by%",50,0]

-- QueryRepository.count
SELECT
  count(*) AS "n"
FROM
  "queries"
WHERE
  lower("queries"."text") LIKE lower(?) ESCAPE '\';
-- params: ["%order by%"]

-- QueryRepository.timeline (text filter)
SELECT
  sum(
    CASE
      WHEN "queries"."created_at" >= ?
      AND "queries"."created_at" < ? THEN 1
      ELSE 0
    END
  ) AS "c0",
  sum(
    CASE
      WHEN "queries"."updated_at" >= ?
      AND "queries"."updated_at" < ?
      AND "queries"."updated_at" > "queries"."created_at" THEN 1
      ELSE 0
    END
  ) AS "u0"
FROM
  "queries"
WHERE
  lower("queries"."text") LIKE lower(?) ESCAPE '\'
  AND (
    (
      "queries"."created_at" >= ?
      AND "queries"."created_at" < ?
    )
    OR (
      "queries"."updated_at" >= ?
      AND "queries"."updated_at" < ?
    )
  );
-- params: ["2024-01-01T00:00:00.000Z","2025-01-01T00:00:00.000Z","2024-01-01T00:00:00.000Z","2025-01-01T00:00:00.000Z","%42%","2024-01-01T00:00:00.000Z","2025-01-01T00:00:00.000Z","2024-01-01T00:00:00.000Z","2025-01-01T00:00:00.000Z"]

-- QueryRepository.insert
INSERT INTO
  "queries" ("created_at", "updated_at", "created_by_user_id", "name", "text", "template", "description")
VALUES
  (?, ?, ?, ?, ?, ?, ?)
RETURNING
  *;
-- params: ["2024-01-01T00:00:00.000Z","2024-01-01T00:00:00.000Z",1,"all tags","SELECT 1","",""]

-- QueryRepository.update
UPDATE "queries"
SET
  "text" = ?,
  "updated_at" = ?
WHERE
  "queries"."id" = ?;
-- params: ["SELECT 2","2024-06-01T12:00:00.000Z",7]

-- QueryRepository.remove
DELETE FROM "queries"
WHERE
  "queries"."id" IN (?);
-- params: [7]

-- QueryRepository.columns
SELECT
  m.name AS table_name,
  p.name AS column_name
FROM
  sqlite_master m
  JOIN pragma_table_info (m.name) p
WHERE
  m.type IN ('table', 'view')
ORDER BY
  m.name,
  p.cid;
-- params: []
