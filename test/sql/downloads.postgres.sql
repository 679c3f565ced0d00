-- HistoryRepository.byJob
SELECT
  "id",
  "completed_at"
FROM
  "download_history_entries"
WHERE
  "job_id" = $1;
-- params: ["job-1"]

-- HistoryRepository.insert
INSERT INTO
  "download_history_entries" (
    "job_id",
    "url",
    "name",
    "status",
    "error",
    "resource_id",
    "total_size",
    "progress",
    "attempts",
    "created_at",
    "started_at",
    "completed_at",
    "created_by_user_id",
    "payload",
    "last_retry_job_id"
  )
VALUES
  ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15);
-- params: ["job-1","https://example.org/a.jpg","a.jpg","failed","HTTP 404",null,0,0,1,"2024-01-01T00:00:00.000Z","2024-01-01T00:00:00.000Z","2024-01-01T00:00:00.000Z",1,"{}",""]

-- HistoryRepository.recordAttempt
UPDATE "download_history_entries"
SET
  "status" = $1,
  "error" = $2,
  "resource_id" = $3,
  "completed_at" = $4,
  "attempts" = attempts + 1
WHERE
  "id" = $5;
-- params: ["completed","",9,"2024-01-01T00:00:00.000Z",4]

-- HistoryRepository.page (everyone, no filter)
SELECT
  *
FROM
  "download_history_entries"
ORDER BY
  "download_history_entries"."created_at" DESC,
  "download_history_entries"."id" DESC
LIMIT
  $1
OFFSET
  $2;
-- params: [50,0]

-- HistoryRepository.page (owner, statuses, text, retried, dates, error, sorted)
SELECT
  *
FROM
  "download_history_entries"
WHERE
  "created_by_user_id" = $1
  AND "status" IN ($2)
  AND (
    "download_history_entries"."url" ILIKE CAST($3 AS text) ESCAPE '\'
    OR "download_history_entries"."name" ILIKE CAST($4 AS text) ESCAPE '\'
  )
  AND "last_retry_at" IS NOT NULL
  AND "download_history_entries"."created_at" >= $5
  AND "download_history_entries"."completed_at" <= $6
  AND "download_history_entries"."error" ILIKE CAST($7 AS text) ESCAPE '\'
ORDER BY
  "download_history_entries"."completed_at" DESC NULLS LAST,
  "download_history_entries"."created_at" DESC,
  "download_history_entries"."id" DESC
LIMIT
  $8
OFFSET
  $9;
-- params: [1,"failed","%example%","%example%","2024-01-01T00:00:00.000Z","2024-02-01T00:00:00.000Z","%timeout%",50,50]

-- HistoryRepository.page (reason http, not retried)
SELECT
  *
FROM
  "download_history_entries"
WHERE
  "last_retry_at" IS NULL
  AND lower(download_history_entries.error) ~ $1
ORDER BY
  "download_history_entries"."created_at" DESC,
  "download_history_entries"."id" DESC
LIMIT
  $2
OFFSET
  $3;
-- params: ["^.*http [0-9][0-9][0-9].*$",50,0]

-- HistoryRepository.page (reason timeout)
SELECT
  *
FROM
  "download_history_entries"
WHERE
  (
    lower(download_history_entries.error) LIKE $1 ESCAPE '\'
    OR lower(download_history_entries.error) LIKE $2 ESCAPE '\'
    OR lower(download_history_entries.error) LIKE $3 ESCAPE '\'
    OR lower(download_history_entries.error) LIKE $4 ESCAPE '\'
  )
ORDER BY
  "download_history_entries"."created_at" DESC,
  "download_history_entries"."id" DESC
LIMIT
  $5
OFFSET
  $6;
-- params: ["%timeout%","%timed out%","%deadline exceeded%","%idle%",50,0]

-- HistoryRepository.count (reason other)
SELECT
  count(*) AS "n"
FROM
  "download_history_entries"
WHERE
  "created_by_user_id" = $1
  AND (
    download_history_entries.error <> ''
    AND NOT (
      lower(download_history_entries.error) ~ $2
      OR (
        lower(download_history_entries.error) LIKE $3 ESCAPE '\'
        OR lower(download_history_entries.error) LIKE $4 ESCAPE '\'
        OR lower(download_history_entries.error) LIKE $5 ESCAPE '\'
        OR lower(download_history_entries.error) LIKE $6 ESCAPE '\'
      )
      OR (
        lower(download_history_entries.error) LIKE $7 ESCAPE '\'
        OR lower(download_history_entries.error) LIKE $8 ESCAPE '\'
      )
      OR (
        lower(download_history_entries.error) LIKE $9 ESCAPE '\'
        OR lower(download_history_entries.error) LIKE $10 ESCAPE '\'
        OR lower(download_history_entries.error) LIKE $11 ESCAPE '\'
        OR lower(download_history_entries.error) LIKE $12 ESCAPE '\'
      )
      OR (
        lower(download_history_entries.error) LIKE $13 ESCAPE '\'
        OR lower(download_history_entries.error) LIKE $14 ESCAPE '\'
        OR lower(download_history_entries.error) LIKE $15 ESCAPE '\'
        OR lower(download_history_entries.error) LIKE $16 ESCAPE '\'
        OR lower(download_history_entries.error) LIKE $17 ESCAPE '\'
      )
      OR (
        lower(download_history_entries.error) LIKE $18 ESCAPE '\'
        OR lower(download_history_entries.error) LIKE $19 ESCAPE '\'
        OR lower(download_history_entries.error) LIKE $20 ESCAPE '\'
        OR lower(download_history_entries.error) LIKE $21 ESCAPE '\'
        OR lower(download_history_entries.error) LIKE $22 ESCAPE '\'
        OR lower(download_history_entries.error) LIKE $23 ESCAPE '\'
        OR lower(download_history_entries.error) LIKE $24 ESCAPE '\'
      )
      OR (
        lower(download_history_entries.error) LIKE $25 ESCAPE '\'
        OR lower(download_history_entries.error) LIKE $26 ESCAPE '\'
      )
    )
  );
-- params: [1,"^.*http [0-9][0-9][0-9].*$","%timeout%","%timed out%","%deadline exceeded%","%idle%","%blocked request%","%not permitted to fetch%","%unsupported protocol scheme%","%not a valid image%","%unsupported%","%unknown filesystem%","%too large%","%exceeds%","%limit%","%queue is full%","%larger than%","%no space left%","%disk%","%permission denied%","%read-only file system%","%failed to write%","%enospc%","%eacces%","%cancelled%","%canceled%"]

-- HistoryRepository.byIds
SELECT
  *
FROM
  "download_history_entries"
WHERE
  "id" IN ($1, $2);
-- params: [1,2]

-- HistoryRepository.markRetried
UPDATE "download_history_entries"
SET
  "last_retry_job_id" = $1,
  "last_retry_at" = $2
WHERE
  "id" = $3;
-- params: ["job-2","2024-01-01T00:00:00.000Z",4]

-- HistoryRepository.remove
DELETE FROM "download_history_entries"
WHERE
  "id" IN ($1, $2);
-- params: [4,5]

-- HistoryRepository.expired
SELECT
  "id"
FROM
  "download_history_entries"
WHERE
  "status" IN ($1, $2)
  AND coalesce(completed_at, created_at) < $3
  AND (
    "last_retry_at" IS NULL
    OR "last_retry_at" < $4
  )
LIMIT
  $5;
-- params: ["failed","cancelled","2024-01-01T00:00:00.000Z","2024-01-01T00:00:00.000Z",1000]
