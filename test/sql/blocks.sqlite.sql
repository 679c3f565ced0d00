-- BlockRepository.note
SELECT
  "id",
  "name",
  "description",
  "note_type_id"
FROM
  "notes"
WHERE
  "id" = ?
  AND 1 = 1;
-- params: [7]

-- BlockRepository.note (confined)
SELECT
  "id",
  "name",
  "description",
  "note_type_id"
FROM
  "notes"
WHERE
  "id" = ?
  AND "notes"."owner_id" IN (
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
-- params: [7,3]

-- BlockRepository.find
SELECT
  *
FROM
  "note_blocks"
WHERE
  "id" = ?
  AND 1 = 1;
-- params: [12]

-- BlockRepository.find (confined)
SELECT
  *
FROM
  "note_blocks"
WHERE
  "id" = ?
  AND EXISTS (
    SELECT
      1
    FROM
      "notes" vis_e
    WHERE
      vis_e.id = "note_blocks"."note_id"
      AND "vis_e"."owner_id" IN (
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
      )
  );
-- params: [12,3]

-- BlockRepository.filterFacts
SELECT
  "notes"."note_type_id",
  "groups"."category_id"
FROM
  "notes"
  LEFT JOIN "groups" ON "groups"."id" = "notes"."owner_id"
WHERE
  "notes"."id" = ?;
-- params: [7]

-- BlockRepository.ofNote
SELECT
  *
FROM
  "note_blocks"
WHERE
  "note_id" = ?
ORDER BY
  "position",
  "id";
-- params: [7]

-- BlockRepository.positions
SELECT
  "id",
  "position"
FROM
  "note_blocks"
WHERE
  "note_id" = ?
ORDER BY
  "position",
  "id";
-- params: [7]

-- BlockRepository.lastPosition
SELECT
  "position"
FROM
  "note_blocks"
WHERE
  "note_id" = ?
ORDER BY
  "position" DESC
LIMIT
  ?;
-- params: [7,1]

-- BlockRepository.longestPosition
SELECT
  "position"
FROM
  "note_blocks"
WHERE
  "note_id" = ?
ORDER BY
  length(position) DESC
LIMIT
  ?;
-- params: [7,1]

-- BlockRepository.firstText
SELECT
  "id",
  "position",
  "content"
FROM
  "note_blocks"
WHERE
  "note_id" = ?
  AND "type" = ?
ORDER BY
  "position",
  "id"
LIMIT
  ?;
-- params: [7,"text",1]

-- BlockRepository.insert
INSERT INTO
  "note_blocks" ("created_at", "updated_at", "created_by_user_id", "note_id", "type", "position", "content", "state")
VALUES
  (?, ?, ?, ?, ?, ?, ?, ?)
RETURNING
  "id";
-- params: ["2024-01-01T00:00:00.000Z","2024-01-01T00:00:00.000Z",1,7,"text","n","{\"text\":\"\"}","{}"]

-- BlockRepository.update
UPDATE "note_blocks"
SET
  "state" = ?,
  "updated_at" = ?
WHERE
  "id" = ?;
-- params: ["{\"checked\":[\"a\"]}","2024-01-01T00:00:00.000Z",12]

-- BlockRepository.move
UPDATE "note_blocks"
SET
  "position" = ?,
  "updated_at" = ?
WHERE
  "id" = ?
  AND "note_id" = ?;
-- params: ["g","2024-01-01T00:00:00.000Z",12,7]

-- BlockRepository.remove
DELETE FROM "note_blocks"
WHERE
  "id" = ?;
-- params: [12]

-- BlockRepository.existing
SELECT
  "id"
FROM
  "queries"
WHERE
  "id" IN (?, ?)
  AND 1 = 1;
-- params: [3,4]

-- BlockRepository.existing (resources, confined)
SELECT
  "id"
FROM
  "resources"
WHERE
  "id" IN (?, ?)
  AND "resources"."owner_id" IN (
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
-- params: [3,4,3]

-- BlockRepository.existing (groups, confined)
SELECT
  "id"
FROM
  "groups"
WHERE
  "id" IN (?)
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
-- params: [3,3]

-- BlockRepository.setNoteDescription
UPDATE "notes"
SET
  "description" = ?,
  "updated_at" = ?
WHERE
  "id" = ?
  AND "description" <> ?;
-- params: ["first line","2024-06-01T12:00:00.000Z",7,"first line"]

-- BlockViewRepository.galleryResources
SELECT
  "id",
  "name",
  "hash",
  "content_type"
FROM
  "resources"
WHERE
  "id" IN (?, ?)
  AND 1 = 1;
-- params: [1,2]

-- BlockViewRepository.galleryResources (confined)
SELECT
  "id",
  "name",
  "hash",
  "content_type"
FROM
  "resources"
WHERE
  "id" IN (?, ?)
  AND "resources"."owner_id" IN (
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
-- params: [1,2,3]

-- BlockViewRepository.referencedGroups
SELECT
  "groups"."id",
  "groups"."name",
  "groups"."description",
  "categories"."name" AS "category"
FROM
  "groups"
  LEFT JOIN "categories" ON "categories"."id" = "groups"."category_id"
WHERE
  "groups"."id" IN (?)
  AND 1 = 1;
-- params: [3]

-- BlockViewRepository.referencedGroups (confined)
SELECT
  "groups"."id",
  "groups"."name",
  "groups"."description",
  "categories"."name" AS "category"
FROM
  "groups"
  LEFT JOIN "categories" ON "categories"."id" = "groups"."category_id"
WHERE
  "groups"."id" IN (?)
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
-- params: [3,3]

-- BlockViewRepository.storedFile
SELECT
  "id",
  "hash",
  "location",
  "storage_location"
FROM
  "resources"
WHERE
  "id" = ?
  AND 1 = 1;
-- params: [4]

-- BlockViewRepository.storedFile (confined)
SELECT
  "id",
  "hash",
  "location",
  "storage_location"
FROM
  "resources"
WHERE
  "id" = ?
  AND "resources"."owner_id" IN (
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
-- params: [4,3]
