-- PartialRepository.find
SELECT
  *
FROM
  "template_partials"
WHERE
  "template_partials"."id" = $1;
-- params: [7]

-- PartialRepository.findByName
SELECT
  *
FROM
  "template_partials"
WHERE
  "name" = $1
ORDER BY
  "id";
-- params: ["price-tag"]

-- PartialRepository.findMany
SELECT
  *
FROM
  "template_partials"
WHERE
  "template_partials"."id" IN ($1, $2)
ORDER BY
  "template_partials"."id";
-- params: [1,2]

-- PartialRepository.page
SELECT
  "template_partials".*
FROM
  "template_partials"
WHERE
  "template_partials"."name" ILIKE CAST($1 AS text) ESCAPE '\'
ORDER BY
  "template_partials"."name" ASC NULLS LAST,
  "template_partials"."created_at" DESC,
  "template_partials"."id" DESC
LIMIT
  $2
OFFSET
  $3;
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
      WHEN "template_partials"."created_at" >= $1
      AND "template_partials"."created_at" < $2 THEN 1
      ELSE 0
    END
  ) AS "c0",
  sum(
    CASE
      WHEN "template_partials"."updated_at" >= $3
      AND "template_partials"."updated_at" < $4
      AND "template_partials"."updated_at" > "template_partials"."created_at" THEN 1
      ELSE 0
    END
  ) AS "u0"
FROM
  "template_partials"
WHERE
  (
    (
      "template_partials"."created_at" >= $5
      AND "template_partials"."created_at" < $6
    )
    OR (
      "template_partials"."updated_at" >= $7
      AND "template_partials"."updated_at" < $8
    )
  );
-- params: ["2024-01-01T00:00:00.000Z","2024-02-01T00:00:00.000Z","2024-01-01T00:00:00.000Z","2024-02-01T00:00:00.000Z","2024-01-01T00:00:00.000Z","2024-02-01T00:00:00.000Z","2024-01-01T00:00:00.000Z","2024-02-01T00:00:00.000Z"]

-- PartialRepository.insert
INSERT INTO
  "template_partials" ("created_at", "updated_at", "created_by_user_id", "guid", "name", "description", "content")
VALUES
  ($1, $2, $3, $4, $5, $6, $7)
RETURNING
  *;
-- params: ["2024-01-01T00:00:00.000Z","2024-01-01T00:00:00.000Z",1,"00000000-0000-4000-8000-000000000000","price-tag","","<b>x</b>"]

-- PartialRepository.update
UPDATE "template_partials"
SET
  "content" = $1,
  "updated_at" = $2
WHERE
  "template_partials"."id" = $3;
-- params: ["y","2024-06-01T12:00:00.000Z",7]

-- PartialRepository.remove
DELETE FROM "template_partials"
WHERE
  "template_partials"."id" IN ($1);
-- params: [7]
