-- KeyRepository.insert
INSERT INTO
  "api_keys" ("name", "key_hash", "key_prefix", "role", "scoped_tag_id", "created_at")
VALUES
  (?, ?, ?, ?, ?, ?)
RETURNING
  "id";
-- params: ["ci","abababababababababababababababababababababababababababababababab","clip_ab12","editor",5,"2024-06-01 12:00:00"]

-- KeyRepository.find
SELECT
  "k"."id",
  "k"."name",
  "k"."key_prefix",
  "k"."role",
  "k"."scoped_tag_id",
  "t"."name" AS "scoped_tag_name",
  "k"."is_revoked",
  "k"."created_at",
  "k"."last_used_at",
  "k"."revoked_at"
FROM
  "api_keys" AS "k"
  LEFT JOIN "tags" AS "t" ON "t"."id" = "k"."scoped_tag_id"
WHERE
  "k"."id" = ?;
-- params: [4]

-- KeyRepository.list
SELECT
  "k"."id",
  "k"."name",
  "k"."key_prefix",
  "k"."role",
  "k"."scoped_tag_id",
  "t"."name" AS "scoped_tag_name",
  "k"."is_revoked",
  "k"."created_at",
  "k"."last_used_at",
  "k"."revoked_at"
FROM
  "api_keys" AS "k"
  LEFT JOIN "tags" AS "t" ON "t"."id" = "k"."scoped_tag_id"
ORDER BY
  "k"."created_at" DESC,
  "k"."id" DESC;
-- params: []

-- KeyRepository.findActiveByHash
SELECT
  "k"."id",
  "k"."name",
  "k"."key_prefix",
  "k"."role",
  "k"."scoped_tag_id",
  "t"."name" AS "scoped_tag_name",
  "k"."is_revoked",
  "k"."created_at",
  "k"."last_used_at",
  "k"."revoked_at"
FROM
  "api_keys" AS "k"
  LEFT JOIN "tags" AS "t" ON "t"."id" = "k"."scoped_tag_id"
WHERE
  "k"."key_hash" = ?
  AND "k"."is_revoked" = ?;
-- params: ["abababababababababababababababababababababababababababababababab",0]

-- KeyRepository.touch
UPDATE "api_keys"
SET
  "last_used_at" = ?
WHERE
  "id" = ?;
-- params: ["2024-06-01 12:00:00",4]

-- KeyRepository.revoke
UPDATE "api_keys"
SET
  "is_revoked" = ?,
  "revoked_at" = ?
WHERE
  "id" = ?
  AND "is_revoked" = ?;
-- params: [1,"2024-06-01 12:00:00",4,0]

-- KeyRepository.revokeScopedTo
UPDATE "api_keys"
SET
  "is_revoked" = ?,
  "revoked_at" = ?
WHERE
  "scoped_tag_id" = ?
  AND "is_revoked" = ?;
-- params: [1,"2024-06-01 12:00:00",5,0]

-- KeyRepository.purgeRevoked
DELETE FROM "api_keys"
WHERE
  "is_revoked" = ?
  AND "revoked_at" IS NOT NULL
  AND "revoked_at" <= ?;
-- params: [1,"2024-06-01 12:00:00"]

-- KeyRepository.count
SELECT
  count(*) AS "n"
FROM
  "api_keys";
-- params: []
