-- SessionRepository.insert
INSERT INTO
  "sessions" (
    "created_at",
    "updated_at",
    "user_id",
    "token_hash",
    "csrf_token",
    "expires_at",
    "last_seen_at",
    "user_agent",
    "ip"
  )
VALUES
  ($1, $2, $3, $4, $5, $6, $7, $8, $9)
RETURNING
  "id";
-- params: ["2024-06-01T12:00:00.000Z","2024-06-01T12:00:00.000Z",7,"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855","csrf","2024-07-01T12:00:00.000Z","2024-06-01T12:00:00.000Z","test","127.0.0.1"]

-- SessionRepository.findByHash
SELECT
  "sessions".*,
  "users"."username",
  "users"."role",
  "users"."scope_group_id",
  "users"."disabled" AS "user_disabled"
FROM
  "sessions"
  INNER JOIN "users" ON "users"."id" = "sessions"."user_id"
WHERE
  "sessions"."token_hash" = $1;
-- params: ["e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"]

-- SessionRepository.touch
UPDATE "sessions"
SET
  "last_seen_at" = $1
WHERE
  "id" = $2
  AND (
    "last_seen_at" IS NULL
    OR "last_seen_at" < $3
  );
-- params: ["2024-06-01T12:00:00.000Z",5,"2024-06-01T11:59:00.000Z"]

-- SessionRepository.remove
DELETE FROM "sessions"
WHERE
  "id" = $1;
-- params: [5]

-- SessionRepository.removeForUser (all)
DELETE FROM "sessions"
WHERE
  "user_id" = $1;
-- params: [7]

-- SessionRepository.removeForUser (keep the current one)
DELETE FROM "sessions"
WHERE
  "user_id" = $1
  AND "id" != $2;
-- params: [7,5]

-- SessionRepository.removeExpired
DELETE FROM "sessions"
WHERE
  "expires_at" <= $1;
-- params: ["2024-06-01T12:00:00.000Z"]

-- ApiTokenRepository.insert
INSERT INTO
  "api_tokens" (
    "created_at",
    "updated_at",
    "user_id",
    "name",
    "token_hash",
    "prefix",
    "expires_at",
    "last_used_at",
    "disabled"
  )
VALUES
  ($1, $2, $3, $4, $5, $6, $7, $8, $9)
RETURNING
  *;
-- params: ["2024-06-01T12:00:00.000Z","2024-06-01T12:00:00.000Z",7,"cli","e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855","AbCdEfGh",null,null,false]

-- ApiTokenRepository.findByHash
SELECT
  "api_tokens".*,
  "users"."username",
  "users"."role",
  "users"."scope_group_id",
  "users"."disabled" AS "user_disabled"
FROM
  "api_tokens"
  INNER JOIN "users" ON "users"."id" = "api_tokens"."user_id"
WHERE
  "api_tokens"."token_hash" = $1;
-- params: ["e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"]

-- ApiTokenRepository.listForUser
SELECT
  *
FROM
  "api_tokens"
WHERE
  "user_id" = $1
ORDER BY
  "created_at" DESC,
  "id" DESC;
-- params: [7]

-- ApiTokenRepository.countForUser
SELECT
  count(*) AS "n"
FROM
  "api_tokens"
WHERE
  "user_id" = $1;
-- params: [7]

-- ApiTokenRepository.touch
UPDATE "api_tokens"
SET
  "last_used_at" = $1
WHERE
  "id" = $2
  AND (
    "last_used_at" IS NULL
    OR "last_used_at" < $3
  );
-- params: ["2024-06-01T12:00:00.000Z",3,"2024-06-01T11:59:00.000Z"]

-- ApiTokenRepository.removeOwned
DELETE FROM "api_tokens"
WHERE
  "id" = $1
  AND "user_id" = $2;
-- params: [3,7]

-- ApiTokenRepository.removeForUser
DELETE FROM "api_tokens"
WHERE
  "user_id" = $1;
-- params: [7]

-- VisibilityRepository.visibleIds (resources, confined)
SELECT
  "resources"."id" AS "id"
FROM
  "resources"
WHERE
  "resources"."id" IN ($1, $2)
  AND "resources"."owner_id" IN (
    WITH RECURSIVE
      scope_tree (id, depth) AS (
        SELECT
          id,
          0
        FROM
          "groups"
        WHERE
          id = $3
        UNION
        SELECT
          g.id,
          s.depth + 1
        FROM
          "groups" g
          JOIN scope_tree s ON g.owner_id = s.id
        WHERE
          s.depth < 50
      )
    SELECT
      id
    FROM
      scope_tree
  )
ORDER BY
  "resources"."id";
-- params: [1,2,3]

-- VisibilityRepository.visibleIds (groups, confined)
SELECT
  "groups"."id" AS "id"
FROM
  "groups"
WHERE
  "groups"."id" IN ($1)
  AND "groups"."id" IN (
    WITH RECURSIVE
      scope_tree (id, depth) AS (
        SELECT
          id,
          0
        FROM
          "groups"
        WHERE
          id = $2
        UNION
        SELECT
          g.id,
          s.depth + 1
        FROM
          "groups" g
          JOIN scope_tree s ON g.owner_id = s.id
        WHERE
          s.depth < 50
      )
    SELECT
      id
    FROM
      scope_tree
  )
ORDER BY
  "groups"."id";
-- params: [4,3]

-- VisibilityRepository.visibleIds (notes, no scope group: nothing)
SELECT
  "notes"."id" AS "id"
FROM
  "notes"
WHERE
  "notes"."id" IN ($1)
  AND 1 = 0
ORDER BY
  "notes"."id";
-- params: [5]

-- VisibilityRepository.visibleIds (everything)
SELECT
  "notes"."id" AS "id"
FROM
  "notes"
WHERE
  "notes"."id" IN ($1)
ORDER BY
  "notes"."id";
-- params: [5]
