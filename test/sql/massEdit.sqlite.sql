-- ContentRepository.existingIds
SELECT
  "id"
FROM
  "groups"
WHERE
  "id" IN (?, ?, ?)
  AND "groups"."id" IN (
    WITH RECURSIVE
      scope_tree (id, depth) AS (
        SELECT
          id,
          0
        FROM
          "groups"
        WHERE
          id = ?
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
  "id" IN (?);
-- params: [4]

-- ContentRepository.links
SELECT
  "group_id" AS s,
  "tag_id" AS o
FROM
  "group_tags"
WHERE
  "group_id" IN (?, ?);
-- params: [1,2]

-- ContentRepository.links (note groups)
SELECT
  "note_id" AS s,
  "group_id" AS o
FROM
  "groups_related_notes"
WHERE
  "note_id" IN (?);
-- params: [5]

-- ContentRepository.unlink
DELETE FROM "group_tags"
WHERE
  (
    "group_id" = ?
    AND "tag_id" = ?
  )
  OR (
    "group_id" = ?
    AND "tag_id" = ?
  );
-- params: [1,4,2,4]

-- ContentRepository.link
INSERT INTO
  "groups_related_notes" ("note_id", "group_id")
VALUES
  (?, ?),
  (?, ?);
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
  "id" IN (?, ?)
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
  "id" IN (?, ?)
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
  "id" IN (?)
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
  "id" = ?;
-- params: [3]

-- ContentRepository.writeHookFields
UPDATE "groups"
SET
  "name" = ?,
  "description" = ?,
  "meta" = ?
WHERE
  "id" = ?;
-- params: ["n","d","{\"a\":1}",1]

-- ContentRepository.writeMeta
UPDATE "notes"
SET
  "meta" = ?
WHERE
  "id" = ?;
-- params: ["{\"a\":1}",5]

-- ContentRepository.readMeta
SELECT
  "meta"
FROM
  "groups"
WHERE
  "id" = ?;
-- params: [1]

-- ContentRepository.ownerDiffers
SELECT
  "id"
FROM
  "groups"
WHERE
  "id" IN (?, ?)
  AND (
    "owner_id" IS NULL
    OR "owner_id" <> ?
  );
-- params: [1,2,3]

-- ContentRepository.ownerDiffers (clear)
SELECT
  "id"
FROM
  "resources"
WHERE
  "id" IN (?)
  AND "owner_id" IS NOT NULL;
-- params: [6]

-- ContentRepository.setOwner
UPDATE "groups"
SET
  "owner_id" = ?
WHERE
  "id" IN (?, ?);
-- params: [3,1,2]

-- ContentRepository.touch
UPDATE "notes"
SET
  "updated_at" = ?
WHERE
  "id" IN (?);
-- params: ["2024-06-01T12:00:00.000Z",5]
