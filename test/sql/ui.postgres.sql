-- PickRepository.names
SELECT
  "id",
  "name"
FROM
  "groups"
WHERE
  "id" IN ($1, $2);
-- params: [3,4]

-- PickRepository.names (none asked)
-- (no statement)

-- CarrierSlotRepository.css
SELECT
  "custom_css"
FROM
  "resource_categories"
WHERE
  "id" = $1;
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
  "id" = $1;
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
  $1;
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
          $1 AS type,
          id,
          name,
          'created' AS action,
          created_at AS at
        FROM
          "resources"
        ORDER BY
          created_at DESC
        LIMIT
          $2
      ) c_resources
    UNION ALL
    SELECT
      *
    FROM
      (
        SELECT
          $3 AS type,
          id,
          name,
          'created' AS action,
          created_at AS at
        FROM
          "notes"
        ORDER BY
          created_at DESC
        LIMIT
          $4
      ) c_notes
    UNION ALL
    SELECT
      *
    FROM
      (
        SELECT
          $5 AS type,
          id,
          name,
          'created' AS action,
          created_at AS at
        FROM
          "groups"
        ORDER BY
          created_at DESC
        LIMIT
          $6
      ) c_groups
    UNION ALL
    SELECT
      *
    FROM
      (
        SELECT
          $7 AS type,
          id,
          name,
          'created' AS action,
          created_at AS at
        FROM
          "tags"
        ORDER BY
          created_at DESC
        LIMIT
          $8
      ) c_tags
  ) a
ORDER BY
  at DESC
LIMIT
  1
OFFSET
  $9;
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
          $1 AS type,
          id,
          name,
          'created' AS action,
          created_at AS at
        FROM
          "resources"
        ORDER BY
          created_at DESC
        LIMIT
          $2
      ) c_resources
    UNION ALL
    SELECT
      *
    FROM
      (
        SELECT
          $3 AS type,
          id,
          name,
          'created' AS action,
          created_at AS at
        FROM
          "notes"
        ORDER BY
          created_at DESC
        LIMIT
          $4
      ) c_notes
    UNION ALL
    SELECT
      *
    FROM
      (
        SELECT
          $5 AS type,
          id,
          name,
          'created' AS action,
          created_at AS at
        FROM
          "groups"
        ORDER BY
          created_at DESC
        LIMIT
          $6
      ) c_groups
    UNION ALL
    SELECT
      *
    FROM
      (
        SELECT
          $7 AS type,
          id,
          name,
          'created' AS action,
          created_at AS at
        FROM
          "tags"
        ORDER BY
          created_at DESC
        LIMIT
          $8
      ) c_tags
    UNION ALL
    SELECT
      *
    FROM
      (
        SELECT
          $9 AS type,
          id,
          name,
          'updated' AS action,
          updated_at AS at
        FROM
          "resources"
        WHERE
          1 = 1
          AND updated_at > created_at + interval '1 seconds'
        ORDER BY
          updated_at DESC
        LIMIT
          $10
      ) u_resources
    UNION ALL
    SELECT
      *
    FROM
      (
        SELECT
          $11 AS type,
          id,
          name,
          'updated' AS action,
          updated_at AS at
        FROM
          "notes"
        WHERE
          1 = 1
          AND updated_at > created_at + interval '1 seconds'
        ORDER BY
          updated_at DESC
        LIMIT
          $12
      ) u_notes
    UNION ALL
    SELECT
      *
    FROM
      (
        SELECT
          $13 AS type,
          id,
          name,
          'updated' AS action,
          updated_at AS at
        FROM
          "groups"
        WHERE
          1 = 1
          AND updated_at > created_at + interval '1 seconds'
        ORDER BY
          updated_at DESC
        LIMIT
          $14
      ) u_groups
    UNION ALL
    SELECT
      *
    FROM
      (
        SELECT
          $15 AS type,
          id,
          name,
          'updated' AS action,
          updated_at AS at
        FROM
          "tags"
        WHERE
          1 = 1
          AND updated_at > created_at + interval '1 seconds'
        ORDER BY
          updated_at DESC
        LIMIT
          $16
      ) u_tags
  ) a
ORDER BY
  at DESC
LIMIT
  $17;
-- params: ["resource",20,"note",20,"group",20,"tag",20,"resource",20,"note",20,"group",20,"tag",20,20]
