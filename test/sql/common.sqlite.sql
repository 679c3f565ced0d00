-- NamedRepository.find
SELECT
  *
FROM
  "series"
WHERE
  "series"."id" = ?;
-- params: [1]

-- NamedRepository.findByName
SELECT
  *
FROM
  "series"
WHERE
  "name" = ?
ORDER BY
  "id";
-- params: ["a"]

-- NamedRepository.findMany
SELECT
  *
FROM
  "series"
WHERE
  "series"."id" IN (?, ?)
ORDER BY
  "series"."id";
-- params: [1,2]

-- NamedRepository.page (filters and sort)
SELECT
  "series".*
FROM
  "series"
WHERE
  lower("series"."name") LIKE lower(?) ESCAPE '\'
  AND lower("series"."description") LIKE lower(?) ESCAPE '\'
  AND "series"."created_at" >= ?
ORDER BY
  "series"."name" ASC NULLS LAST,
  "series"."created_at" DESC,
  "series"."id" DESC
LIMIT
  ?
OFFSET
  ?;
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
      WHEN "series"."created_at" >= ?
      AND "series"."created_at" < ? THEN 1
      ELSE 0
    END
  ) AS "c0",
  sum(
    CASE
      WHEN "series"."updated_at" >= ?
      AND "series"."updated_at" < ?
      AND "series"."updated_at" > "series"."created_at" THEN 1
      ELSE 0
    END
  ) AS "u0"
FROM
  "series"
WHERE
  (
    (
      "series"."created_at" >= ?
      AND "series"."created_at" < ?
    )
    OR (
      "series"."updated_at" >= ?
      AND "series"."updated_at" < ?
    )
  );
-- params: ["2024-01-01T00:00:00.000Z","2024-02-01T00:00:00.000Z","2024-01-01T00:00:00.000Z","2024-02-01T00:00:00.000Z","2024-01-01T00:00:00.000Z","2024-02-01T00:00:00.000Z","2024-01-01T00:00:00.000Z","2024-02-01T00:00:00.000Z"]

-- NamedRepository.update
UPDATE "series"
SET
  "name" = ?,
  "updated_at" = ?
WHERE
  "series"."id" = ?;
-- params: ["b","2024-06-01T12:00:00.000Z",1]

-- NamedRepository.remove
DELETE FROM "series"
WHERE
  "series"."id" IN (?);
-- params: [1]
