-- BlockRepository.note
SELECT
  "id",
  "name",
  "description",
  "note_type_id"
FROM
  "notes"
WHERE
  "id" = ?;
-- params: [7]

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

-- BlockRepository.find
SELECT
  *
FROM
  "note_blocks"
WHERE
  "id" = ?;
-- params: [12]

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
  "id" IN (?, ?);
-- params: [3,4]

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
  "id" IN (?, ?);
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
  "groups"."id" IN (?);
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
  "id" = ?;
-- params: [4]
