-- StatsRepository.entityCounts
SELECT
  (
    SELECT
      count(*)
    FROM
      "resources"
  ) AS "resources",
  (
    SELECT
      count(*)
    FROM
      "notes"
  ) AS "notes",
  (
    SELECT
      count(*)
    FROM
      "groups"
  ) AS "groups",
  (
    SELECT
      count(*)
    FROM
      "tags"
  ) AS "tags",
  (
    SELECT
      count(*)
    FROM
      "categories"
  ) AS "categories",
  (
    SELECT
      count(*)
    FROM
      "resource_categories"
  ) AS "resourceCategories",
  (
    SELECT
      count(*)
    FROM
      "note_types"
  ) AS "noteTypes",
  (
    SELECT
      count(*)
    FROM
      "series"
  ) AS "series",
  (
    SELECT
      count(*)
    FROM
      "queries"
  ) AS "queries",
  (
    SELECT
      count(*)
    FROM
      "template_partials"
  ) AS "templatePartials",
  (
    SELECT
      count(*)
    FROM
      "group_relations"
  ) AS "relations",
  (
    SELECT
      count(*)
    FROM
      "group_relation_types"
  ) AS "relationTypes",
  (
    SELECT
      count(*)
    FROM
      "log_entries"
  ) AS "logEntries",
  (
    SELECT
      count(*)
    FROM
      "resource_versions"
  ) AS "resourceVersions";
-- params: []

-- StatsRepository.storedBytes
SELECT
  (
    SELECT
      coalesce(sum(file_size), 0)
    FROM
      resources
  ) AS resources,
  (
    SELECT
      coalesce(sum(file_size), 0)
    FROM
      resource_versions
  ) AS versions;
-- params: []

-- StatsRepository.createdSince
SELECT
  (
    SELECT
      count(*)
    FROM
      resources
    WHERE
      created_at >= ?
  ) AS resources,
  (
    SELECT
      count(*)
    FROM
      notes
    WHERE
      created_at >= ?
  ) AS notes,
  (
    SELECT
      count(*)
    FROM
      "groups"
    WHERE
      created_at >= ?
  ) AS "groups";
-- params: ["2024-01-01T00:00:00.000Z","2024-01-01T00:00:00.000Z","2024-01-01T00:00:00.000Z"]

-- StatsRepository.storageByContentType
SELECT
  content_type AS "contentType",
  coalesce(sum(file_size), 0) AS "totalBytes",
  count(*) AS count
FROM
  resources
GROUP BY
  content_type
ORDER BY
  2 DESC
LIMIT
  ?;
-- params: [50]

-- StatsRepository.topTags
SELECT
  t.id,
  t.name,
  count(*) AS count
FROM
  resource_tags rt
  JOIN tags t ON t.id = rt.tag_id
GROUP BY
  t.id,
  t.name
ORDER BY
  count(*) DESC,
  t.name
LIMIT
  ?;
-- params: [10]

-- StatsRepository.topCategories
SELECT
  c.id,
  c.name,
  count(*) AS count
FROM
  "groups" g
  JOIN categories c ON c.id = g.category_id
GROUP BY
  c.id,
  c.name
ORDER BY
  count(*) DESC,
  c.name
LIMIT
  ?;
-- params: [10]

-- StatsRepository.orphans
SELECT
  (
    SELECT
      count(*)
    FROM
      resources r
    WHERE
      NOT EXISTS (
        SELECT
          1
        FROM
          resource_tags x
        WHERE
          x.resource_id = r.id
      )
  ) AS "withoutTags",
  (
    SELECT
      count(*)
    FROM
      resources r
    WHERE
      NOT EXISTS (
        SELECT
          1
        FROM
          groups_related_resources x
        WHERE
          x.resource_id = r.id
      )
  ) AS "withoutGroups";
-- params: []

-- StatsRepository.similarity
SELECT
  (
    SELECT
      count(*)
    FROM
      image_hashes
  ) AS "totalHashes",
  (
    SELECT
      count(*)
    FROM
      resource_similarities
  ) AS "similarPairsFound",
  (
    SELECT
      count(*)
    FROM
      image_hashes
    WHERE
      d_hash_int = 0
  ) AS "dhashZeroCount",
  (
    SELECT
      count(*)
    FROM
      image_hashes
    WHERE
      hash_version IS NULL
  ) AS "v1Count",
  (
    SELECT
      count(*)
    FROM
      image_hashes
    WHERE
      hash_version = 2
  ) AS "v2Count",
  (
    SELECT
      count(*)
    FROM
      image_hashes
    WHERE
      status = 'flat'
  ) AS "flatCount",
  (
    SELECT
      count(*)
    FROM
      image_hashes
    WHERE
      status = 'failed'
  ) AS "failedCount",
  (
    SELECT
      count(*)
    FROM
      resource_similarities
    WHERE
      p_distance IS NOT NULL
  ) AS "v2PairsFound";
-- params: []

-- StatsRepository.logLevels
SELECT
  count(*) AS total,
  sum(
    CASE
      WHEN level = 'info' THEN 1
      ELSE 0
    END
  ) AS info,
  sum(
    CASE
      WHEN level = 'warning' THEN 1
      ELSE 0
    END
  ) AS warning,
  sum(
    CASE
      WHEN level = 'error' THEN 1
      ELSE 0
    END
  ) AS error,
  sum(
    CASE
      WHEN level = 'error'
      AND created_at >= ? THEN 1
      ELSE 0
    END
  ) AS recent
FROM
  log_entries;
-- params: ["2024-01-01T00:00:00.000Z"]

-- SettingsRepository.all
SELECT
  *
FROM
  "runtime_settings";
-- params: []

-- SettingsRepository.save
INSERT INTO
  "runtime_settings" ("key", "value_json", "reason", "updated_at")
VALUES
  (?, ?, ?, ?)
ON CONFLICT ("key") DO UPDATE
SET
  "value_json" = ?,
  "reason" = ?,
  "updated_at" = ?;
-- params: ["max_upload_size","{\"type\":\"int64\",\"value\":1024}","tests","2024-01-01T00:00:00.000Z","{\"type\":\"int64\",\"value\":1024}","tests","2024-01-01T00:00:00.000Z"]

-- SettingsRepository.remove
DELETE FROM "runtime_settings"
WHERE
  "key" = ?;
-- params: ["max_upload_size"]
