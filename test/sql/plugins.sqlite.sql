-- PluginStateRepository.all
SELECT
  *
FROM
  "plugin_states"
ORDER BY
  "id";
-- params: []

-- PluginStateRepository.find
SELECT
  *
FROM
  "plugin_states"
WHERE
  "plugin_name" = ?;
-- params: ["echo-api"]

-- PluginStateRepository.ensure
INSERT INTO
  "plugin_states" ("plugin_name", "created_at", "updated_at")
VALUES
  (?, ?, ?)
ON CONFLICT ("plugin_name") DO NOTHING;
-- params: ["echo-api","2024-06-01T12:00:00.000Z","2024-06-01T12:00:00.000Z"]

-- PluginStateRepository.setEnabled
INSERT INTO
  "plugin_states" ("plugin_name", "created_at", "updated_at")
VALUES
  (?, ?, ?)
ON CONFLICT ("plugin_name") DO NOTHING;
-- params: ["echo-api","2024-06-01T12:00:00.000Z","2024-06-01T12:00:00.000Z"]

UPDATE "plugin_states"
SET
  "enabled" = ?,
  "updated_at" = ?
WHERE
  "plugin_name" = ?;
-- params: [1,"2024-06-01T12:00:00.000Z","echo-api"]

-- PluginStateRepository.setSettings
INSERT INTO
  "plugin_states" ("plugin_name", "created_at", "updated_at")
VALUES
  (?, ?, ?)
ON CONFLICT ("plugin_name") DO NOTHING;
-- params: ["echo-api","2024-06-01T12:00:00.000Z","2024-06-01T12:00:00.000Z"]

UPDATE "plugin_states"
SET
  "settings_json" = ?,
  "updated_at" = ?
WHERE
  "plugin_name" = ?;
-- params: ["{\"token\":\"k\"}","2024-06-01T12:00:00.000Z","echo-api"]

-- PluginStateRepository.setGrants
INSERT INTO
  "plugin_states" ("plugin_name", "created_at", "updated_at")
VALUES
  (?, ?, ?)
ON CONFLICT ("plugin_name") DO NOTHING;
-- params: ["echo-api","2024-06-01T12:00:00.000Z","2024-06-01T12:00:00.000Z"]

UPDATE "plugin_states"
SET
  "grants_json" = ?,
  "updated_at" = ?
WHERE
  "plugin_name" = ?;
-- params: ["{\"legacy\":true}","2024-06-01T12:00:00.000Z","echo-api"]

-- PluginStateRepository.setScopedAccess
INSERT INTO
  "plugin_states" ("plugin_name", "created_at", "updated_at")
VALUES
  (?, ?, ?)
ON CONFLICT ("plugin_name") DO NOTHING;
-- params: ["echo-api","2024-06-01T12:00:00.000Z","2024-06-01T12:00:00.000Z"]

UPDATE "plugin_states"
SET
  "allow_scoped_principals" = ?,
  "updated_at" = ?
WHERE
  "plugin_name" = ?;
-- params: [1,"2024-06-01T12:00:00.000Z","echo-api"]

-- PluginKvRepository.get
SELECT
  "value"
FROM
  "plugin_kvs"
WHERE
  "plugin_name" = ?
  AND "key" = ?;
-- params: ["kv-fixture","greeting"]

-- PluginKvRepository.set
INSERT INTO
  "plugin_kvs" ("plugin_name", "key", "value", "created_at", "updated_at")
VALUES
  (?, ?, ?, ?, ?)
ON CONFLICT ("plugin_name", "key") DO UPDATE
SET
  "value" = ?,
  "updated_at" = ?;
-- params: ["kv-fixture","greeting","\"hello\"","2024-06-01T12:00:00.000Z","2024-06-01T12:00:00.000Z","\"hello\"","2024-06-01T12:00:00.000Z"]

-- PluginKvRepository.insertIfAbsent
INSERT INTO
  "plugin_kvs" ("plugin_name", "key", "value", "created_at", "updated_at")
VALUES
  (?, ?, ?, ?, ?)
ON CONFLICT ("plugin_name", "key") DO NOTHING;
-- params: ["kv-fixture","c","1","2024-06-01T12:00:00.000Z","2024-06-01T12:00:00.000Z"]

-- PluginKvRepository.replaceIf
UPDATE "plugin_kvs"
SET
  "value" = ?,
  "updated_at" = ?
WHERE
  "plugin_name" = ?
  AND "key" = ?
  AND "value" = ?;
-- params: ["2","2024-06-01T12:00:00.000Z","kv-fixture","c","1"]

-- PluginKvRepository.delete
DELETE FROM "plugin_kvs"
WHERE
  "plugin_name" = ?
  AND "key" = ?;
-- params: ["kv-fixture","greeting"]

-- PluginKvRepository.keys
SELECT
  "key"
FROM
  "plugin_kvs"
WHERE
  "plugin_name" = ?;
-- params: ["kv-fixture"]

-- PluginKvRepository.purge
DELETE FROM "plugin_kvs"
WHERE
  "plugin_name" = ?;
-- params: ["kv-fixture"]

-- ActionTargetsRepository.describe resource
SELECT
  "id",
  "content_type",
  "resource_category_id"
FROM
  "resources"
WHERE
  "id" IN (?, ?)
  AND "resources"."owner_id" IN (
    WITH RECURSIVE
      scope_tree (id, depth) AS (
        SELECT
          id,
          0
        FROM
          "groups"
        WHERE
          id = ?
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
  );
-- params: [1,2,7]

-- ActionTargetsRepository.describe group
SELECT
  "id",
  "category_id"
FROM
  "groups"
WHERE
  "id" IN (?)
  AND "groups"."id" IN (
    WITH RECURSIVE
      scope_tree (id, depth) AS (
        SELECT
          id,
          0
        FROM
          "groups"
        WHERE
          id = ?
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
  );
-- params: [3,7]

-- ActionTargetsRepository.describe note
SELECT
  "id",
  "note_type_id"
FROM
  "notes"
WHERE
  "id" IN (?);
-- params: [4]

-- PluginScheduleRepository.list
SELECT
  "id",
  "plugin_name",
  "schedule_id",
  "every_seconds",
  "overlap",
  "next_due_at",
  "claim_token",
  "claimed_at",
  "last_run_at",
  "last_status",
  "last_error",
  "runs",
  "created_by_user_id"
FROM
  "plugin_schedules"
WHERE
  "plugin_name" = ?
ORDER BY
  "schedule_id";
-- params: ["sched-fixture"]

-- PluginScheduleRepository.find
SELECT
  "id",
  "plugin_name",
  "schedule_id",
  "every_seconds",
  "overlap",
  "next_due_at",
  "claim_token",
  "claimed_at",
  "last_run_at",
  "last_status",
  "last_error",
  "runs",
  "created_by_user_id"
FROM
  "plugin_schedules"
WHERE
  "plugin_name" = ?
  AND "schedule_id" = ?;
-- params: ["sched-fixture","hourly"]

-- PluginScheduleRepository.declare by an operator
INSERT INTO
  "plugin_schedules" (
    "plugin_name",
    "schedule_id",
    "every_seconds",
    "overlap",
    "next_due_at",
    "created_by_user_id",
    "created_at",
    "updated_at"
  )
VALUES
  (?, ?, ?, ?, ?, ?, ?, ?)
ON CONFLICT ("plugin_name", "schedule_id") DO UPDATE
SET
  "every_seconds" = ?,
  "overlap" = ?,
  "updated_at" = ?,
  "created_by_user_id" = ?;
-- params: ["sched-fixture","hourly",3600,"skip","2026-01-02T03:04:05.000Z",1,"2024-06-01T12:00:00.000Z","2024-06-01T12:00:00.000Z",3600,"skip","2024-06-01T12:00:00.000Z",1]

-- PluginScheduleRepository.declare at start-up
INSERT INTO
  "plugin_schedules" (
    "plugin_name",
    "schedule_id",
    "every_seconds",
    "overlap",
    "next_due_at",
    "created_by_user_id",
    "created_at",
    "updated_at"
  )
VALUES
  (?, ?, ?, ?, ?, ?, ?, ?)
ON CONFLICT ("plugin_name", "schedule_id") DO UPDATE
SET
  "every_seconds" = ?,
  "overlap" = ?,
  "updated_at" = ?;
-- params: ["sched-fixture","hourly",3600,"skip","2026-01-02T03:04:05.000Z",null,"2024-06-01T12:00:00.000Z","2024-06-01T12:00:00.000Z",3600,"skip","2024-06-01T12:00:00.000Z"]

-- PluginScheduleRepository.due
SELECT
  "id",
  "plugin_name",
  "schedule_id",
  "every_seconds",
  "overlap",
  "next_due_at",
  "claim_token",
  "claimed_at",
  "last_run_at",
  "last_status",
  "last_error",
  "runs",
  "created_by_user_id"
FROM
  "plugin_schedules"
WHERE
  "next_due_at" <= ?
  AND "created_by_user_id" IS NOT NULL
  AND (
    "claim_token" IS NULL
    OR "claimed_at" < ?
  )
ORDER BY
  "next_due_at",
  "id"
LIMIT
  ?;
-- params: ["2026-01-02T03:04:05.000Z","2026-01-02T02:57:00.000Z",100]

-- PluginScheduleRepository.claim
UPDATE "plugin_schedules"
SET
  "claim_token" = ?,
  "claimed_at" = ?
WHERE
  "id" = ?
  AND (
    "claim_token" IS NULL
    OR "claimed_at" < ?
  );
-- params: ["token","2026-01-02T03:04:05.000Z",1,"2026-01-02T02:57:00.000Z"]

-- PluginScheduleRepository.release
UPDATE "plugin_schedules"
SET
  "claim_token" = ?,
  "claimed_at" = ?
WHERE
  "id" = ?
  AND "claim_token" = ?;
-- params: [null,null,1,"token"]

-- PluginScheduleRepository.advance
UPDATE "plugin_schedules"
SET
  "next_due_at" = ?,
  "claim_token" = ?,
  "claimed_at" = ?,
  "updated_at" = ?
WHERE
  "id" = ?
  AND "claim_token" = ?;
-- params: ["2026-01-02T03:04:05.000Z",null,null,"2024-06-01T12:00:00.000Z",1,"token"]

-- PluginScheduleRepository.record and release
UPDATE "plugin_schedules"
SET
  "last_run_at" = ?,
  "last_status" = ?,
  "last_error" = ?,
  "updated_at" = ?,
  "next_due_at" = ?,
  "claim_token" = ?,
  "claimed_at" = ?,
  "runs" = "runs" + ?
WHERE
  "id" = ?
  AND "claim_token" = ?;
-- params: ["2026-01-02T03:04:05.000Z","completed","","2024-06-01T12:00:00.000Z","2026-01-02T03:04:05.000Z",null,null,1,1,"token"]

-- PluginScheduleRepository.record
UPDATE "plugin_schedules"
SET
  "last_run_at" = ?,
  "last_status" = ?,
  "last_error" = ?,
  "updated_at" = ?,
  "runs" = "runs" + ?
WHERE
  "id" = ?;
-- params: ["2026-01-02T03:04:05.000Z","failed","x","2024-06-01T12:00:00.000Z",1,1]

-- PluginScheduleRepository.owner
SELECT
  "id",
  "username",
  "role",
  "scope_group_id",
  "disabled"
FROM
  "users"
WHERE
  "id" = ?;
-- params: [1]

-- ScheduledDownloadRepository.insert
INSERT INTO
  "plugin_scheduled_downloads" ("plugin_name", "url", "payload", "due_at", "created_by_user_id", "created_at", "updated_at")
VALUES
  (?, ?, ?, ?, ?, ?, ?)
RETURNING
  "id";
-- params: ["dl-fixture","https://files.example.com/a.bin","{}","2026-01-02T03:04:05.000Z",1,"2024-06-01T12:00:00.000Z","2024-06-01T12:00:00.000Z"]

-- ScheduledDownloadRepository.list
SELECT
  "id",
  "plugin_name",
  "url",
  "payload",
  "due_at",
  "status",
  "job_id",
  "last_error",
  "attempts",
  "claim_token",
  "claimed_at",
  "created_by_user_id",
  "created_at",
  "updated_at"
FROM
  "plugin_scheduled_downloads"
WHERE
  "plugin_name" = ?
ORDER BY
  "due_at",
  "id";
-- params: ["dl-fixture"]

-- ScheduledDownloadRepository.find
SELECT
  "id",
  "plugin_name",
  "url",
  "payload",
  "due_at",
  "status",
  "job_id",
  "last_error",
  "attempts",
  "claim_token",
  "claimed_at",
  "created_by_user_id",
  "created_at",
  "updated_at"
FROM
  "plugin_scheduled_downloads"
WHERE
  "id" = ?;
-- params: [1]

-- ScheduledDownloadRepository.due
SELECT
  "id",
  "plugin_name",
  "url",
  "payload",
  "due_at",
  "status",
  "job_id",
  "last_error",
  "attempts",
  "claim_token",
  "claimed_at",
  "created_by_user_id",
  "created_at",
  "updated_at"
FROM
  "plugin_scheduled_downloads"
WHERE
  "status" = ?
  AND "due_at" <= ?
  AND "created_by_user_id" IS NOT NULL
  AND "attempts" < ?
  AND (
    "claim_token" IS NULL
    OR "claimed_at" < ?
  )
ORDER BY
  "due_at",
  "id"
LIMIT
  ?;
-- params: ["pending","2026-01-02T03:04:05.000Z",3,"2026-01-02T02:57:00.000Z",100]

-- ScheduledDownloadRepository.claim
UPDATE "plugin_scheduled_downloads"
SET
  "claim_token" = ?,
  "claimed_at" = ?
WHERE
  "id" = ?
  AND "status" = ?
  AND (
    "claim_token" IS NULL
    OR "claimed_at" < ?
  );
-- params: ["token","2026-01-02T03:04:05.000Z",1,"pending","2026-01-02T02:57:00.000Z"]

-- ScheduledDownloadRepository.release
UPDATE "plugin_scheduled_downloads"
SET
  "claim_token" = ?,
  "claimed_at" = ?
WHERE
  "id" = ?
  AND "claim_token" = ?;
-- params: [null,null,1,"token"]

-- ScheduledDownloadRepository.failAttempt
UPDATE "plugin_scheduled_downloads"
SET
  "attempts" = "attempts" + ?,
  "status" = CASE
    WHEN "attempts" >= ? THEN ?
    ELSE ?
  END,
  "last_error" = ?,
  "claim_token" = ?,
  "claimed_at" = ?,
  "updated_at" = ?
WHERE
  "id" = ?
  AND "claim_token" = ?;
-- params: [1,2,"failed","pending","plugin is not enabled",null,null,"2024-06-01T12:00:00.000Z",1,"token"]

-- ScheduledDownloadRepository.submitted
UPDATE "plugin_scheduled_downloads"
SET
  "attempts" = "attempts" + ?,
  "status" = ?,
  "job_id" = ?,
  "last_error" = ?,
  "claim_token" = ?,
  "claimed_at" = ?,
  "updated_at" = ?
WHERE
  "id" = ?
  AND "claim_token" = ?;
-- params: [1,"submitted","abcdef0123456789","",null,null,"2024-06-01T12:00:00.000Z",1,"token"]

-- ScheduledDownloadRepository.cancelPending
UPDATE "plugin_scheduled_downloads"
SET
  "status" = ?,
  "claim_token" = ?,
  "claimed_at" = ?,
  "updated_at" = ?
WHERE
  "id" = ?
  AND "status" = ?
  AND (
    "claim_token" IS NULL
    OR "claimed_at" < ?
  );
-- params: ["cancelled",null,null,"2024-06-01T12:00:00.000Z",1,"pending","2026-01-02T02:57:00.000Z"]
