-- HistoryRepository.byJob
SELECT
  "id",
  "completed_at"
FROM
  "download_history_entries"
WHERE
  "job_id" = ?;
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
  (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?);
-- params: ["job-1","https://example.org/a.jpg","a.jpg","failed","HTTP 404",null,0,0,1,"2024-01-01T00:00:00.000Z","2024-01-01T00:00:00.000Z","2024-01-01T00:00:00.000Z",1,"{}",""]

-- HistoryRepository.recordAttempt
UPDATE "download_history_entries"
SET
  "status" = ?,
  "error" = ?,
  "resource_id" = ?,
  "completed_at" = ?,
  "attempts" = attempts + 1
WHERE
  "id" = ?;
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
  ?
OFFSET
  ?;
-- params: [50,0]

-- HistoryRepository.page (owner, statuses, text, retried, dates, error, sorted)
SELECT
  *
FROM
  "download_history_entries"
WHERE
  "created_by_user_id" = ?
  AND "status" IN (?)
  AND (
    lower("download_history_entries"."url") LIKE lower(?) ESCAPE '\'
    OR lower("download_history_entries"."name") LIKE lower(?) ESCAPE '\'
  )
  AND "last_retry_at" IS NOT NULL
  AND "download_history_entries"."created_at" >= ?
  AND "download_history_entries"."completed_at" <= ?
  AND lower("download_history_entries"."error") LIKE lower(?) ESCAPE '\'
ORDER BY
  "download_history_entries"."completed_at" DESC NULLS LAST,
  "download_history_entries"."created_at" DESC,
  "download_history_entries"."id" DESC
LIMIT
  ?
OFFSET
  ?;
-- params: [1,"failed","%example%","%example%","2024-01-01T00:00:00.000Z","2024-02-01T00:00:00.000Z","%timeout%",50,50]

-- HistoryRepository.page (reason http, not retried)
SELECT
  *
FROM
  "download_history_entries"
WHERE
  "last_retry_at" IS NULL
  AND lower(download_history_entries.error) GLOB ?
ORDER BY
  "download_history_entries"."created_at" DESC,
  "download_history_entries"."id" DESC
LIMIT
  ?
OFFSET
  ?;
-- params: ["*http [0-9][0-9][0-9]*",50,0]

-- HistoryRepository.page (reason timeout)
SELECT
  *
FROM
  "download_history_entries"
WHERE
  (
    lower(download_history_entries.error) LIKE ? ESCAPE '\'
    OR lower(download_history_entries.error) LIKE ? ESCAPE '\'
    OR lower(download_history_entries.error) LIKE ? ESCAPE '\'
    OR lower(download_history_entries.error) LIKE ? ESCAPE '\'
  )
ORDER BY
  "download_history_entries"."created_at" DESC,
  "download_history_entries"."id" DESC
LIMIT
  ?
OFFSET
  ?;
-- params: ["%timeout%","%timed out%","%deadline exceeded%","%idle%",50,0]

-- HistoryRepository.count (reason other)
SELECT
  count(*) AS "n"
FROM
  "download_history_entries"
WHERE
  "created_by_user_id" = ?
  AND (
    download_history_entries.error <> ''
    AND NOT (
      lower(download_history_entries.error) GLOB ?
      OR (
        lower(download_history_entries.error) LIKE ? ESCAPE '\'
        OR lower(download_history_entries.error) LIKE ? ESCAPE '\'
        OR lower(download_history_entries.error) LIKE ? ESCAPE '\'
        OR lower(download_history_entries.error) LIKE ? ESCAPE '\'
      )
      OR (
        lower(download_history_entries.error) LIKE ? ESCAPE '\'
        OR lower(download_history_entries.error) LIKE ? ESCAPE '\'
      )
      OR (
        lower(download_history_entries.error) LIKE ? ESCAPE '\'
        OR lower(download_history_entries.error) LIKE ? ESCAPE '\'
        OR lower(download_history_entries.error) LIKE ? ESCAPE '\'
        OR lower(download_history_entries.error) LIKE ? ESCAPE '\'
      )
      OR (
        lower(download_history_entries.error) LIKE ? ESCAPE '\'
        OR lower(download_history_entries.error) LIKE ? ESCAPE '\'
        OR lower(download_history_entries.error) LIKE ? ESCAPE '\'
        OR lower(download_history_entries.error) LIKE ? ESCAPE '\'
        OR lower(download_history_entries.error) LIKE ? ESCAPE '\'
      )
      OR (
        lower(download_history_entries.error) LIKE ? ESCAPE '\'
        OR lower(download_history_entries.error) LIKE ? ESCAPE '\'
        OR lower(download_history_entries.error) LIKE ? ESCAPE '\'
        OR lower(download_history_entries.error) LIKE ? ESCAPE '\'
        OR lower(download_history_entries.error) LIKE ? ESCAPE '\'
        OR lower(download_history_entries.error) LIKE ? ESCAPE '\'
        OR lower(download_history_entries.error) LIKE ? ESCAPE '\'
      )
      OR (
        lower(download_history_entries.error) LIKE ? ESCAPE '\'
        OR lower(download_history_entries.error) LIKE ? ESCAPE '\'
      )
    )
  );
-- params: [1,"*http [0-9][0-9][0-9]*","%timeout%","%timed out%","%deadline exceeded%","%idle%","%blocked request%","%not permitted to fetch%","%unsupported protocol scheme%","%not a valid image%","%unsupported%","%unknown filesystem%","%too large%","%exceeds%","%limit%","%queue is full%","%larger than%","%no space left%","%disk%","%permission denied%","%read-only file system%","%failed to write%","%enospc%","%eacces%","%cancelled%","%canceled%"]

-- HistoryRepository.byIds
SELECT
  *
FROM
  "download_history_entries"
WHERE
  "id" IN (?, ?);
-- params: [1,2]

-- HistoryRepository.markRetried
UPDATE "download_history_entries"
SET
  "last_retry_job_id" = ?,
  "last_retry_at" = ?
WHERE
  "id" = ?;
-- params: ["job-2","2024-01-01T00:00:00.000Z",4]

-- HistoryRepository.remove
DELETE FROM "download_history_entries"
WHERE
  "id" IN (?, ?);
-- params: [4,5]

-- HistoryRepository.expired
SELECT
  "id"
FROM
  "download_history_entries"
WHERE
  "status" IN (?, ?)
  AND coalesce(completed_at, created_at) < ?
  AND (
    "last_retry_at" IS NULL
    OR "last_retry_at" < ?
  )
LIMIT
  ?;
-- params: ["failed","cancelled","2024-01-01T00:00:00.000Z","2024-01-01T00:00:00.000Z",1000]
