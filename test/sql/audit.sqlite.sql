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
  (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?);
-- params: ["2024-01-01T00:00:00.000Z","info","create","tag",4,"holiday","Created tag \"holiday\"","{\"userId\":1}","/v1/tag","",""]

-- LogRepository.get
SELECT
  *
FROM
  "log_entries"
WHERE
  "id" = ?;
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
  ?
OFFSET
  ?;
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
  "level" = ?
  AND "action" = ?
  AND "entity_type" = ?
  AND "entity_id" = ?
  AND lower("log_entries"."message") LIKE lower(?) ESCAPE '\'
  AND lower("log_entries"."request_path") LIKE lower(?) ESCAPE '\'
  AND "log_entries"."created_at" <= ?
  AND "log_entries"."created_at" >= ?
ORDER BY
  "log_entries"."level" ASC NULLS LAST,
  "log_entries"."created_at" DESC,
  "log_entries"."id" DESC
LIMIT
  ?
OFFSET
  ?;
-- params: ["warning","update","tag",4,"%renamed%","%/v1/tag%","2024-12-31T00:00:00.000Z","2024-01-01T00:00:00.000Z",20,40]

SELECT
  count(*) AS "total"
FROM
  "log_entries"
WHERE
  "level" = ?
  AND "action" = ?
  AND "entity_type" = ?
  AND "entity_id" = ?
  AND lower("log_entries"."message") LIKE lower(?) ESCAPE '\'
  AND lower("log_entries"."request_path") LIKE lower(?) ESCAPE '\'
  AND "log_entries"."created_at" <= ?
  AND "log_entries"."created_at" >= ?;
-- params: ["warning","update","tag",4,"%renamed%","%/v1/tag%","2024-12-31T00:00:00.000Z","2024-01-01T00:00:00.000Z"]

-- LogRepository.deleteOlderThan
DELETE FROM "log_entries"
WHERE
  "created_at" < ?;
-- params: ["2024-01-01T00:00:00.000Z"]
