-- SeriesRepository.find
SELECT
  *
FROM
  "series"
WHERE
  "series"."id" = $1;
-- params: [7]

-- SeriesRepository.findByName
SELECT
  *
FROM
  "series"
WHERE
  "name" = $1
ORDER BY
  "id";
-- params: ["Summer"]

-- SeriesRepository.findMany
SELECT
  *
FROM
  "series"
WHERE
  "series"."id" IN ($1, $2)
ORDER BY
  "series"."id";
-- params: [1,2]

-- SeriesRepository.findBySlug
SELECT
  *
FROM
  "series"
WHERE
  "slug" = $1;
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
  $1
OFFSET
  $2;
-- params: [50,0]

-- SeriesRepository.page (slug filter, meta sort)
SELECT
  "series".*
FROM
  "series"
WHERE
  "series"."name" ILIKE CAST($1 AS text) ESCAPE '\'
  AND "series"."slug" ILIKE CAST($2 AS text) ESCAPE '\'
ORDER BY
  ("series"."meta" #>> '{artist}') DESC NULLS LAST,
  "series"."created_at" DESC,
  "series"."id" DESC
LIMIT
  $3
OFFSET
  $4;
-- params: ["%sum%","%win%",50,50]

-- SeriesRepository.count
SELECT
  count(*) AS "n"
FROM
  "series"
WHERE
  "series"."slug" ILIKE CAST($1 AS text) ESCAPE '\';
-- params: ["%win%"]

-- SeriesRepository.timeline
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

-- SeriesRepository.insert
INSERT INTO
  "series" ("created_at", "updated_at", "created_by_user_id", "name", "slug", "meta")
VALUES
  ($1, $2, $3, $4, $5, $6)
RETURNING
  *;
-- params: ["2024-01-01T00:00:00.000Z","2024-01-01T00:00:00.000Z",1,"Summer","summer","{}"]

-- SeriesRepository.update
UPDATE "series"
SET
  "name" = $1,
  "meta" = $2,
  "updated_at" = $3
WHERE
  "series"."id" = $4;
-- params: ["Winter","{\"artist\":\"A\"}","2024-06-01T12:00:00.000Z",7]

-- SeriesRepository.remove
DELETE FROM "series"
WHERE
  "series"."id" IN ($1);
-- params: [7]

-- SeriesRepository.members
SELECT
  "id",
  "name"
FROM
  "resources"
WHERE
  "series_id" = $1
ORDER BY
  "created_at",
  "id"
LIMIT
  $2;
-- params: [7,100]

-- SeriesRepository.memberOwnMeta
SELECT
  "id",
  "own_meta"
FROM
  "resources"
WHERE
  "series_id" = $1
ORDER BY
  "id";
-- params: [7]

-- SeriesRepository.setMemberMeta
UPDATE "resources"
SET
  "meta" = $1
WHERE
  "id" = $2;
-- params: ["{\"artist\":\"A\"}",12]

-- SeriesRepository.releaseMembers
UPDATE "resources"
SET
  "own_meta" = $1,
  "series_id" = $2,
  "updated_at" = $3
WHERE
  "series_id" = $4;
-- params: ["{}",null,"2024-06-01T12:00:00.000Z",7]
