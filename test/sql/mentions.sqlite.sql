-- MentionRepository.description
SELECT
  "description"
FROM
  "groups"
WHERE
  "id" = ?;
-- params: [4]

-- MentionRepository.textBlocks
SELECT
  "content"
FROM
  "note_blocks"
WHERE
  "note_id" = ?
  AND "type" = ?;
-- params: [9,"text"]

-- MentionRepository.linked
SELECT
  "note_id" AS other
FROM
  "groups_related_notes"
WHERE
  "group_id" = ?;
-- params: [4]
