-- DedupRepository.groups
SELECT
  content_hash,
  MIN(filename) AS filename,
  MIN(content_type) AS content_type,
  COUNT(*) AS count,
  MIN(id) AS oldest_id
FROM
  clips c
WHERE
  content_hash <> ''
  AND (
    c.expires_at IS NULL
    OR c.expires_at > ?
  )
GROUP BY
  content_hash
HAVING
  COUNT(*) > 1
ORDER BY
  count DESC,
  content_hash ASC;
-- params: ["2024-06-01T12:00:00.000Z"]

-- DedupRepository.duplicatesOf
SELECT
  id
FROM
  clips c
WHERE
  content_hash = ?
  AND id <> ?
  AND (
    c.expires_at IS NULL
    OR c.expires_at > ?
  )
ORDER BY
  id;
-- params: ["abababababababababababababababababababababababababababababababab",7,"2024-06-01T12:00:00.000Z"]
