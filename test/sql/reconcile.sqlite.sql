-- FileReferenceRepository.referenced (main filesystem)
SELECT
  "location"
FROM
  "resources"
WHERE
  "location" IN (?, ?)
  AND (
    "storage_location" IS NULL
    OR "storage_location" = ?
  )
UNION
SELECT
  "location"
FROM
  "resource_versions"
WHERE
  "location" IN (?, ?)
  AND (
    "storage_location" IS NULL
    OR "storage_location" = ?
  );
-- params: ["/resources/aa/bb/cc/aabbcc.jpg","/resources/dd/ee/ff/ddeeff.png","","/resources/aa/bb/cc/aabbcc.jpg","/resources/dd/ee/ff/ddeeff.png",""]

-- FileReferenceRepository.referenced (alternative filesystem)
SELECT
  "location"
FROM
  "resources"
WHERE
  "location" IN (?)
  AND "storage_location" = ?
UNION
SELECT
  "location"
FROM
  "resource_versions"
WHERE
  "location" IN (?)
  AND "storage_location" = ?;
-- params: ["/resources/aa/bb/cc/aabbcc.jpg","archive","/resources/aa/bb/cc/aabbcc.jpg","archive"]
