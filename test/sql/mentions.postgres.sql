-- MentionRepository.description
SELECT
  "description"
FROM
  "groups"
WHERE
  "id" = $1;
-- params: [4]

-- MentionRepository.textBlocks
SELECT
  "content"
FROM
  "note_blocks"
WHERE
  "note_id" = $1
  AND "type" = $2;
-- params: [9,"text"]

-- MentionRepository.linked
SELECT
  "note_id" AS other
FROM
  "groups_related_notes"
WHERE
  "group_id" = $1;
-- params: [4]
