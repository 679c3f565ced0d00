-- FileReferenceRepository.referenced (main filesystem)
SELECT
  "location"
FROM
  "resources"
WHERE
  "location" IN ($1, $2)
  AND (
    "storage_location" IS NULL
    OR "storage_location" = $3
  )
UNION
SELECT
  "location"
FROM
  "resource_versions"
WHERE
  "location" IN ($4, $5)
  AND (
    "storage_location" IS NULL
    OR "storage_location" = $6
  );
-- params: ["/resources/aa/bb/cc/aabbcc.jpg","/resources/dd/ee/ff/ddeeff.png","","/resources/aa/bb/cc/aabbcc.jpg","/resources/dd/ee/ff/ddeeff.png",""]

-- FileReferenceRepository.referenced (alternative filesystem)
SELECT
  "location"
FROM
  "resources"
WHERE
  "location" IN ($1)
  AND "storage_location" = $2
UNION
SELECT
  "location"
FROM
  "resource_versions"
WHERE
  "location" IN ($3)
  AND "storage_location" = $4;
-- params: ["/resources/aa/bb/cc/aabbcc.jpg","archive","/resources/aa/bb/cc/aabbcc.jpg","archive"]
