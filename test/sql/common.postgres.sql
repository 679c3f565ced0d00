-- NamedRepository.find
SELECT
  *
FROM
  "series"
WHERE
  "series"."id" = $1;
-- params: [1]

-- NamedRepository.findByName
SELECT
  *
FROM
  "series"
WHERE
  "name" = $1
ORDER BY
  "id";
-- params: ["a"]

-- NamedRepository.findMany
SELECT
  *
FROM
  "series"
WHERE
  "series"."id" IN ($1, $2)
ORDER BY
  "series"."id";
-- params: [1,2]

-- NamedRepository.page (filters and sort)
SELECT
  "series".*
FROM
  "series"
WHERE
  "series"."name" ILIKE CAST($1 AS text) ESCAPE '\'
  AND "series"."description" ILIKE CAST($2 AS text) ESCAPE '\'
  AND "series"."created_at" >= $3
ORDER BY
  "series"."name" ASC NULLS LAST,
  "series"."created_at" DESC,
  "series"."id" DESC
LIMIT
  $4
OFFSET
  $5;
-- params: ["%x%","%y%","2024-01-01T00:00:00.000Z",50,0]

-- NamedRepository.count
SELECT
  count(*) AS "n"
FROM
  "series";
-- params: []

-- NamedRepository.timeline
SELECT
  sum(
    CASE
      WHEN "series"."created_at" >= $1
      AND "series"."created_at" < $2 THEN 1
      ELSE 0
    END
  ) AS "c0",
  sum(
    CASE
      WHEN "series"."updated_at" >= $3
      AND "series"."updated_at" < $4
      AND "series"."updated_at" > "series"."created_at" THEN 1
      ELSE 0
    END
  ) AS "u0"
FROM
  "series"
WHERE
  (
    (
      "series"."created_at" >= $5
      AND "series"."created_at" < $6
    )
    OR (
      "series"."updated_at" >= $7
      AND "series"."updated_at" < $8
    )
  );
-- params: ["2024-01-01T00:00:00.000Z","2024-02-01T00:00:00.000Z","2024-01-01T00:00:00.000Z","2024-02-01T00:00:00.000Z","2024-01-01T00:00:00.000Z","2024-02-01T00:00:00.000Z","2024-01-01T00:00:00.000Z","2024-02-01T00:00:00.000Z"]

-- NamedRepository.update
UPDATE "series"
SET
  "name" = $1,
  "updated_at" = $2
WHERE
  "series"."id" = $3;
-- params: ["b","2024-06-01T12:00:00.000Z",1]

-- NamedRepository.remove
DELETE FROM "series"
WHERE
  "series"."id" IN ($1);
-- params: [1]
