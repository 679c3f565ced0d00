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
    UNION ALL
    SELECT
      $2 AS type,
      id,
      name,
      'updated' AS action,
      updated_at AS at
    FROM
      "resources"
    WHERE
      updated_at > created_at + interval '1 seconds'
    UNION ALL
    SELECT
      $3 AS type,
      id,
      name,
      'created' AS action,
      created_at AS at
    FROM
      "notes"
    UNION ALL
    SELECT
      $4 AS type,
      id,
      name,
      'updated' AS action,
      updated_at AS at
    FROM
      "notes"
    WHERE
      updated_at > created_at + interval '1 seconds'
    UNION ALL
    SELECT
      $5 AS type,
      id,
      name,
      'created' AS action,
      created_at AS at
    FROM
      "groups"
    UNION ALL
    SELECT
      $6 AS type,
      id,
      name,
      'updated' AS action,
      updated_at AS at
    FROM
      "groups"
    WHERE
      updated_at > created_at + interval '1 seconds'
    UNION ALL
    SELECT
      $7 AS type,
      id,
      name,
      'created' AS action,
      created_at AS at
    FROM
      "tags"
    UNION ALL
    SELECT
      $8 AS type,
      id,
      name,
      'updated' AS action,
      updated_at AS at
    FROM
      "tags"
    WHERE
      updated_at > created_at + interval '1 seconds'
  ) a
ORDER BY
  at DESC
LIMIT
  $9;
-- params: ["resource","resource","note","note","group","group","tag","tag",20]
