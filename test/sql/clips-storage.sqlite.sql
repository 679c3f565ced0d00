-- BlobJournalRepository.add
INSERT INTO
  "blob_journal" ("hash", "written_at", "bytes")
VALUES
  (?, ?, ?)
ON CONFLICT ("hash") DO UPDATE
SET
  "written_at" = "excluded"."written_at";
-- params: ["abababababababababababababababababababababababababababababababab",1717243200000,{"type":"Buffer","data":[104,101,108,108,111]}]

-- BlobJournalRepository.addSync
INSERT INTO
  "blob_journal" ("hash", "written_at", "bytes")
VALUES
  (?, ?, ?)
ON CONFLICT ("hash") DO UPDATE
SET
  "written_at" = "excluded"."written_at";
-- params: ["abababababababababababababababababababababababababababababababab",1717243200000,{"type":"Buffer","data":[104,101,108,108,111]}]

-- BlobJournalRepository.due
SELECT
  "hash",
  "written_at",
  length(bytes) AS "size"
FROM
  "blob_journal"
WHERE
  "written_at" <= ?
  AND "hash" > ?
ORDER BY
  "hash"
LIMIT
  ?;
-- params: [1717243200000,"abababababababababababababababababababababababababababababababab",100]

-- BlobJournalRepository.entry
SELECT
  "hash",
  "written_at",
  "bytes"
FROM
  "blob_journal"
WHERE
  "hash" = ?;
-- params: ["abababababababababababababababababababababababababababababababab"]

-- BlobJournalRepository.remove (a page of entries as read)
DELETE FROM "blob_journal"
WHERE
  (
    (
      "hash" = ?
      AND "written_at" = ?
    )
    OR (
      "hash" = ?
      AND "written_at" = ?
    )
  );
-- params: ["abababababababababababababababababababababababababababababababab",1717243200000,"cdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcd",1717243201000]
