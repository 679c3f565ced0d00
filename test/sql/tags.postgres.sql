-- TagRepository.find
SELECT
  *
FROM
  "tags"
WHERE
  "tags"."id" = $1;
-- params: [7]

-- TagRepository.findByName
SELECT
  *
FROM
  "tags"
WHERE
  "name" = $1
ORDER BY
  "id";
-- params: ["holiday"]

-- TagRepository.findMany
SELECT
  *
FROM
  "tags"
WHERE
  "tags"."id" IN ($1, $2, $3)
ORDER BY
  "tags"."id";
-- params: [1,2,3]

-- TagRepository.page
SELECT
  "tags".*
FROM
  "tags"
ORDER BY
  "tags"."created_at" DESC,
  "tags"."id" DESC
LIMIT
  $1
OFFSET
  $2;
-- params: [50,0]

-- TagRepository.page (name filter, sorted by usage)
SELECT
  "tags".*
FROM
  "tags"
WHERE
  "tags"."name" ILIKE CAST($1 AS text) ESCAPE '\'
ORDER BY
  (
    SELECT
      count(*)
    FROM
      "resource_tags" u
    WHERE
      u.tag_id = tags.id
  ) DESC NULLS LAST,
  "tags"."created_at" DESC,
  "tags"."id" DESC
LIMIT
  $2
OFFSET
  $3;
-- params: ["%hol%",50,50]

-- TagRepository.page (meta sort, created bounds)
SELECT
  "tags".*
FROM
  "tags"
WHERE
  "tags"."created_at" <= $1
  AND "tags"."created_at" >= $2
ORDER BY
  ("tags"."meta" #>> '{colour}') ASC NULLS LAST,
  "tags"."created_at" DESC,
  "tags"."id" DESC
LIMIT
  $3
OFFSET
  $4;
-- params: ["2024-12-31T00:00:00.000Z","2024-01-01T00:00:00.000Z",20,0]

-- TagRepository.count
SELECT
  count(*) AS "n"
FROM
  "tags"
WHERE
  "tags"."description" ILIKE CAST($1 AS text) ESCAPE '\';
-- params: ["%trip%"]

-- TagRepository.timeline
SELECT
  sum(
    CASE
      WHEN "tags"."created_at" >= $1
      AND "tags"."created_at" < $2 THEN 1
      ELSE 0
    END
  ) AS "c0",
  sum(
    CASE
      WHEN "tags"."updated_at" >= $3
      AND "tags"."updated_at" < $4
      AND "tags"."updated_at" > "tags"."created_at" THEN 1
      ELSE 0
    END
  ) AS "u0",
  sum(
    CASE
      WHEN "tags"."created_at" >= $5
      AND "tags"."created_at" < $6 THEN 1
      ELSE 0
    END
  ) AS "c1",
  sum(
    CASE
      WHEN "tags"."updated_at" >= $7
      AND "tags"."updated_at" < $8
      AND "tags"."updated_at" > "tags"."created_at" THEN 1
      ELSE 0
    END
  ) AS "u1"
FROM
  "tags"
WHERE
  "tags"."name" ILIKE CAST($9 AS text) ESCAPE '\'
  AND (
    (
      "tags"."created_at" >= $10
      AND "tags"."created_at" < $11
    )
    OR (
      "tags"."updated_at" >= $12
      AND "tags"."updated_at" < $13
    )
  );
-- params: ["2024-01-01T00:00:00.000Z","2024-02-01T00:00:00.000Z","2024-01-01T00:00:00.000Z","2024-02-01T00:00:00.000Z","2024-02-01T00:00:00.000Z","2024-03-01T00:00:00.000Z","2024-02-01T00:00:00.000Z","2024-03-01T00:00:00.000Z","%hol%","2024-01-01T00:00:00.000Z","2024-03-01T00:00:00.000Z","2024-01-01T00:00:00.000Z","2024-03-01T00:00:00.000Z"]

-- TagRepository.insert
INSERT INTO
  "tags" ("name", "description", "meta", "created_at", "updated_at", "created_by_user_id", "guid")
VALUES
  ($1, $2, $3, $4, $5, $6, $7)
RETURNING
  *;
-- params: ["holiday","","{}","2024-01-01T00:00:00.000Z","2024-01-01T00:00:00.000Z",1,"00000000-0000-4000-8000-000000000000"]

-- TagRepository.update
UPDATE "tags"
SET
  "name" = $1,
  "updated_at" = $2
WHERE
  "tags"."id" = $3;
-- params: ["trips","2024-06-01T12:00:00.000Z",7]

-- TagRepository.remove
DELETE FROM "tags"
WHERE
  "tags"."id" IN ($1, $2);
-- params: [4,5]

-- TagRepository.copyLinks
INSERT INTO
  "resource_tags" ("resource_id", tag_id)
SELECT DISTINCT
  l."resource_id",
  CAST($1 AS integer)
FROM
  "resource_tags" l
WHERE
  l.tag_id IN ($2, $3)
  AND NOT EXISTS (
    SELECT
      1
    FROM
      "resource_tags" w
    WHERE
      w.tag_id = $4
      AND w."resource_id" = l."resource_id"
  );
-- params: [1,2,3,1]

INSERT INTO
  "note_tags" ("note_id", tag_id)
SELECT DISTINCT
  l."note_id",
  CAST($1 AS integer)
FROM
  "note_tags" l
WHERE
  l.tag_id IN ($2, $3)
  AND NOT EXISTS (
    SELECT
      1
    FROM
      "note_tags" w
    WHERE
      w.tag_id = $4
      AND w."note_id" = l."note_id"
  );
-- params: [1,2,3,1]

INSERT INTO
  "group_tags" ("group_id", tag_id)
SELECT DISTINCT
  l."group_id",
  CAST($1 AS integer)
FROM
  "group_tags" l
WHERE
  l.tag_id IN ($2, $3)
  AND NOT EXISTS (
    SELECT
      1
    FROM
      "group_tags" w
    WHERE
      w.tag_id = $4
      AND w."group_id" = l."group_id"
  );
-- params: [1,2,3,1]

-- TagRepository.tagsOf (resources)
SELECT
  "tags".*,
  "l"."resource_id" AS "owner_id"
FROM
  "resource_tags" AS "l"
  INNER JOIN "tags" ON "tags"."id" = "l"."tag_id"
WHERE
  "l"."resource_id" IN ($1, $2)
ORDER BY
  "tags"."name",
  "tags"."id";
-- params: [1,2]

-- TagRepository.tagsOf (groups)
SELECT
  "tags".*,
  "l"."group_id" AS "owner_id"
FROM
  "group_tags" AS "l"
  INNER JOIN "tags" ON "tags"."id" = "l"."tag_id"
WHERE
  "l"."group_id" IN ($1)
ORDER BY
  "tags"."name",
  "tags"."id";
-- params: [3]

-- TagRepository.usage
SELECT
  "l"."tag_id",
  count(*) AS "n"
FROM
  "resource_tags" AS "l"
WHERE
  "l"."tag_id" IN ($1, $2)
GROUP BY
  "l"."tag_id";
-- params: [1,2]

SELECT
  "l"."tag_id",
  count(*) AS "n"
FROM
  "note_tags" AS "l"
WHERE
  "l"."tag_id" IN ($1, $2)
GROUP BY
  "l"."tag_id";
-- params: [1,2]

SELECT
  "l"."tag_id",
  count(*) AS "n"
FROM
  "group_tags" AS "l"
WHERE
  "l"."tag_id" IN ($1, $2)
GROUP BY
  "l"."tag_id";
-- params: [1,2]

-- TagRepository.carriers (notes)
SELECT
  "e"."id",
  "e"."name"
FROM
  "note_tags" AS "l"
  INNER JOIN "notes" AS "e" ON "l"."note_id" = "e"."id"
WHERE
  "l"."tag_id" = $1
ORDER BY
  "e"."id" DESC
LIMIT
  $2;
-- params: [4,12]
