-- LogRepository.insert
INSERT INTO
  "log_entries" (
    "created_at",
    "level",
    "action",
    "entity_type",
    "entity_id",
    "entity_name",
    "message",
    "details",
    "request_path",
    "user_agent",
    "ip_address"
  )
VALUES
  ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11);
-- params: ["2024-01-01T00:00:00.000Z","info","create","tag",4,"holiday","Created tag \"holiday\"","{\"userId\":1}","/v1/tag","",""]

-- LogRepository.get
SELECT
  *
FROM
  "log_entries"
WHERE
  "id" = $1;
-- params: [4]

-- LogRepository.list (no filter)
SELECT
  *
FROM
  "log_entries"
ORDER BY
  "log_entries"."created_at" DESC,
  "log_entries"."id" DESC
LIMIT
  $1
OFFSET
  $2;
-- params: [50,0]

SELECT
  count(*) AS "total"
FROM
  "log_entries";
-- params: []

-- LogRepository.list (every filter, sorted)
SELECT
  *
FROM
  "log_entries"
WHERE
  "level" = $1
  AND "action" = $2
  AND "entity_type" = $3
  AND "entity_id" = $4
  AND "log_entries"."message" ILIKE CAST($5 AS text) ESCAPE '\'
  AND "log_entries"."request_path" ILIKE CAST($6 AS text) ESCAPE '\'
  AND "log_entries"."created_at" <= $7
  AND "log_entries"."created_at" >= $8
ORDER BY
  "log_entries"."level" ASC NULLS LAST,
  "log_entries"."created_at" DESC,
  "log_entries"."id" DESC
LIMIT
  $9
OFFSET
  $10;
-- params: ["warning","update","tag",4,"%renamed%","%/v1/tag%","2024-12-31T00:00:00.000Z","2024-01-01T00:00:00.000Z",20,40]

SELECT
  count(*) AS "total"
FROM
  "log_entries"
WHERE
  "level" = $1
  AND "action" = $2
  AND "entity_type" = $3
  AND "entity_id" = $4
  AND "log_entries"."message" ILIKE CAST($5 AS text) ESCAPE '\'
  AND "log_entries"."request_path" ILIKE CAST($6 AS text) ESCAPE '\'
  AND "log_entries"."created_at" <= $7
  AND "log_entries"."created_at" >= $8;
-- params: ["warning","update","tag",4,"%renamed%","%/v1/tag%","2024-12-31T00:00:00.000Z","2024-01-01T00:00:00.000Z"]

-- LogRepository.deleteOlderThan
DELETE FROM "log_entries"
WHERE
  "created_at" < $1;
-- params: ["2024-01-01T00:00:00.000Z"]
