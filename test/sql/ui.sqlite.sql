-- PickRepository.names
SELECT
  "id",
  "name"
FROM
  "groups"
WHERE
  "id" IN (?, ?);
-- params: [3,4]

-- PickRepository.names (none asked)
-- (no statement)

-- CarrierSlotRepository.css
SELECT
  "custom_css"
FROM
  "resource_categories"
WHERE
  "id" = ?;
-- params: [2]

-- CarrierSlotRepository.listSlots
SELECT
  "id",
  "name",
  "description",
  "custom_list_header",
  "custom_list_footer",
  "custom_css"
FROM
  "note_types"
WHERE
  "id" = ?;
-- params: [3]

-- DashboardRepository.recent
SELECT
  "id",
  "name",
  "description"
FROM
  "notes"
ORDER BY
  "created_at" DESC,
  "id" DESC
LIMIT
  ?;
-- params: [6]

-- DashboardRepository.activity
SELECT
  at
FROM
  (
    SELECT
      *
    FROM
      (
        SELECT
          ? AS type,
          id,
          name,
          'created' AS ACTION,
          created_at AS at
        FROM
          "resources"
        ORDER BY
          created_at DESC
        LIMIT
          ?
      ) c_resources
    UNION ALL
    SELECT
      *
    FROM
      (
        SELECT
          ? AS type,
          id,
          name,
          'created' AS ACTION,
          created_at AS at
        FROM
          "notes"
        ORDER BY
          created_at DESC
        LIMIT
          ?
      ) c_notes
    UNION ALL
    SELECT
      *
    FROM
      (
        SELECT
          ? AS type,
          id,
          name,
          'created' AS ACTION,
          created_at AS at
        FROM
          "groups"
        ORDER BY
          created_at DESC
        LIMIT
          ?
      ) c_groups
    UNION ALL
    SELECT
      *
    FROM
      (
        SELECT
          ? AS type,
          id,
          name,
          'created' AS ACTION,
          created_at AS at
        FROM
          "tags"
        ORDER BY
          created_at DESC
        LIMIT
          ?
      ) c_tags
  ) a
ORDER BY
  at DESC
LIMIT
  1
OFFSET
  ?;
-- params: ["resource",20,"note",20,"group",20,"tag",20,19]

SELECT
  *
FROM
  (
    SELECT
      *
    FROM
      (
        SELECT
          ? AS type,
          id,
          name,
          'created' AS ACTION,
          created_at AS at
        FROM
          "resources"
        ORDER BY
          created_at DESC
        LIMIT
          ?
      ) c_resources
    UNION ALL
    SELECT
      *
    FROM
      (
        SELECT
          ? AS type,
          id,
          name,
          'created' AS ACTION,
          created_at AS at
        FROM
          "notes"
        ORDER BY
          created_at DESC
        LIMIT
          ?
      ) c_notes
    UNION ALL
    SELECT
      *
    FROM
      (
        SELECT
          ? AS type,
          id,
          name,
          'created' AS ACTION,
          created_at AS at
        FROM
          "groups"
        ORDER BY
          created_at DESC
        LIMIT
          ?
      ) c_groups
    UNION ALL
    SELECT
      *
    FROM
      (
        SELECT
          ? AS type,
          id,
          name,
          'created' AS ACTION,
          created_at AS at
        FROM
          "tags"
        ORDER BY
          created_at DESC
        LIMIT
          ?
      ) c_tags
    UNION ALL
    SELECT
      *
    FROM
      (
        SELECT
          ? AS type,
          id,
          name,
          'updated' AS ACTION,
          updated_at AS at
        FROM
          "resources"
        WHERE
          1 = 1
          AND julianday(updated_at) > julianday(created_at) + 1.0 / 86400
        ORDER BY
          updated_at DESC
        LIMIT
          ?
      ) u_resources
    UNION ALL
    SELECT
      *
    FROM
      (
        SELECT
          ? AS type,
          id,
          name,
          'updated' AS ACTION,
          updated_at AS at
        FROM
          "notes"
        WHERE
          1 = 1
          AND julianday(updated_at) > julianday(created_at) + 1.0 / 86400
        ORDER BY
          updated_at DESC
        LIMIT
          ?
      ) u_notes
    UNION ALL
    SELECT
      *
    FROM
      (
        SELECT
          ? AS type,
          id,
          name,
          'updated' AS ACTION,
          updated_at AS at
        FROM
          "groups"
        WHERE
          1 = 1
          AND julianday(updated_at) > julianday(created_at) + 1.0 / 86400
        ORDER BY
          updated_at DESC
        LIMIT
          ?
      ) u_groups
    UNION ALL
    SELECT
      *
    FROM
      (
        SELECT
          ? AS type,
          id,
          name,
          'updated' AS ACTION,
          updated_at AS at
        FROM
          "tags"
        WHERE
          1 = 1
          AND julianday(updated_at) > julianday(created_at) + 1.0 / 86400
        ORDER BY
          updated_at DESC
        LIMIT
          ?
      ) u_tags
  ) a
ORDER BY
  at DESC
LIMIT
  ?;
-- params: ["resource",20,"note",20,"group",20,"tag",20,"resource",20,"note",20,"group",20,"tag",20,20]
