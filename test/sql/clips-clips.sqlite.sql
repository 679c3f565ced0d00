-- ClipRepository.insert
INSERT INTO
  "clips" (
    "filename",
    "content_type",
    "size",
    "content_hash",
    "text_content",
    "is_archived",
    "expires_at",
    "created_at"
  )
VALUES
  (?, ?, ?, ?, ?, ?, ?, ?)
RETURNING
  "id";
-- params: ["a.txt","text/plain",5,"abababababababababababababababababababababababababababababababab","hello",0,null,"2024-06-01T12:00:00.000Z"]

-- ClipRepository.insertOrFindSync (no live clip with these bytes)
BEGIN;
-- params: []

SELECT
  "c"."id",
  "c"."filename",
  "c"."content_type",
  "c"."size",
  "c"."content_hash",
  "c"."is_archived",
  "c"."expires_at",
  "c"."created_at"
FROM
  "clips" AS "c"
WHERE
  "c"."content_hash" = ?
  AND (
    c.expires_at IS NULL
    OR c.expires_at > ?
  )
ORDER BY
  "c"."id"
LIMIT
  ?;
-- params: ["abababababababababababababababababababababababababababababababab","2024-06-01T12:00:00.000Z",1]

INSERT INTO
  "clips" (
    "filename",
    "content_type",
    "size",
    "content_hash",
    "text_content",
    "is_archived",
    "expires_at",
    "created_at"
  )
VALUES
  (?, ?, ?, ?, ?, ?, ?, ?)
RETURNING
  "id";
-- params: ["a.txt","text/plain",5,"abababababababababababababababababababababababababababababababab","hello",0,null,"2024-06-01T12:00:00.000Z"]

COMMIT;
-- params: []

-- ClipRepository.insertOrFindSync (without dedup)
BEGIN;
-- params: []

INSERT INTO
  "clips" (
    "filename",
    "content_type",
    "size",
    "content_hash",
    "text_content",
    "is_archived",
    "expires_at",
    "created_at"
  )
VALUES
  (?, ?, ?, ?, ?, ?, ?, ?)
RETURNING
  "id";
-- params: ["a.txt","text/plain",5,"abababababababababababababababababababababababababababababababab","hello",0,null,"2024-06-01T12:00:00.000Z"]

COMMIT;
-- params: []

-- ClipRepository.insertOrFindSync (journaled bytes)
BEGIN;
-- params: []

INSERT INTO
  "blob_journal" ("hash", "written_at", "bytes")
VALUES
  (?, ?, ?)
ON CONFLICT ("hash") DO UPDATE
SET
  "written_at" = "excluded"."written_at";
-- params: ["abababababababababababababababababababababababababababababababab",1717243200000,{"type":"Buffer","data":[104,101,108,108,111]}]

INSERT INTO
  "clips" (
    "filename",
    "content_type",
    "size",
    "content_hash",
    "text_content",
    "is_archived",
    "expires_at",
    "created_at"
  )
VALUES
  (?, ?, ?, ?, ?, ?, ?, ?)
RETURNING
  "id";
-- params: ["a.txt","text/plain",5,"abababababababababababababababababababababababababababababababab","hello",0,null,"2024-06-01T12:00:00.000Z"]

COMMIT;
-- params: []

-- ClipRepository.insertOrFindManySync (two uploads in one transaction)
BEGIN;
-- params: []

BEGIN;
-- params: []

SELECT
  "c"."id",
  "c"."filename",
  "c"."content_type",
  "c"."size",
  "c"."content_hash",
  "c"."is_archived",
  "c"."expires_at",
  "c"."created_at"
FROM
  "clips" AS "c"
WHERE
  "c"."content_hash" = ?
  AND (
    c.expires_at IS NULL
    OR c.expires_at > ?
  )
ORDER BY
  "c"."id"
LIMIT
  ?;
-- params: ["abababababababababababababababababababababababababababababababab","2024-06-01T12:00:00.000Z",1]

INSERT INTO
  "clips" (
    "filename",
    "content_type",
    "size",
    "content_hash",
    "text_content",
    "is_archived",
    "expires_at",
    "created_at"
  )
VALUES
  (?, ?, ?, ?, ?, ?, ?, ?)
RETURNING
  "id";
-- params: ["a.txt","text/plain",5,"abababababababababababababababababababababababababababababababab","hello",0,null,"2024-06-01T12:00:00.000Z"]

COMMIT;
-- params: []

BEGIN;
-- params: []

INSERT INTO
  "clips" (
    "filename",
    "content_type",
    "size",
    "content_hash",
    "text_content",
    "is_archived",
    "expires_at",
    "created_at"
  )
VALUES
  (?, ?, ?, ?, ?, ?, ?, ?)
RETURNING
  "id";
-- params: ["b.txt","text/plain",5,"abababababababababababababababababababababababababababababababab","hello",0,null,"2024-06-01T12:00:00.000Z"]

COMMIT;
-- params: []

COMMIT;
-- params: []

-- ClipRepository.replaceContent
SELECT
  "content_hash",
  "content_type"
FROM
  "clips"
WHERE
  "id" = ?;
-- params: [7]

-- ClipRepository.list (no filter)
SELECT
  c.id,
  c.filename,
  c.content_type,
  c.size,
  c.content_hash,
  c.is_archived,
  c.expires_at,
  c.created_at
FROM
  clips c
WHERE
  (
    c.expires_at IS NULL
    OR c.expires_at > ?
  )
ORDER BY
  c.created_at DESC,
  c.id DESC
LIMIT
  ?
OFFSET
  ?;
-- params: ["2024-06-01T12:00:00.000Z",50,0]

-- ClipRepository.list (scope, subtree, exact tag, type, archived, search, hidden)
SELECT
  COUNT(*) AS n
FROM
  (
    SELECT
      rowid
    FROM
      clip_search
    WHERE
      clip_search MATCH ?
    LIMIT
      ?
  );
-- params: ["\"50%_off\"",5001]

SELECT
  c.id,
  c.filename,
  c.content_type,
  c.size,
  c.content_hash,
  c.is_archived,
  c.expires_at,
  c.created_at
FROM
  clips c
WHERE
  (
    c.expires_at IS NULL
    OR c.expires_at > ?
  )
  AND EXISTS (
    SELECT
      1
    FROM
      clip_tree st
    WHERE
      st.tag_id = ?
      AND st.clip_id = c.id
  )
  AND EXISTS (
    SELECT
      1
    FROM
      clip_tree st
    WHERE
      st.tag_id = ?
      AND st.clip_id = c.id
  )
  AND EXISTS (
    SELECT
      1
    FROM
      clip_tags et
    WHERE
      et.clip_id = c.id
      AND et.tag_id = ?
  )
  AND c.content_type = ?
  AND c.is_archived = ?
  AND c.id IN (
    SELECT
      rowid
    FROM
      clip_search
    WHERE
      clip_search MATCH ?
  )
  AND (
    c.filename LIKE ? ESCAPE '\'
    OR c.text_content LIKE ? ESCAPE '\'
  )
  AND NOT EXISTS (
    SELECT
      1
    FROM
      clip_tags ht
    WHERE
      ht.clip_id = c.id
      AND ht.tag_id IN (
        SELECT
          value
        FROM
          json_each(?)
      )
  )
ORDER BY
  c.created_at DESC,
  c.id DESC
LIMIT
  ?
OFFSET
  ?;
-- params: ["2024-06-01T12:00:00.000Z",3,5,9,"text/plain",0,"\"50%_off\"","%50\\%\\_off%","%50\\%\\_off%","[4,6]",20,40]

-- ClipRepository.list (search of two characters: no trigram)
SELECT
  c.id,
  c.filename,
  c.content_type,
  c.size,
  c.content_hash,
  c.is_archived,
  c.expires_at,
  c.created_at
FROM
  clips c
WHERE
  (
    c.expires_at IS NULL
    OR c.expires_at > ?
  )
  AND (
    c.filename LIKE ? ESCAPE '\'
    OR c.text_content LIKE ? ESCAPE '\'
  )
ORDER BY
  c.created_at DESC,
  c.id DESC
LIMIT
  ?
OFFSET
  ?;
-- params: ["2024-06-01T12:00:00.000Z","%#7%","%#7%",50,0]

-- ClipRepository.list (nothing matches)
SELECT
  c.id,
  c.filename,
  c.content_type,
  c.size,
  c.content_hash,
  c.is_archived,
  c.expires_at,
  c.created_at
FROM
  clips c
WHERE
  (
    c.expires_at IS NULL
    OR c.expires_at > ?
  )
  AND 0
ORDER BY
  c.created_at DESC,
  c.id DESC
LIMIT
  ?
OFFSET
  ?;
-- params: ["2024-06-01T12:00:00.000Z",50,0]

-- ClipRepository.count (no filter)
SELECT
  (
    SELECT
      COUNT(*)
    FROM
      clips c
  ) - (
    SELECT
      COUNT(*)
    FROM
      clips c
    WHERE
      c.expires_at IS NOT NULL
      AND c.expires_at <= ?
  ) AS n;
-- params: ["2024-06-01T12:00:00.000Z"]

-- ClipRepository.count (tag subtrees only)
SELECT
  (
    SELECT
      COUNT(*)
    FROM
      (
        SELECT
          clip_id
        FROM
          "clip_tree"
        WHERE
          tag_id = ?
        INTERSECT
        SELECT
          clip_id
        FROM
          "clip_tags"
        WHERE
          tag_id = ?
      )
  ) - (
    SELECT
      COUNT(*)
    FROM
      clips c
    WHERE
      c.expires_at IS NOT NULL
      AND c.expires_at <= ?
      AND EXISTS (
        SELECT
          1
        FROM
          clip_tree st
        WHERE
          st.tag_id = ?
          AND st.clip_id = c.id
      )
      AND EXISTS (
        SELECT
          1
        FROM
          clip_tree st
        WHERE
          st.tag_id = ?
          AND st.clip_id = c.id
      )
      AND EXISTS (
        SELECT
          1
        FROM
          clip_tags et
        WHERE
          et.clip_id = c.id
          AND et.tag_id = ?
      )
  ) AS n;
-- params: [5,9,"2024-06-01T12:00:00.000Z",3,5,9]

-- ClipRepository.count (archived)
SELECT
  (
    SELECT
      COUNT(*)
    FROM
      clips c
    WHERE
      c.is_archived = ?
  ) - (
    SELECT
      COUNT(*)
    FROM
      clips c
    WHERE
      c.expires_at IS NOT NULL
      AND c.expires_at <= ?
      AND c.is_archived = ?
  ) AS n;
-- params: [1,"2024-06-01T12:00:00.000Z",1]

-- ClipRepository.count (search, hidden)
SELECT
  COUNT(*) AS n
FROM
  (
    SELECT
      rowid
    FROM
      clip_search
    WHERE
      clip_search MATCH ?
    LIMIT
      ?
  );
-- params: ["\"needle\"",5001]

SELECT
  (
    SELECT
      COUNT(*)
    FROM
      clips c
    WHERE
      c.id IN (
        SELECT
          st.clip_id
        FROM
          clip_tree st
        WHERE
          st.tag_id = ?
      )
      AND c.id IN (
        SELECT
          rowid
        FROM
          clip_search
        WHERE
          clip_search MATCH ?
      )
      AND (
        c.filename LIKE ? ESCAPE '\'
        OR c.text_content LIKE ? ESCAPE '\'
      )
      AND c.id NOT IN (
        SELECT
          ht.clip_id
        FROM
          clip_tags ht
        WHERE
          ht.tag_id IN (
            SELECT
              value
            FROM
              json_each(?)
          )
      )
  ) - (
    SELECT
      COUNT(*)
    FROM
      clips c
    WHERE
      c.expires_at IS NOT NULL
      AND c.expires_at <= ?
      AND EXISTS (
        SELECT
          1
        FROM
          clip_tree st
        WHERE
          st.tag_id = ?
          AND st.clip_id = c.id
      )
      AND (
        c.filename LIKE ? ESCAPE '\'
        OR c.text_content LIKE ? ESCAPE '\'
      )
      AND NOT EXISTS (
        SELECT
          1
        FROM
          clip_tags ht
        WHERE
          ht.clip_id = c.id
          AND ht.tag_id IN (
            SELECT
              value
            FROM
              json_each(?)
          )
      )
  ) AS n;
-- params: [3,"\"needle\"","%needle%","%needle%","[4]","2024-06-01T12:00:00.000Z",3,"%needle%","%needle%","[4]"]

-- ClipRepository.count (hidden only)
SELECT
  (
    (
      SELECT
        COUNT(*)
      FROM
        clips
    ) - (
      SELECT
        COUNT(*)
      FROM
        (
          SELECT DISTINCT
            clip_id
          FROM
            clip_tags
          WHERE
            tag_id IN (
              SELECT
                value
              FROM
                json_each(?)
            )
        )
    )
  ) - (
    SELECT
      COUNT(*)
    FROM
      clips c
    WHERE
      c.expires_at IS NOT NULL
      AND c.expires_at <= ?
      AND NOT EXISTS (
        SELECT
          1
        FROM
          clip_tags ht
        WHERE
          ht.clip_id = c.id
          AND ht.tag_id IN (
            SELECT
              value
            FROM
              json_each(?)
          )
      )
  ) AS n;
-- params: ["[4,6]","2024-06-01T12:00:00.000Z","[4,6]"]

-- ClipRepository.count (one subtree inside the scope, hidden)
SELECT
  (
    (
      SELECT
        COALESCE(MAX("tree"), 0)
      FROM
        tag_stats
      WHERE
        tag_id = ?
    ) - (
      SELECT
        COUNT(*)
      FROM
        (
          SELECT DISTINCT
            clip_id
          FROM
            clip_tags
          WHERE
            tag_id IN (
              SELECT
                value
              FROM
                json_each(?)
            )
        ) h
      WHERE
        EXISTS (
          SELECT
            1
          FROM
            "clip_tree"
          WHERE
            tag_id = ?
            AND clip_id = h.clip_id
        )
    )
  ) - (
    SELECT
      COUNT(*)
    FROM
      clips c
    WHERE
      c.expires_at IS NOT NULL
      AND c.expires_at <= ?
      AND EXISTS (
        SELECT
          1
        FROM
          clip_tree st
        WHERE
          st.tag_id = ?
          AND st.clip_id = c.id
      )
      AND EXISTS (
        SELECT
          1
        FROM
          clip_tree st
        WHERE
          st.tag_id = ?
          AND st.clip_id = c.id
      )
      AND NOT EXISTS (
        SELECT
          1
        FROM
          clip_tags ht
        WHERE
          ht.clip_id = c.id
          AND ht.tag_id IN (
            SELECT
              value
            FROM
              json_each(?)
          )
      )
  ) AS n;
-- params: [5,"[4]",5,"2024-06-01T12:00:00.000Z",3,5,"[4]"]

-- ClipRepository.count (exact tag only)
SELECT
  (
    SELECT
      COALESCE(MAX("links"), 0)
    FROM
      tag_stats
    WHERE
      tag_id = ?
  ) - (
    SELECT
      COUNT(*)
    FROM
      clips c
    WHERE
      c.expires_at IS NOT NULL
      AND c.expires_at <= ?
      AND EXISTS (
        SELECT
          1
        FROM
          clip_tags et
        WHERE
          et.clip_id = c.id
          AND et.tag_id = ?
      )
  ) AS n;
-- params: [9,"2024-06-01T12:00:00.000Z",9]

-- ClipRepository.searchIsRare
SELECT
  COUNT(*) AS n
FROM
  (
    SELECT
      rowid
    FROM
      clip_search
    WHERE
      clip_search MATCH ?
    LIMIT
      ?
  );
-- params: ["\"say \"\"hi\"\"\"",5001]

-- ClipRepository.hiddenInfo
SELECT
  COUNT(*) AS n
FROM
  clips c
WHERE
  (
    c.expires_at IS NULL
    OR c.expires_at > ?
  )
  AND c.id IN (
    SELECT
      st.clip_id
    FROM
      clip_tree st
    WHERE
      st.tag_id = ?
  )
  AND EXISTS (
    SELECT
      1
    FROM
      clip_tags hx
    WHERE
      hx.clip_id = c.id
      AND hx.tag_id IN (
        SELECT
          value
        FROM
          json_each(?)
      )
  );
-- params: ["2024-06-01T12:00:00.000Z",3,"[4,6]"]

SELECT DISTINCT
  t.name
FROM
  clips c
  JOIN clip_tags hx ON hx.clip_id = c.id
  JOIN tags t ON t.id = hx.tag_id
WHERE
  (
    c.expires_at IS NULL
    OR c.expires_at > ?
  )
  AND c.id IN (
    SELECT
      st.clip_id
    FROM
      clip_tree st
    WHERE
      st.tag_id = ?
  )
  AND hx.tag_id IN (
    SELECT
      value
    FROM
      json_each(?)
  )
ORDER BY
  t.name;
-- params: ["2024-06-01T12:00:00.000Z",3,"[4,6]"]

-- ClipRepository.findLive
SELECT
  c.id,
  c.filename,
  c.content_type,
  c.size,
  c.content_hash,
  c.is_archived,
  c.expires_at,
  c.created_at
FROM
  clips c
WHERE
  c.id = ?
  AND (
    c.expires_at IS NULL
    OR c.expires_at > ?
  );
-- params: [7,"2024-06-01T12:00:00.000Z"]

-- ClipRepository.findLiveMany
SELECT
  c.id,
  c.filename,
  c.content_type,
  c.size,
  c.content_hash,
  c.is_archived,
  c.expires_at,
  c.created_at
FROM
  clips c
WHERE
  c.id IN (
    SELECT
      value
    FROM
      json_each(?)
  )
  AND (
    c.expires_at IS NULL
    OR c.expires_at > ?
  )
ORDER BY
  c.id;
-- params: ["[1,2,3]","2024-06-01T12:00:00.000Z"]

-- ClipRepository.findLiveByHash
SELECT
  "c"."id",
  "c"."filename",
  "c"."content_type",
  "c"."size",
  "c"."content_hash",
  "c"."is_archived",
  "c"."expires_at",
  "c"."created_at"
FROM
  "clips" AS "c"
WHERE
  "c"."content_hash" = ?
  AND (
    c.expires_at IS NULL
    OR c.expires_at > ?
  )
ORDER BY
  "c"."id"
LIMIT
  ?;
-- params: ["abababababababababababababababababababababababababababababababab","2024-06-01T12:00:00.000Z",1]

-- ClipRepository.countInScope
SELECT
  COUNT(*) AS n
FROM
  clips c
WHERE
  c.id IN (
    SELECT
      value
    FROM
      json_each(?)
  )
  AND EXISTS (
    SELECT
      1
    FROM
      clip_tree st
    WHERE
      st.tag_id = ?
      AND st.clip_id = c.id
  );
-- params: ["[1,2]",3]

-- ClipRepository.referencedAmong
SELECT DISTINCT
  "content_hash"
FROM
  "clips"
WHERE
  "content_hash" IN (?, ?);
-- params: ["abababababababababababababababababababababababababababababababab","cdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcd"]

-- ClipRepository.referenced
SELECT
  "id"
FROM
  "clips"
WHERE
  "content_hash" = ?
LIMIT
  ?;
-- params: ["abababababababababababababababababababababababababababababababab",1]

-- ClipRepository.contentHashesAfter (first page)
SELECT DISTINCT
  "content_hash"
FROM
  "clips"
ORDER BY
  "content_hash"
LIMIT
  ?;
-- params: [1000]

-- ClipRepository.contentHashesAfter
SELECT DISTINCT
  "content_hash"
FROM
  "clips"
WHERE
  "content_hash" > ?
ORDER BY
  "content_hash"
LIMIT
  ?;
-- params: ["abababababababababababababababababababababababababababababababab",1000]

-- ClipRepository.tagLinks
SELECT
  ct.clip_id,
  t.id,
  t.name,
  t.color
FROM
  clip_tags ct
  JOIN tags t ON t.id = ct.tag_id
WHERE
  ct.clip_id IN (
    SELECT
      value
    FROM
      json_each(?)
  )
ORDER BY
  t.name;
-- params: ["[1,2]"]

-- ClipRepository.rename
UPDATE "clips"
SET
  "filename" = ?,
  "content_type" = ?
WHERE
  "id" = ?;
-- params: ["notes.md","text/markdown",7]

-- ClipRepository.rename (type kept)
UPDATE "clips"
SET
  "filename" = ?
WHERE
  "id" = ?;
-- params: ["notes.txt",7]

-- ClipRepository.setArchived
UPDATE "clips"
SET
  "is_archived" = ?
WHERE
  id IN (
    SELECT
      value
    FROM
      json_each(?)
  )
  AND "is_archived" = ?
  AND (
    expires_at IS NULL
    OR expires_at > ?
  )
RETURNING
  "id";
-- params: [1,"[1,2]",0,"2024-06-01T12:00:00.000Z"]

-- ClipRepository.setExpiry
UPDATE "clips"
SET
  "expires_at" = ?
WHERE
  id IN (
    SELECT
      value
    FROM
      json_each(?)
  )
  AND (
    expires_at IS NULL
    OR expires_at > ?
  );
-- params: ["2024-06-01T13:00:00.000Z","[1,2]","2024-06-01T12:00:00.000Z"]

-- ClipRepository.setCreatedAt
UPDATE "clips"
SET
  "created_at" = ?
WHERE
  "id" = ?;
-- params: ["2024-06-01T12:00:00.000Z",7]

-- ClipRepository.deleteMany
DELETE FROM "clips"
WHERE
  id IN (
    SELECT
      value
    FROM
      json_each(?)
  )
RETURNING
  "id",
  "content_hash";
-- params: ["[1,2]"]

-- ClipRepository.expiredIds
SELECT
  "id"
FROM
  "clips"
WHERE
  "expires_at" IS NOT NULL
  AND "expires_at" <= ?;
-- params: ["2024-06-01T12:00:00.000Z"]

-- MetadataRepository.list
SELECT
  "key",
  "value"
FROM
  "clip_metadata"
WHERE
  "clip_id" = ?
ORDER BY
  "key";
-- params: [7]

-- MetadataRepository.has
SELECT
  "key"
FROM
  "clip_metadata"
WHERE
  "clip_id" = ?
  AND "key" = ?;
-- params: [7,"source"]

-- MetadataRepository.count
SELECT
  count(*) AS "n"
FROM
  "clip_metadata"
WHERE
  "clip_id" = ?;
-- params: [7]

-- MetadataRepository.replaceAll
DELETE FROM "clip_metadata"
WHERE
  "clip_id" = ?;
-- params: [7]

INSERT INTO
  "clip_metadata" ("clip_id", "key", "value")
VALUES
  (?, ?, ?),
  (?, ?, ?);
-- params: [7,"source","scan",7,"page","2"]

-- MetadataRepository.put
INSERT INTO
  "clip_metadata" ("clip_id", "key", "value")
VALUES
  (?, ?, ?)
ON CONFLICT ("clip_id", "key") DO UPDATE
SET
  "value" = ?;
-- params: [7,"source","scan","scan"]

-- MetadataRepository.delete
DELETE FROM "clip_metadata"
WHERE
  "clip_id" = ?
  AND "key" = ?;
-- params: [7,"source"]
