-- ServeRepository.filesAt
SELECT
  c.id,
  c.filename,
  c.content_type,
  c.size,
  c.content_hash,
  c.created_at
FROM
  clip_tags ct
  JOIN clips c ON c.id = ct.clip_id
WHERE
  ct.tag_id = ?
  AND c.is_archived = 0
  AND (
    c.expires_at IS NULL
    OR c.expires_at > ?
  )
ORDER BY
  c.created_at,
  c.id;
-- params: [5,"2024-06-01T12:00:00.000Z"]
