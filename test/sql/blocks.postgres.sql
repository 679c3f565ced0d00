-- BlockRepository.note
SELECT
  "id",
  "name",
  "description",
  "note_type_id"
FROM
  "notes"
WHERE
  "id" = $1;
-- params: [7]

-- BlockRepository.filterFacts
SELECT
  "notes"."note_type_id",
  "groups"."category_id"
FROM
  "notes"
  LEFT JOIN "groups" ON "groups"."id" = "notes"."owner_id"
WHERE
  "notes"."id" = $1;
-- params: [7]

-- BlockRepository.find
SELECT
  *
FROM
  "note_blocks"
WHERE
  "id" = $1;
-- params: [12]

-- BlockRepository.ofNote
SELECT
  *
FROM
  "note_blocks"
WHERE
  "note_id" = $1
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
  "note_id" = $1
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
  "note_id" = $1
ORDER BY
  "position" DESC
LIMIT
  $2;
-- params: [7,1]

-- BlockRepository.longestPosition
SELECT
  "position"
FROM
  "note_blocks"
WHERE
  "note_id" = $1
ORDER BY
  length(position) DESC
LIMIT
  $2;
-- params: [7,1]

-- BlockRepository.firstText
SELECT
  "id",
  "position",
  "content"
FROM
  "note_blocks"
WHERE
  "note_id" = $1
  AND "type" = $2
ORDER BY
  "position",
  "id"
LIMIT
  $3;
-- params: [7,"text",1]

-- BlockRepository.insert
INSERT INTO
  "note_blocks" ("created_at", "updated_at", "created_by_user_id", "note_id", "type", "position", "content", "state")
VALUES
  ($1, $2, $3, $4, $5, $6, $7, $8)
RETURNING
  "id";
-- params: ["2024-01-01T00:00:00.000Z","2024-01-01T00:00:00.000Z",1,7,"text","n","{\"text\":\"\"}","{}"]

-- BlockRepository.update
UPDATE "note_blocks"
SET
  "state" = $1,
  "updated_at" = $2
WHERE
  "id" = $3;
-- params: ["{\"checked\":[\"a\"]}","2024-01-01T00:00:00.000Z",12]

-- BlockRepository.move
UPDATE "note_blocks"
SET
  "position" = $1,
  "updated_at" = $2
WHERE
  "id" = $3
  AND "note_id" = $4;
-- params: ["g","2024-01-01T00:00:00.000Z",12,7]

-- BlockRepository.remove
DELETE FROM "note_blocks"
WHERE
  "id" = $1;
-- params: [12]

-- BlockRepository.existing
SELECT
  "id"
FROM
  "queries"
WHERE
  "id" IN ($1, $2);
-- params: [3,4]

-- BlockRepository.setNoteDescription
UPDATE "notes"
SET
  "description" = $1,
  "updated_at" = $2
WHERE
  "id" = $3
  AND "description" <> $4;
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
  "id" IN ($1, $2);
-- params: [1,2]

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
  "groups"."id" IN ($1);
-- params: [3]

-- BlockViewRepository.storedFile
SELECT
  "id",
  "hash",
  "location",
  "storage_location"
FROM
  "resources"
WHERE
  "id" = $1;
-- params: [4]
