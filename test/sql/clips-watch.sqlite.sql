-- WatchRepository.list
SELECT
  *
FROM
  "watched_folders"
ORDER BY
  "created_at" DESC,
  "id" DESC;
-- params: []

-- WatchRepository.find
SELECT
  *
FROM
  "watched_folders"
WHERE
  "id" = ?;
-- params: [2]

-- WatchRepository.findByPath
SELECT
  *
FROM
  "watched_folders"
WHERE
  "path" = ?;
-- params: ["/home/me/Drop"]

-- WatchRepository.insert
INSERT INTO
  "watched_folders" (
    "path",
    "filter_mode",
    "filter_presets",
    "filter_regex",
    "process_existing",
    "auto_archive",
    "auto_tag_id",
    "is_paused",
    "created_at"
  )
VALUES
  (?, ?, ?, ?, ?, ?, ?, ?, ?)
RETURNING
  "id";
-- params: ["/home/me/Drop","all","[]","",0,0,null,0,"2024-06-01T12:00:00.000Z"]

-- WatchRepository.update
UPDATE "watched_folders"
SET
  "is_paused" = ?
WHERE
  "id" = ?;
-- params: [1,2]

-- WatchRepository.update (nothing to change)
SELECT
  *
FROM
  "watched_folders"
WHERE
  "id" = ?;
-- params: [2]

-- WatchRepository.delete
DELETE FROM "watched_folders"
WHERE
  "id" = ?;
-- params: [2]

-- WatchRepository.globalPaused
SELECT
  "value"
FROM
  "settings"
WHERE
  "key" = ?;
-- params: ["global_watch_paused"]

-- WatchRepository.setGlobalPaused
INSERT INTO
  "settings" ("key", "value")
VALUES
  (?, ?)
ON CONFLICT ("key") DO UPDATE
SET
  "value" = ?;
-- params: ["global_watch_paused","true","true"]
