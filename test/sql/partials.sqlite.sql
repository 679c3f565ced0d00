-- PartialRepository.find
SELECT
  *
FROM
  "template_partials"
WHERE
  "template_partials"."id" = ?;
-- params: [7]

-- PartialRepository.findByName
SELECT
  *
FROM
  "template_partials"
WHERE
  "name" = ?
ORDER BY
  "id";
-- params: ["price-tag"]

-- PartialRepository.findMany
SELECT
  *
FROM
  "template_partials"
WHERE
  "template_partials"."id" IN (?, ?)
ORDER BY
  "template_partials"."id";
-- params: [1,2]

-- PartialRepository.page
SELECT
  "template_partials".*
FROM
  "template_partials"
WHERE
  lower("template_partials"."name") LIKE lower(?) ESCAPE '\'
ORDER BY
  "template_partials"."name" ASC NULLS LAST,
  "template_partials"."created_at" DESC,
  "template_partials"."id" DESC
LIMIT
  ?
OFFSET
  ?;
-- params: ["%price%",50,0]

-- PartialRepository.count
SELECT
  count(*) AS "n"
FROM
  "template_partials";
-- params: []

-- PartialRepository.timeline
SELECT
  sum(
    CASE
      WHEN "template_partials"."created_at" >= ?
      AND "template_partials"."created_at" < ? THEN 1
      ELSE 0
    END
  ) AS "c0",
  sum(
    CASE
      WHEN "template_partials"."updated_at" >= ?
      AND "template_partials"."updated_at" < ?
      AND "template_partials"."updated_at" > "template_partials"."created_at" THEN 1
      ELSE 0
    END
  ) AS "u0"
FROM
  "template_partials"
WHERE
  (
    (
      "template_partials"."created_at" >= ?
      AND "template_partials"."created_at" < ?
    )
    OR (
      "template_partials"."updated_at" >= ?
      AND "template_partials"."updated_at" < ?
    )
  );
-- params: ["2024-01-01T00:00:00.000Z","2024-02-01T00:00:00.000Z","2024-01-01T00:00:00.000Z","2024-02-01T00:00:00.000Z","2024-01-01T00:00:00.000Z","2024-02-01T00:00:00.000Z","2024-01-01T00:00:00.000Z","2024-02-01T00:00:00.000Z"]

-- PartialRepository.insert
INSERT INTO
  "template_partials" ("created_at", "updated_at", "created_by_user_id", "guid", "name", "description", "content")
VALUES
  (?, ?, ?, ?, ?, ?, ?)
RETURNING
  *;
-- params: ["2024-01-01T00:00:00.000Z","2024-01-01T00:00:00.000Z",1,"00000000-0000-4000-8000-000000000000","price-tag","","<b>x</b>"]

-- PartialRepository.update
UPDATE "template_partials"
SET
  "content" = ?,
  "updated_at" = ?
WHERE
  "template_partials"."id" = ?;
-- params: ["y","2024-06-01T12:00:00.000Z",7]

-- PartialRepository.remove
DELETE FROM "template_partials"
WHERE
  "template_partials"."id" IN (?);
-- params: [7]
