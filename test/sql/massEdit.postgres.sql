-- ContentRepository.existingIds
SELECT
  "id"
FROM
  "groups"
WHERE
  "id" IN ($1, $2, $3)
  AND "groups"."id" IN (
    WITH RECURSIVE
      scope_tree (id, depth) AS (
        SELECT
          id,
          0
        FROM
          "groups"
        WHERE
          id = $4
        UNION
        SELECT
          g.id,
          s.depth + 1
        FROM
          "groups" g
          JOIN scope_tree s ON g.owner_id = s.id
        WHERE
          s.depth < 50
      )
    SELECT
      id
    FROM
      scope_tree
  );
-- params: [1,2,3,3]

-- ContentRepository.existingIds (tags)
SELECT
  "id"
FROM
  "tags"
WHERE
  "id" IN ($1);
-- params: [4]

-- ContentRepository.links
SELECT
  "group_id" AS s,
  "tag_id" AS o
FROM
  "group_tags"
WHERE
  "group_id" IN ($1, $2);
-- params: [1,2]

-- ContentRepository.links (note groups)
SELECT
  "note_id" AS s,
  "group_id" AS o
FROM
  "groups_related_notes"
WHERE
  "note_id" IN ($1);
-- params: [5]

-- ContentRepository.unlink
DELETE FROM "group_tags"
WHERE
  (
    "group_id" = $1
    AND "tag_id" = $2
  )
  OR (
    "group_id" = $3
    AND "tag_id" = $4
  );
-- params: [1,4,2,4]

-- ContentRepository.link
INSERT INTO
  "groups_related_notes" ("note_id", "group_id")
VALUES
  ($1, $2),
  ($3, $4);
-- params: [5,1,5,2]

-- ContentRepository.hookRows
SELECT
  "id",
  "name",
  "description",
  "meta"
FROM
  "notes"
WHERE
  "id" IN ($1, $2)
ORDER BY
  "id";
-- params: [5,7]

-- ContentRepository.metaRows
SELECT
  "id",
  "name",
  "meta",
  "category_id" AS "carrier_id"
FROM
  "groups"
WHERE
  "id" IN ($1, $2)
ORDER BY
  "id";
-- params: [1,2]

-- ContentRepository.metaRows (resources)
SELECT
  "id",
  "name",
  "meta",
  "resource_category_id" AS "carrier_id"
FROM
  "resources"
WHERE
  "id" IN ($1)
ORDER BY
  "id";
-- params: [6]

-- ContentRepository.carrierSchema
SELECT
  "name",
  "meta_schema"
FROM
  "resource_categories"
WHERE
  "id" = $1;
-- params: [3]

-- ContentRepository.writeHookFields
UPDATE "groups"
SET
  "name" = $1,
  "description" = $2,
  "meta" = $3
WHERE
  "id" = $4;
-- params: ["n","d","{\"a\":1}",1]

-- ContentRepository.writeMeta
UPDATE "notes"
SET
  "meta" = $1
WHERE
  "id" = $2;
-- params: ["{\"a\":1}",5]

-- ContentRepository.readMeta
SELECT
  "meta"
FROM
  "groups"
WHERE
  "id" = $1;
-- params: [1]

-- ContentRepository.ownerDiffers
SELECT
  "id"
FROM
  "groups"
WHERE
  "id" IN ($1, $2)
  AND (
    "owner_id" IS NULL
    OR "owner_id" <> $3
  );
-- params: [1,2,3]

-- ContentRepository.ownerDiffers (clear)
SELECT
  "id"
FROM
  "resources"
WHERE
  "id" IN ($1)
  AND "owner_id" IS NOT NULL;
-- params: [6]

-- ContentRepository.setOwner
UPDATE "groups"
SET
  "owner_id" = $1
WHERE
  "id" IN ($2, $3);
-- params: [3,1,2]

-- ContentRepository.touch
UPDATE "notes"
SET
  "updated_at" = $1
WHERE
  "id" IN ($2);
-- params: ["2024-06-01T12:00:00.000Z",5]
