-- ShareRepository.note
SELECT
  "id",
  "name",
  "share_token"
FROM
  "notes"
WHERE
  "id" = ?;
-- params: [7]

-- ShareRepository.shareOnce
UPDATE "notes"
SET
  "share_token" = ?,
  "share_created_at" = ?
WHERE
  "id" = ?
  AND "share_token" IS NULL;
-- params: ["AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA","2024-01-01T00:00:00.000Z",7]

SELECT
  "share_token"
FROM
  "notes"
WHERE
  "id" = ?;
-- params: [7]

-- ShareRepository.unshare
UPDATE "notes"
SET
  "share_token" = ?,
  "share_created_at" = ?
WHERE
  "id" IN (?, ?)
  AND "share_token" IS NOT NULL;
-- params: [null,null,7,8]

-- ShareRepository.byToken
SELECT
  *
FROM
  "notes"
WHERE
  "share_token" = ?;
-- params: ["AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"]

-- ShareRepository.sharedPage
SELECT
  "id",
  "name",
  "share_token",
  "share_created_at"
FROM
  "notes"
WHERE
  "share_token" IS NOT NULL
ORDER BY
  "share_created_at" DESC,
  "id" DESC
LIMIT
  ?
OFFSET
  ?;
-- params: [50,0]

-- ShareRepository.shareTemplate
SELECT
  "custom_header",
  "custom_css",
  "meta_schema",
  "apply_templates_to_shares"
FROM
  "note_types"
WHERE
  "id" = ?;
-- params: [3]

-- ShareRepository.resourcesWithHash
SELECT
  "id",
  "name",
  "content_type",
  "location",
  "storage_location"
FROM
  "resources"
WHERE
  "hash" = ?;
-- params: ["aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"]

-- ShareRepository.attached
SELECT
  "resource_id"
FROM
  "resource_notes"
WHERE
  "note_id" = ?
  AND "resource_id" IN (?, ?);
-- params: [7,1,2]

-- ShareRepository.galleryContents
SELECT
  "content"
FROM
  "note_blocks"
WHERE
  "note_id" = ?
  AND "type" = ?;
-- params: [7,"gallery"]
