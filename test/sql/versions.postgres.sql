-- VersionRepository.find
SELECT
  *
FROM
  "resource_versions"
WHERE
  "id" = $1;
-- params: [3]

-- VersionRepository.listFor
SELECT
  *
FROM
  "resource_versions"
WHERE
  "resource_id" = $1
ORDER BY
  "version_number" DESC;
-- params: [7]

-- VersionRepository.allFor
SELECT
  *
FROM
  "resource_versions"
WHERE
  "resource_id" IN ($1, $2)
ORDER BY
  "resource_id",
  "version_number";
-- params: [7,8]

-- VersionRepository.numbered
SELECT
  *
FROM
  "resource_versions"
WHERE
  "resource_id" = $1
  AND "version_number" = $2;
-- params: [7,2]

-- VersionRepository.hasAny
SELECT
  "id"
FROM
  "resource_versions"
WHERE
  "resource_id" = $1
LIMIT
  $2;
-- params: [7,1]

-- VersionRepository.count
SELECT
  count(*) AS "n"
FROM
  "resource_versions"
WHERE
  "resource_id" = $1;
-- params: [7]

-- VersionRepository.lastNumber
SELECT
  COALESCE(MAX(version_number), 0) AS "n"
FROM
  "resource_versions"
WHERE
  "resource_id" = $1;
-- params: [7]

-- VersionRepository.insert
INSERT INTO
  "resource_versions" (
    "created_at",
    "updated_at",
    "created_by_user_id",
    "resource_id",
    "version_number",
    "hash",
    "hash_type",
    "file_size",
    "content_type",
    "width",
    "height",
    "location",
    "storage_location",
    "comment"
  )
VALUES
  ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
RETURNING
  *;
-- params: ["2024-01-01T00:00:00.000Z","2024-01-01T00:00:00.000Z",1,7,2,"bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb","SHA1",100,"image/png",10,10,"/resources/bb.png",null,"Rotated 90 degrees"]

-- VersionRepository.patch
UPDATE "resource_versions"
SET
  "resource_id" = $1,
  "version_number" = $2,
  "comment" = $3
WHERE
  "id" = $4;
-- params: [9,4,"Merged from resource #7",3]

-- VersionRepository.remove
DELETE FROM "resource_versions"
WHERE
  "id" IN ($1, $2);
-- params: [3,4]

-- VersionRepository.filesOf
SELECT
  "location",
  "storage_location"
FROM
  "resource_versions"
WHERE
  "resource_id" IN ($1);
-- params: [7]

-- VersionRepository.usesFile (main filesystem)
SELECT
  "id"
FROM
  "resource_versions"
WHERE
  "location" = $1
  AND "storage_location" IS NULL
LIMIT
  $2;
-- params: ["/resources/bb.png",1]

-- VersionRepository.usesFile (alternative filesystem)
SELECT
  "id"
FROM
  "resource_versions"
WHERE
  "location" = $1
  AND "storage_location" = $2
LIMIT
  $3;
-- params: ["/resources/bb.png","archive",1]

-- VersionRepository.withOlderVersions (every owner)
SELECT
  "id",
  "current_version_id"
FROM
  "resources"
WHERE
  "id" > $1
  AND (
    SELECT
      count(*)
    FROM
      resource_versions v
    WHERE
      v.resource_id = resources.id
  ) > 1
ORDER BY
  "id"
LIMIT
  $2;
-- params: [0,500]

-- VersionRepository.withOlderVersions (one owner)
SELECT
  "id",
  "current_version_id"
FROM
  "resources"
WHERE
  "id" > $1
  AND "owner_id" = $2
  AND (
    SELECT
      count(*)
    FROM
      resource_versions v
    WHERE
      v.resource_id = resources.id
  ) > 1
ORDER BY
  "id"
LIMIT
  $3;
-- params: [500,3,500]
