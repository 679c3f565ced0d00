-- TemplateRepository.carriers
SELECT
  "id",
  "custom_mrql_result",
  "custom_css",
  "meta_schema"
FROM
  "resource_categories"
WHERE
  "id" IN ($1, $2);
-- params: [1,2]

-- TemplateRepository.slot (a category header)
SELECT
  "custom_header" AS "slot",
  "meta_schema"
FROM
  "categories"
WHERE
  "id" = $1;
-- params: [8]

-- TemplateRepository.slot (a resource category preview)
SELECT
  "custom_preview" AS "slot",
  "meta_schema"
FROM
  "resource_categories"
WHERE
  "id" = $1;
-- params: [2]

-- TemplateRepository.chains
WITH RECURSIVE
  up (start, id, owner_id, depth) AS (
    SELECT
      g.id,
      g.id,
      g.owner_id,
      0
    FROM
      groups g
    WHERE
      g.id IN ($1, $2)
    UNION ALL
    SELECT
      up.start,
      g.id,
      g.owner_id,
      up.depth + 1
    FROM
      up
      CROSS JOIN LATERAL (
        SELECT
          g.id,
          g.owner_id
        FROM
          groups g
        WHERE
          g.id = up.owner_id
        OFFSET
          0
      ) g
    WHERE
      up.depth < 50
  )
SELECT
  start,
  id,
  owner_id,
  depth
FROM
  up
ORDER BY
  start,
  depth;
-- params: [3,5]

-- TemplateRepository.partial
SELECT
  "content"
FROM
  "template_partials"
WHERE
  "name" = $1;
-- params: ["price-tag"]
