-- SeriesRepository.find
SELECT
  *
FROM
  "series"
WHERE
  "series"."id" = ?;
-- params: [7]

-- SeriesRepository.findByName
SELECT
  *
FROM
  "series"
WHERE
  "name" = ?
ORDER BY
  "id";
-- params: ["Summer"]

-- SeriesRepository.findMany
SELECT
  *
FROM
  "series"
WHERE
  "series"."id" IN (?, ?)
ORDER BY
  "series"."id";
-- params: [1,2]

-- SeriesRepository.findBySlug
SELECT
  *
FROM
  "series"
WHERE
  "slug" = ?;
-- params: ["summer-2024"]

-- SeriesRepository.page
SELECT
  "series".*
FROM
  "series"
ORDER BY
  "series"."created_at" DESC,
  "series"."id" DESC
LIMIT
  ?
OFFSET
  ?;
-- params: [50,0]

-- SeriesRepository.page (slug filter, meta sort)
SELECT
  "series".*
FROM
  "series"
WHERE
  lower("series"."name") LIKE lower(?) ESCAPE '\'
  AND lower("series"."slug") LIKE lower(?) ESCAPE '\'
ORDER BY
  json_extract("series"."meta", '$.artist') DESC NULLS LAST,
  "series"."created_at" DESC,
  "series"."id" DESC
LIMIT
  ?
OFFSET
  ?;
-- params: ["%sum%","%win%",50,50]

-- SeriesRepository.count
SELECT
  count(*) AS "n"
FROM
  "series"
WHERE
  lower("series"."slug") LIKE lower(?) ESCAPE '\';
-- params: ["%win%"]

-- SeriesRepository.timeline
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

-- SeriesRepository.insert
INSERT INTO
  "series" ("created_at", "updated_at", "created_by_user_id", "name", "slug", "meta")
VALUES
  (?, ?, ?, ?, ?, ?)
RETURNING
  *;
-- params: ["2024-01-01T00:00:00.000Z","2024-01-01T00:00:00.000Z",1,"Summer","summer","{}"]

-- SeriesRepository.update
UPDATE "series"
SET
  "name" = ?,
  "meta" = ?,
  "updated_at" = ?
WHERE
  "series"."id" = ?;
-- params: ["Winter","{\"artist\":\"A\"}","2024-06-01T12:00:00.000Z",7]

-- SeriesRepository.remove
DELETE FROM "series"
WHERE
  "series"."id" IN (?);
-- params: [7]

-- SeriesRepository.members
SELECT
  "id",
  "name"
FROM
  "resources"
WHERE
  "series_id" = ?
ORDER BY
  "created_at",
  "id"
LIMIT
  ?;
-- params: [7,100]

-- SeriesRepository.memberOwnMeta
SELECT
  "id",
  "own_meta"
FROM
  "resources"
WHERE
  "series_id" = ?
ORDER BY
  "id";
-- params: [7]

-- SeriesRepository.setMemberMeta
UPDATE "resources"
SET
  "meta" = ?
WHERE
  "id" = ?;
-- params: ["{\"artist\":\"A\"}",12]

-- SeriesRepository.releaseMembers
UPDATE "resources"
SET
  "own_meta" = ?,
  "series_id" = ?,
  "updated_at" = ?
WHERE
  "series_id" = ?;
-- params: ["{}",null,"2024-06-01T12:00:00.000Z",7]
