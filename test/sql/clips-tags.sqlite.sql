-- TagRepository.find
SELECT
  *
FROM
  "tags"
WHERE
  "id" = ?;
-- params: [5]

-- TagRepository.findByName
SELECT
  *
FROM
  "tags"
WHERE
  "name" = ?;
-- params: ["work/client"]

-- TagRepository.findMany
SELECT
  *
FROM
  "tags"
WHERE
  id IN (
    SELECT
      value
    FROM
      json_each(?)
  );
-- params: ["[1,2]"]

-- TagRepository.findByNames
SELECT
  *
FROM
  "tags"
WHERE
  "name" IN (?, ?);
-- params: ["work","work/client"]

-- TagRepository.list
SELECT
  *
FROM
  "tags"
ORDER BY
  "name";
-- params: []

-- TagRepository.list (subtree)
SELECT
  *
FROM
  "tags"
WHERE
  (
    "id" = ?
    OR (
      "name" >= ?
      AND "name" < ?
    )
  )
ORDER BY
  "name";
-- params: [5,"work/client/","work/client0"]

-- TagRepository.subtree
SELECT
  *
FROM
  "tags"
WHERE
  (
    "id" = ?
    OR (
      "name" >= ?
      AND "name" < ?
    )
  )
ORDER BY
  "name";
-- params: [5,"work/client/","work/client0"]

-- TagRepository.rootTree
SELECT
  *
FROM
  "tags"
WHERE
  (
    "name" = ?
    OR (
      "name" >= ?
      AND "name" < ?
    )
  );
-- params: ["work","work/","work0"]

-- TagRepository.children
SELECT
  *
FROM
  "tags"
WHERE
  "name" >= ?
  AND "name" < ?
  AND instr(substr(name, ?), '/') = 0
ORDER BY
  "name";
-- params: ["work/client/","work/client0",13]

-- TagRepository.countAll
SELECT
  count(*) AS "n"
FROM
  "tags";
-- params: []

-- TagRepository.counts
SELECT
  s.tag_id,
  s.links AS n
FROM
  tag_stats s
WHERE
  s.tag_id IN (
    SELECT
      value
    FROM
      json_each(?)
  )
  AND s.links > 0;
-- params: ["[1,2]"]

SELECT
  ct.tag_id,
  COUNT(*) AS n
FROM
  clips c
  CROSS JOIN clip_tags ct ON ct.clip_id = c.id
WHERE
  c.expires_at IS NOT NULL
  AND c.expires_at <= ?
  AND ct.tag_id IN (
    SELECT
      value
    FROM
      json_each(?)
  )
GROUP BY
  ct.tag_id;
-- params: ["2024-06-01T12:00:00.000Z","[1,2]"]

-- TagRepository.counts (all)
SELECT
  s.tag_id,
  s.links AS n
FROM
  tag_stats s
WHERE
  1 = 1
  AND s.links > 0;
-- params: []

SELECT
  ct.tag_id,
  COUNT(*) AS n
FROM
  clips c
  CROSS JOIN clip_tags ct ON ct.clip_id = c.id
WHERE
  c.expires_at IS NOT NULL
  AND c.expires_at <= ?
  AND 1 = 1
GROUP BY
  ct.tag_id;
-- params: ["2024-06-01T12:00:00.000Z"]

-- TagRepository.toJson
SELECT
  s.tag_id,
  s.links AS n
FROM
  tag_stats s
WHERE
  s.tag_id IN (
    SELECT
      value
    FROM
      json_each(?)
  )
  AND s.links > 0;
-- params: ["[5]"]

SELECT
  ct.tag_id,
  COUNT(*) AS n
FROM
  clips c
  CROSS JOIN clip_tags ct ON ct.clip_id = c.id
WHERE
  c.expires_at IS NOT NULL
  AND c.expires_at <= ?
  AND ct.tag_id IN (
    SELECT
      value
    FROM
      json_each(?)
  )
GROUP BY
  ct.tag_id;
-- params: ["2024-06-01T12:00:00.000Z","[5]"]

-- TagRepository.insert
INSERT INTO
  "tags" ("name", "color", "created_at")
VALUES
  (?, ?, ?)
RETURNING
  *;
-- params: ["work/client","#78716C","2024-06-01T12:00:00.000Z"]

-- TagRepository.setColor
UPDATE "tags"
SET
  "color" = ?
WHERE
  "id" = ?;
-- params: ["#EF4444",5]

-- TagRepository.parkNames
UPDATE tags
SET
  name = char(1) || id
WHERE
  id IN (
    SELECT
      value
    FROM
      json_each(?)
  );
-- params: ["[5,6]"]

-- TagRepository.setName
UPDATE "tags"
SET
  "name" = ?
WHERE
  "id" = ?;
-- params: ["work/customer",5]

-- TagRepository.delete
DELETE FROM "tags"
WHERE
  "id" = ?;
-- params: [5]

-- ClipTagRepository.carrying
SELECT
  "clip_id"
FROM
  "clip_tags"
WHERE
  "tag_id" = ?
  AND clip_id IN (
    SELECT
      value
    FROM
      json_each(?)
  );
-- params: [5,"[1,2]"]

-- ClipTagRepository.sameTreeLinks
SELECT
  clip_id,
  tag_id
FROM
  clip_tags
WHERE
  clip_id IN (
    SELECT
      value
    FROM
      json_each(?)
  )
  AND tag_id IN (
    SELECT
      id
    FROM
      tags
    WHERE
      id <> ?
      AND (
        name = ?
        OR (
          name >= ?
          AND name < ?
        )
      )
  )
ORDER BY
  clip_id,
  tag_id;
-- params: ["[1,2]",5,"work","work/","work0"]

-- ClipTagRepository.removeSameTree
DELETE FROM clip_tags
WHERE
  clip_id IN (
    SELECT
      value
    FROM
      json_each(?)
  )
  AND tag_id IN (
    SELECT
      id
    FROM
      tags
    WHERE
      id <> ?
      AND (
        name = ?
        OR (
          name >= ?
          AND name < ?
        )
      )
  );
-- params: ["[1,2]",5,"work","work/","work0"]

-- ClipTagRepository.insert
INSERT INTO
  clip_tags (clip_id, tag_id, added_at)
SELECT
  value,
  ?,
  ?
FROM
  json_each(?);
-- params: [5,"2024-06-01T12:00:00.000Z","[1,2]"]

-- ClipTagRepository.remove
DELETE FROM "clip_tags"
WHERE
  "tag_id" = ?
  AND clip_id IN (
    SELECT
      value
    FROM
      json_each(?)
  )
RETURNING
  "clip_id";
-- params: [5,"[1,2]"]
