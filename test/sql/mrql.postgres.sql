-- MrqlRepository.rows (scalar filter, folded sort)
SELECT
  set_config('statement_timeout', '1000', TRUE);
-- params: []

SELECT
  e.id,
  e.name,
  e.description,
  e.created_at,
  e.updated_at,
  e.guid,
  e.meta,
  e.owner_id,
  e.resource_category_id,
  e.content_type,
  e.file_size,
  e.width,
  e.height,
  e.original_name,
  e.original_location,
  e.hash
FROM
  resources e
WHERE
  (
    (
      1 = 1
      AND e.file_size > $1
    )
    AND e.name ILIKE CAST($2 AS text) ESCAPE '\'
  )
ORDER BY
  lower(e.name) COLLATE "C" DESC
LIMIT
  $3;
-- params: [10485760,"sun%",20]

-- MrqlRepository.rows (string equality, IN, null checks)
SELECT
  set_config('statement_timeout', '1000', TRUE);
-- params: []

SELECT
  e.id,
  e.name,
  e.description,
  e.created_at,
  e.updated_at,
  e.guid,
  e.meta,
  e.owner_id,
  e.note_type_id,
  e.start_date,
  e.end_date,
  e.share_token
FROM
  notes e
WHERE
  (
    (
      (
        1 = 1
        AND lower(e.name) = CAST($1 AS text)
      )
      AND e.note_type_id IN ($2, $3)
    )
    AND e.start_date IS NOT NULL
  )
ORDER BY
  e.id
LIMIT
  $4;
-- params: ["kickoff",1,2,50]

-- MrqlRepository.rows (datetime relative and text match)
SELECT
  set_config('statement_timeout', '1000', TRUE);
-- params: []

SELECT
  e.id,
  e.name,
  e.description,
  e.created_at,
  e.updated_at,
  e.guid,
  e.meta,
  e.owner_id,
  e.category_id,
  e.url
FROM
  groups e
WHERE
  (
    (
      1 = 1
      AND e.created_at > $1
    )
    AND to_char((e.updated_at AT TIME ZONE CAST($2 AS text)), 'YYYY-MM-DD HH24:MI:SS') ILIKE CAST($3 AS text) ESCAPE '\'
  )
ORDER BY
  e.id
LIMIT
  $4;
-- params: ["2025-01-25T12:00:00.000Z","UTC","%2025-01%",50]

-- MrqlRepository.rows (meta paths: number, bool, string, empty, sort)
SELECT
  set_config('statement_timeout', '1000', TRUE);
-- params: []

SELECT
  e.id,
  e.name,
  e.description,
  e.created_at,
  e.updated_at,
  e.guid,
  e.meta,
  e.owner_id,
  e.resource_category_id,
  e.content_type,
  e.file_size,
  e.width,
  e.height,
  e.original_name,
  e.original_location,
  e.hash
FROM
  resources e
WHERE
  (
    (
      (
        (
          1 = 1
          AND (
            CASE
              WHEN jsonb_typeof((e.meta #> '{rating}')) = 'number' THEN (e.meta #>> '{rating}')::numeric >= $1
            END
          )
        )
        AND (
          CASE
            WHEN (
              (e.meta #> '{draft}') IS NULL
              OR jsonb_typeof((e.meta #> '{draft}')) = 'null'
            ) THEN NULL
            ELSE (e.meta #> '{draft}') = 'false'::jsonb
          END
        )
      )
      AND (e.meta #>> '{camera}') ILIKE CAST($2 AS text) ESCAPE '\'
    )
    AND NOT (
      (
        (e.meta #> '{note}') IS NULL
        OR jsonb_typeof((e.meta #> '{note}')) = 'null'
      )
      OR (e.meta #>> '{note}') = ''
    )
  )
ORDER BY
  (
    CASE
      WHEN NULLIF(jsonb_typeof((e.meta #> '{rating}')), 'null') IS NULL THEN 0
      WHEN NULLIF(jsonb_typeof((e.meta #> '{rating}')), 'null') = 'number' THEN 1
      WHEN NULLIF(jsonb_typeof((e.meta #> '{rating}')), 'null') = 'string' THEN 2
      WHEN NULLIF(jsonb_typeof((e.meta #> '{rating}')), 'null') = 'boolean'
      AND (e.meta #>> '{rating}') = 'false' THEN 3
      WHEN NULLIF(jsonb_typeof((e.meta #> '{rating}')), 'null') = 'boolean' THEN 4
      ELSE 5
    END
  ) DESC,
  (
    CASE
      WHEN NULLIF(jsonb_typeof((e.meta #> '{rating}')), 'null') = 'number' THEN (e.meta #>> '{rating}')::numeric
    END
  ) DESC,
  (
    CASE
      WHEN NULLIF(jsonb_typeof((e.meta #> '{rating}')), 'null') = 'string' THEN lower((e.meta #>> '{rating}')) COLLATE "C"
    END
  ) DESC,
  (e.meta #>> '{rating}') DESC
LIMIT
  $3;
-- params: [3,"%x1%",50]

-- MrqlRepository.rows (meta IN and relative date)
SELECT
  set_config('statement_timeout', '1000', TRUE);
-- params: []

SELECT
  e.id,
  e.name,
  e.description,
  e.created_at,
  e.updated_at,
  e.guid,
  e.meta,
  e.owner_id,
  e.note_type_id,
  e.start_date,
  e.end_date,
  e.share_token
FROM
  notes e
WHERE
  (
    (
      1 = 1
      AND lower((e.meta #>> '{priority}')) IN (CAST($1 AS text), CAST($2 AS text))
    )
    AND (e.meta #>> '{due}') COLLATE "C" < CAST($3 AS text)
  )
ORDER BY
  e.id
LIMIT
  $4;
-- params: ["high","low","2025-01-25T12:00:00",50]

-- MrqlRepository.rows (tags by id, name, pattern, list, empty)
SELECT
  set_config('statement_timeout', '1000', TRUE);
-- params: []

SELECT
  id,
  lower(name) AS n
FROM
  tags
WHERE
  lower(name) IN (CAST($1 AS text));
-- params: ["holiday"]

SELECT
  set_config('statement_timeout', '1000', TRUE);
-- params: []

SELECT
  e.id,
  e.name,
  e.description,
  e.created_at,
  e.updated_at,
  e.guid,
  e.meta,
  e.owner_id,
  e.resource_category_id,
  e.content_type,
  e.file_size,
  e.width,
  e.height,
  e.original_name,
  e.original_location,
  e.hash
FROM
  resources e
WHERE
  (
    (
      (
        (
          (
            1 = 1
            AND EXISTS (
              SELECT
                1
              FROM
                resource_tags j1
              WHERE
                j1.resource_id = e.id
                AND j1.tag_id = $1
              LIMIT
                1
              OFFSET
                0
            )
          )
          AND 1 = 0
        )
        AND EXISTS (
          SELECT
            1
          FROM
            resource_tags j3
          WHERE
            j3.resource_id = e.id
            AND j3.tag_id IN (
              SELECT
                n4.id
              FROM
                tags n4
              WHERE
                n4.name ILIKE CAST($2 AS text) ESCAPE '\'
            )
          LIMIT
            1
          OFFSET
            0
        )
      )
      AND EXISTS (
        SELECT
          1
        FROM
          resource_tags j5
        WHERE
          j5.resource_id = e.id
          AND (
            j5.tag_id IN ($3)
            OR j5.tag_id IN (
              SELECT
                n6.id
              FROM
                tags n6
              WHERE
                lower(n6.name) IN (CAST($4 AS text))
            )
          )
        LIMIT
          1
        OFFSET
          0
      )
    )
    AND NOT (
      NOT EXISTS (
        SELECT
          1
        FROM
          groups_related_resources j7
        WHERE
          j7.resource_id = e.id
      )
    )
  )
ORDER BY
  e.id
LIMIT
  $5;
-- params: [3,"hol%",7,"a",50]

-- MrqlRepository.rows (owner, parent chain, children, recursive)
SELECT
  set_config('statement_timeout', '1000', TRUE);
-- params: []

SELECT
  e.id,
  e.name,
  e.description,
  e.created_at,
  e.updated_at,
  e.guid,
  e.meta,
  e.owner_id,
  e.category_id,
  e.url
FROM
  groups e
WHERE
  (
    (
      (
        (
          1 = 1
          AND (
            e.owner_id IS NOT NULL
            AND e.owner_id IN (
              SELECT
                g1.id
              FROM
                groups g1
              WHERE
                lower(g1.name) = CAST($1 AS text)
            )
          )
        )
        AND EXISTS (
          SELECT
            1
          FROM
            groups c2
          WHERE
            c2.owner_id = e.id
            AND c2.name ILIKE CAST($2 AS text) ESCAPE '\'
        )
      )
      AND (
        e.id IS NOT NULL
        AND e.id IN (
          WITH RECURSIVE
            w4 (id, depth) AS (
              SELECT
                g5.id,
                1
              FROM
                groups g5
              WHERE
                g5.owner_id IN (
                  SELECT
                    g3.id
                  FROM
                    groups g3
                  WHERE
                    lower(g3.name) = CAST($3 AS text)
                )
              UNION
              SELECT
                c.id,
                w4.depth + 1
              FROM
                groups c
                JOIN w4 ON c.owner_id = w4.id
              WHERE
                w4.depth < 50
            )
          SELECT
            id
          FROM
            w4
        )
      )
    )
    AND (
      e.id IS NOT NULL
      AND e.id IN (
        WITH RECURSIVE
          w7 (id, depth) AS (
            SELECT
              g8.owner_id,
              1
            FROM
              groups g8
            WHERE
              g8.id IN (
                SELECT
                  g6.id
                FROM
                  groups g6
                WHERE
                  (
                    CASE
                      WHEN jsonb_typeof((g6.meta #> '{tier}')) = 'number' THEN (g6.meta #>> '{tier}')::numeric = $4
                    END
                  )
              )
              AND g8.owner_id IS NOT NULL
            UNION
            SELECT
              p.owner_id,
              w7.depth + 1
            FROM
              groups p
              JOIN w7 ON p.id = w7.id
            WHERE
              p.owner_id IS NOT NULL
              AND w7.depth < 50
          )
        SELECT
          id
        FROM
          w7
      )
    )
  )
ORDER BY
  e.id
LIMIT
  $5;
-- params: ["projects","%alp%","studio",1,50]

-- MrqlRepository.rows (counts)
SELECT
  set_config('statement_timeout', '1000', TRUE);
-- params: []

SELECT
  e.id,
  e.name,
  e.description,
  e.created_at,
  e.updated_at,
  e.guid,
  e.meta,
  e.owner_id,
  e.category_id,
  e.url
FROM
  groups e
WHERE
  (
    (
      1 = 1
      AND (
        SELECT
          COUNT(*)
        FROM
          groups_related_resources k2
        WHERE
          k2.group_id = e.id
      ) > $1
    )
    AND NOT EXISTS (
      SELECT
        1
      FROM
        groups k3
      WHERE
        k3.owner_id = e.id
    )
  )
ORDER BY
  (
    SELECT
      COUNT(*)
    FROM
      groups_related_resources k1
    WHERE
      k1.group_id = e.id
  ) DESC
LIMIT
  $2;
-- params: [2,50]

-- MrqlRepository.rows (regex; refused before translation on SQLite)
SELECT
  set_config('statement_timeout', '1000', TRUE);
-- params: []

SELECT
  e.id,
  e.name,
  e.description,
  e.created_at,
  e.updated_at,
  e.guid,
  e.meta,
  e.owner_id,
  e.resource_category_id,
  e.content_type,
  e.file_size,
  e.width,
  e.height,
  e.original_name,
  e.original_location,
  e.hash
FROM
  resources e
WHERE
  (
    (
      1 = 1
      AND e.name ~* CAST($1 AS text)
    )
    AND e.description !~* CAST($2 AS text)
  )
ORDER BY
  e.id
LIMIT
  $3;
-- params: ["^sun(rise|set)","night",50]

-- MrqlRepository.rows (full text ranked)
SELECT
  set_config('statement_timeout', '1000', TRUE);
-- params: []

SELECT
  e.id,
  e.name,
  e.description,
  e.created_at,
  e.updated_at,
  e.guid,
  e.meta,
  e.owner_id,
  e.resource_category_id,
  e.content_type,
  e.file_size,
  e.width,
  e.height,
  e.original_name,
  e.original_location,
  e.hash
FROM
  resources e
WHERE
  (
    1 = 1
    AND e.search_vector @@ plainto_tsquery('english', CAST($1 AS text))
  )
ORDER BY
  (
    CASE
      WHEN e.search_vector @@ plainto_tsquery('english', CAST($2 AS text)) THEN - ts_rank(e.search_vector, plainto_tsquery('english', CAST($3 AS text)))
      ELSE 1e9
    END
  )
LIMIT
  $4;
-- params: ["harbour light","harbour light","harbour light",10]

-- MrqlRepository.rows (one-word full text ranked)
SELECT
  set_config('statement_timeout', '1000', TRUE);
-- params: []

SELECT
  e.id,
  e.name,
  e.description,
  e.created_at,
  e.updated_at,
  e.guid,
  e.meta,
  e.owner_id,
  e.resource_category_id,
  e.content_type,
  e.file_size,
  e.width,
  e.height,
  e.original_name,
  e.original_location,
  e.hash
FROM
  resources e
  JOIN resources_fts_postings f ON f.id = e.id
  AND f.lexeme = (
    SELECT
      u.lexeme
    FROM
      unnest(to_tsvector('english', CAST($1 AS text))) u
  )
WHERE
  (
    1 = 1
    AND 1 = 1
  )
ORDER BY
  f.score
LIMIT
  $2;
-- params: ["harbour",10]

-- MrqlRepository.rows (one-word full text ranked, filtered)
SELECT
  set_config('statement_timeout', '1000', TRUE);
-- params: []

SELECT
  e.id,
  e.name,
  e.description,
  e.created_at,
  e.updated_at,
  e.guid,
  e.meta,
  e.owner_id,
  e.category_id,
  e.url
FROM
  groups e
  JOIN groups_fts_postings f ON f.id = e.id
  AND f.lexeme = (
    SELECT
      u.lexeme
    FROM
      unnest(to_tsvector('english', CAST($1 AS text))) u
  )
WHERE
  (
    (
      1 = 1
      AND 1 = 1
    )
    AND e.id > $2
  )
ORDER BY
  f.score
LIMIT
  $3;
-- params: ["harbour",2,10]

-- MrqlRepository.rows (full text in OR, ranked)
SELECT
  set_config('statement_timeout', '1000', TRUE);
-- params: []

SELECT
  e.id,
  e.name,
  e.description,
  e.created_at,
  e.updated_at,
  e.guid,
  e.meta,
  e.owner_id,
  e.note_type_id,
  e.start_date,
  e.end_date,
  e.share_token
FROM
  notes e
  LEFT JOIN notes_fts_postings f ON f.id = e.id
  AND f.lexeme = (
    SELECT
      u.lexeme
    FROM
      unnest(to_tsvector('english', CAST($1 AS text))) u
  )
WHERE
  (
    1 = 1
    AND (
      e.search_vector @@ plainto_tsquery('english', CAST($2 AS text))
      OR lower(e.name) = CAST($3 AS text)
    )
  )
ORDER BY
  COALESCE(f.score, 1e9)
LIMIT
  $4;
-- params: ["launch","launch","todo",50]

-- MrqlRepository.rows (similarity with distance)
SELECT
  set_config('statement_timeout', '1000', TRUE);
-- params: []

SELECT
  e.id,
  e.name,
  e.description,
  e.created_at,
  e.updated_at,
  e.guid,
  e.meta,
  e.owner_id,
  e.resource_category_id,
  e.content_type,
  e.file_size,
  e.width,
  e.height,
  e.original_name,
  e.original_location,
  e.hash
FROM
  (
    SELECT
      s1.resource_id2 AS other_id
    FROM
      resource_similarities s1
    WHERE
      s1.resource_id1 = $1
      AND COALESCE(s1.p_distance, s1.hamming_distance) <= $2
      AND (
        s1.a_distance IS NULL
        OR s1.a_distance <= $3
      )
    UNION ALL
    SELECT
      s2.resource_id1 AS other_id
    FROM
      resource_similarities s2
    WHERE
      s2.resource_id2 = $4
      AND COALESCE(s2.p_distance, s2.hamming_distance) <= $5
      AND (
        s2.a_distance IS NULL
        OR s2.a_distance <= $6
      )
  ) sim
  JOIN resources e ON e.id = sim.other_id
  LEFT JOIN (
    SELECT
      other_id,
      MIN(distance) AS distance
    FROM
      (
        SELECT
          s3.resource_id2 AS other_id,
          COALESCE(s3.p_distance, s3.hamming_distance) AS distance
        FROM
          resource_similarities s3
        WHERE
          s3.resource_id1 = $7
          AND COALESCE(s3.p_distance, s3.hamming_distance) <= $8
          AND (
            s3.a_distance IS NULL
            OR s3.a_distance <= $9
          )
        UNION ALL
        SELECT
          s4.resource_id1 AS other_id,
          COALESCE(s4.p_distance, s4.hamming_distance) AS distance
        FROM
          resource_similarities s4
        WHERE
          s4.resource_id2 = $10
          AND COALESCE(s4.p_distance, s4.hamming_distance) <= $11
          AND (
            s4.a_distance IS NULL
            OR s4.a_distance <= $12
          )
      ) x
    GROUP BY
      other_id
  ) sd ON sd.other_id = e.id
WHERE
  (
    1 = 1
    AND 1 = 1
  )
ORDER BY
  COALESCE(sd.distance, 255)
LIMIT
  $13;
-- params: [1,8,5,1,8,5,1,8,5,1,8,5,50]

-- MrqlRepository.rows (context scope, page 3)
SELECT
  set_config('statement_timeout', '1000', TRUE);
-- params: []

WITH RECURSIVE
  scope_tree (id, depth) AS (
    SELECT
      id,
      0
    FROM
      groups
    WHERE
      id = $1
    UNION
    SELECT
      g.id,
      s.depth + 1
    FROM
      scope_tree s
      CROSS JOIN LATERAL (
        SELECT
          g.id
        FROM
          groups g
        WHERE
          g.owner_id = s.id
        OFFSET
          0
      ) g
    WHERE
      s.depth < 50
  )
SELECT
  e.*
FROM
  (
    SELECT DISTINCT
      id
    FROM
      scope_tree
  ) st
  CROSS JOIN LATERAL (
    SELECT
      e.id,
      e.name,
      e.description,
      e.created_at,
      e.updated_at,
      e.guid,
      e.meta,
      e.owner_id,
      e.resource_category_id,
      e.content_type,
      e.file_size,
      e.width,
      e.height,
      e.original_name,
      e.original_location,
      e.hash
    FROM
      resources e
    WHERE
      e.owner_id = st.id
      AND 1 = 1
    ORDER BY
      e.created_at DESC
    LIMIT
      $2
  ) e
ORDER BY
  e.created_at DESC
LIMIT
  $3
OFFSET
  $4;
-- params: [5,60,20,40]

-- MrqlRepository.rows (principal scope, groups)
SELECT
  set_config('statement_timeout', '1000', TRUE);
-- params: []

WITH RECURSIVE
  scope_tree (id, depth) AS (
    SELECT
      id,
      0
    FROM
      groups
    WHERE
      id = $1
    UNION
    SELECT
      g.id,
      s.depth + 1
    FROM
      scope_tree s
      CROSS JOIN LATERAL (
        SELECT
          g.id
        FROM
          groups g
        WHERE
          g.owner_id = s.id
        OFFSET
          0
      ) g
    WHERE
      s.depth < 50
  )
SELECT
  e.*
FROM
  (
    SELECT DISTINCT
      id
    FROM
      scope_tree
  ) st
  CROSS JOIN LATERAL (
    SELECT
      e.id,
      e.name,
      e.description,
      e.created_at,
      e.updated_at,
      e.guid,
      e.meta,
      e.owner_id,
      e.category_id,
      e.url
    FROM
      groups e
    WHERE
      e.id = st.id
      AND 1 = 1
    ORDER BY
      lower(e.name) COLLATE "C"
    LIMIT
      $2
  ) e
ORDER BY
  lower(e.name) COLLATE "C"
LIMIT
  $3;
-- params: [9,50,50]

-- MrqlRepository.rows (scope of a missing anchor: runs nothing)
-- (no statement)

-- MrqlRepository.rows (scope by id)
SELECT
  set_config('statement_timeout', '1000', TRUE);
-- params: []

WITH RECURSIVE
  st (id, depth) AS (
    SELECT
      id,
      0
    FROM
      groups
    WHERE
      id = $1
    UNION
    SELECT
      g.id,
      s.depth + 1
    FROM
      st s
      CROSS JOIN LATERAL (
        SELECT
          g.id
        FROM
          groups g
        WHERE
          g.owner_id = s.id
        OFFSET
          0
      ) g
    WHERE
      s.depth < 50
  )
SELECT
  (
    SELECT
      COUNT(*)
    FROM
      st
  ) AS n,
  (
    SELECT
      COUNT(*)
    FROM
      groups
  ) AS total;
-- params: [4]

-- MrqlRepository.rows (scope by name)
SELECT
  set_config('statement_timeout', '1000', TRUE);
-- params: []

WITH RECURSIVE
  st (id, depth) AS (
    SELECT
      id,
      0
    FROM
      groups
    WHERE
      lower(name) = CAST($1 AS text)
    UNION
    SELECT
      g.id,
      s.depth + 1
    FROM
      st s
      CROSS JOIN LATERAL (
        SELECT
          g.id
        FROM
          groups g
        WHERE
          g.owner_id = s.id
        OFFSET
          0
      ) g
    WHERE
      s.depth < 50
  )
SELECT
  m.id,
  m.category_id,
  m.owner_id,
  (
    SELECT
      COUNT(*)
    FROM
      st
  ) AS n,
  (
    SELECT
      COUNT(*)
    FROM
      groups
  ) AS total
FROM
  groups m
WHERE
  lower(m.name) = CAST($2 AS text)
ORDER BY
  m.id;
-- params: ["projects","projects"]

-- MrqlRepository.rows (cross-entity top n)
SELECT
  set_config('statement_timeout', '1000', TRUE);
-- params: []

SELECT
  e.id,
  e.name,
  e.description,
  e.created_at,
  e.updated_at,
  e.guid,
  e.meta,
  e.owner_id,
  e.resource_category_id,
  e.content_type,
  e.file_size,
  e.width,
  e.height,
  e.original_name,
  e.original_location,
  e.hash
FROM
  resources e
WHERE
  e.name ILIKE CAST($1 AS text) ESCAPE '\'
ORDER BY
  e.created_at DESC
LIMIT
  $2;
-- params: ["%a%",10]

SELECT
  set_config('statement_timeout', '1000', TRUE);
-- params: []

SELECT
  e.id,
  e.name,
  e.description,
  e.created_at,
  e.updated_at,
  e.guid,
  e.meta,
  e.owner_id,
  e.note_type_id,
  e.start_date,
  e.end_date,
  e.share_token
FROM
  notes e
WHERE
  e.name ILIKE CAST($1 AS text) ESCAPE '\'
ORDER BY
  e.created_at DESC
LIMIT
  $2;
-- params: ["%a%",10]

SELECT
  set_config('statement_timeout', '1000', TRUE);
-- params: []

SELECT
  e.id,
  e.name,
  e.description,
  e.created_at,
  e.updated_at,
  e.guid,
  e.meta,
  e.owner_id,
  e.category_id,
  e.url
FROM
  groups e
WHERE
  e.name ILIKE CAST($1 AS text) ESCAPE '\'
ORDER BY
  e.created_at DESC
LIMIT
  $2;
-- params: ["%a%",10]

-- MrqlRepository.rows (cross-entity random)
SELECT
  set_config('statement_timeout', '1000', TRUE);
-- params: []

SELECT
  (
    SELECT
      id
    FROM
      resources
    ORDER BY
      id ASC
    LIMIT
      1
  ) AS resource_min,
  (
    SELECT
      id
    FROM
      resources
    ORDER BY
      id DESC
    LIMIT
      1
  ) AS resource_max,
  (
    SELECT
      id
    FROM
      notes
    ORDER BY
      id ASC
    LIMIT
      1
  ) AS note_min,
  (
    SELECT
      id
    FROM
      notes
    ORDER BY
      id DESC
    LIMIT
      1
  ) AS note_max,
  (
    SELECT
      id
    FROM
      groups
    ORDER BY
      id ASC
    LIMIT
      1
  ) AS group_min,
  (
    SELECT
      id
    FROM
      groups
    ORDER BY
      id DESC
    LIMIT
      1
  ) AS group_max;
-- params: []

SELECT
  set_config('statement_timeout', '1000', TRUE);
-- params: []

SELECT
  s.id,
  c.population
FROM
  (
    SELECT
      e.id
    FROM
      resources e
    WHERE
      e.name ILIKE CAST($1 AS text) ESCAPE '\'
    ORDER BY
      random()
    LIMIT
      $2
  ) s
  CROSS JOIN (
    SELECT
      COUNT(*) AS population
    FROM
      resources e
    WHERE
      e.name ILIKE CAST($3 AS text) ESCAPE '\'
  ) c;
-- params: ["%a%",5,"%a%"]

SELECT
  set_config('statement_timeout', '1000', TRUE);
-- params: []

SELECT
  s.id,
  c.population
FROM
  (
    SELECT
      e.id
    FROM
      notes e
    WHERE
      e.name ILIKE CAST($1 AS text) ESCAPE '\'
    ORDER BY
      random()
    LIMIT
      $2
  ) s
  CROSS JOIN (
    SELECT
      COUNT(*) AS population
    FROM
      notes e
    WHERE
      e.name ILIKE CAST($3 AS text) ESCAPE '\'
  ) c;
-- params: ["%a%",5,"%a%"]

SELECT
  set_config('statement_timeout', '1000', TRUE);
-- params: []

SELECT
  s.id,
  c.population
FROM
  (
    SELECT
      e.id
    FROM
      groups e
    WHERE
      e.name ILIKE CAST($1 AS text) ESCAPE '\'
    ORDER BY
      random()
    LIMIT
      $2
  ) s
  CROSS JOIN (
    SELECT
      COUNT(*) AS population
    FROM
      groups e
    WHERE
      e.name ILIKE CAST($3 AS text) ESCAPE '\'
  ) c;
-- params: ["%a%",5,"%a%"]

-- MrqlRepository.rows (random order)
SELECT
  set_config('statement_timeout', '1000', TRUE);
-- params: []

SELECT
  e.id,
  e.name,
  e.description,
  e.created_at,
  e.updated_at,
  e.guid,
  e.meta,
  e.owner_id,
  e.category_id,
  e.url
FROM
  groups e
WHERE
  1 = 1
ORDER BY
  random()
LIMIT
  $1;
-- params: [3]

-- MrqlRepository.rows (GROUP BY aggregates, HAVING)
SELECT
  set_config('statement_timeout', '1000', TRUE);
-- params: []

SELECT
  *
FROM
  (
    SELECT
      e.content_type AS k0_0,
      COUNT(*) AS a0,
      SUM(e.file_size) AS a1,
      MAX(e.created_at) AS a2
    FROM
      resources e
    WHERE
      1 = 1
    GROUP BY
      1
    HAVING
      COUNT(*) > $1
  ) sub
ORDER BY
  sub.a0 DESC NULLS LAST
LIMIT
  $2;
-- params: [1,10]

-- MrqlRepository.rows (GROUP BY contentType COUNT() of all resources: the count table)
SELECT
  set_config('statement_timeout', '1000', TRUE);
-- params: []

SELECT
  *
FROM
  (
    SELECT
      content_type AS k0_0,
      n AS a0
    FROM
      resource_content_type_counts
    WHERE
      n > 0
  ) sub
ORDER BY
  sub.a0 DESC NULLS LAST
LIMIT
  $1;
-- params: [20]

-- MrqlRepository.rows (GROUP BY meta and month)
SELECT
  set_config('statement_timeout', '1000', TRUE);
-- params: []

SELECT
  *
FROM
  (
    SELECT
      NULLIF(jsonb_typeof((e.meta #> '{camera}')), 'null') AS k0_0,
      (e.meta #>> '{camera}') AS k0_1,
      to_char((e.created_at AT TIME ZONE CAST($1 AS text)), 'YYYY-MM') AS k1_0,
      COUNT(*) AS a0,
      AVG(
        (
          CASE
            WHEN jsonb_typeof((e.meta #> '{rating}')) = 'number' THEN (e.meta #>> '{rating}')::numeric
          END
        )
      ) AS a1,
      COALESCE(
        CAST(
          MIN(
            (
              CASE
                WHEN jsonb_typeof((e.meta #> '{rating}')) = 'number' THEN (e.meta #>> '{rating}')::numeric
              END
            )
          ) AS text
        ),
        MIN(
          (
            CASE
              WHEN jsonb_typeof((e.meta #> '{rating}')) = 'string' THEN (e.meta #>> '{rating}')
            END
          )
        )
      ) AS a2
    FROM
      resources e
    WHERE
      1 = 1
    GROUP BY
      1,
      2,
      3
  ) sub
ORDER BY
  (
    CASE
      WHEN sub.k0_0 IS NULL THEN 0
      WHEN sub.k0_0 = 'number' THEN 1
      WHEN sub.k0_0 = 'string' THEN 2
      WHEN sub.k0_0 = 'boolean'
      AND sub.k0_1 = 'false' THEN 3
      WHEN sub.k0_0 = 'boolean' THEN 4
      ELSE 5
    END
  ),
  (
    CASE
      WHEN sub.k0_0 = 'number' THEN (
        CASE
          WHEN sub.k0_0 = 'number' THEN CAST(sub.k0_1 AS numeric)
        END
      )
    END
  ),
  (
    CASE
      WHEN sub.k0_0 = 'string' THEN lower(sub.k0_1) COLLATE "C"
    END
  ),
  sub.k0_1
LIMIT
  $2;
-- params: ["UTC",50]

-- MrqlRepository.rows (GROUP BY relation)
SELECT
  set_config('statement_timeout', '1000', TRUE);
-- params: []

SELECT
  *
FROM
  (
    SELECT
      e.owner_id AS k0_0,
      gk0.name AS k0_1,
      gk1r.name AS k1_0,
      COUNT(*) AS a0
    FROM
      notes e
      LEFT JOIN groups gk0 ON gk0.id = e.owner_id
      LEFT JOIN note_tags gk1j ON gk1j.note_id = e.id
      LEFT JOIN tags gk1r ON gk1r.id = gk1j.tag_id
    WHERE
      1 = 1
    GROUP BY
      1,
      2,
      3
  ) sub
LIMIT
  $1;
-- params: [50]

-- MrqlRepository.rows (buckets: key discovery of an unfiltered key)
SELECT
  set_config('statement_timeout', '1000', TRUE);
-- params: []

SELECT
  *
FROM
  (
    WITH RECURSIVE
      k (v) AS (
        SELECT
          MIN(e.content_type)
        FROM
          resources e
        UNION ALL
        SELECT
          (
            SELECT
              MIN(e.content_type)
            FROM
              resources e
            WHERE
              e.content_type > k.v
          )
        FROM
          k
        WHERE
          k.v IS NOT NULL
      )
    SELECT
      v AS k0_0
    FROM
      k
    WHERE
      v IS NOT NULL
    UNION ALL
    SELECT
      NULL
    WHERE
      EXISTS (
        SELECT
          1
        FROM
          resources e
        WHERE
          e.content_type IS NULL
      )
  ) sub
ORDER BY
  lower(sub.k0_0) COLLATE "C" NULLS FIRST
LIMIT
  $1;
-- params: [1001]

-- MrqlRepository.rows (buckets: key discovery)
SELECT
  set_config('statement_timeout', '1000', TRUE);
-- params: []

SELECT
  *
FROM
  (
    SELECT DISTINCT
      to_char(date_trunc('week', (e.created_at AT TIME ZONE CAST($1 AS text))), 'YYYY-MM-DD') AS k0_0,
      NULLIF(jsonb_typeof((e.meta #> '{camera}')), 'null') AS k1_0,
      (e.meta #>> '{camera}') AS k1_1
    FROM
      resources e
    WHERE
      1 = 1
  ) sub
ORDER BY
  lower(sub.k0_0) COLLATE "C" NULLS FIRST,
  (
    CASE
      WHEN sub.k1_0 IS NULL THEN 0
      WHEN sub.k1_0 = 'number' THEN 1
      WHEN sub.k1_0 = 'string' THEN 2
      WHEN sub.k1_0 = 'boolean'
      AND sub.k1_1 = 'false' THEN 3
      WHEN sub.k1_0 = 'boolean' THEN 4
      ELSE 5
    END
  ),
  (
    CASE
      WHEN sub.k1_0 = 'number' THEN (
        CASE
          WHEN sub.k1_0 = 'number' THEN CAST(sub.k1_1 AS numeric)
        END
      )
    END
  ),
  (
    CASE
      WHEN sub.k1_0 = 'string' THEN lower(sub.k1_1) COLLATE "C"
    END
  ),
  sub.k1_1
LIMIT
  $2;
-- params: ["UTC",1001]

-- MrqlRepository.rows (buckets: items of two buckets)
SELECT
  set_config('statement_timeout', '1000', TRUE);
-- params: []

SELECT
  *
FROM
  (
    SELECT
      e.id,
      e.name,
      e.description,
      e.created_at,
      e.updated_at,
      e.guid,
      e.meta,
      e.owner_id,
      e.resource_category_id,
      e.content_type,
      e.file_size,
      e.width,
      e.height,
      e.original_name,
      e.original_location,
      e.hash,
      $1 AS mrql_bucket
    FROM
      resources e
    WHERE
      (
        1 = 1
        AND e.file_size > $2
      )
      AND e.content_type = $3
      AND to_char((e.created_at AT TIME ZONE CAST($4 AS text)), 'YYYY-MM-DD') = $5
    ORDER BY
      lower(e.name) COLLATE "C"
    LIMIT
      $6
  ) b0
UNION ALL
SELECT
  *
FROM
  (
    SELECT
      e.id,
      e.name,
      e.description,
      e.created_at,
      e.updated_at,
      e.guid,
      e.meta,
      e.owner_id,
      e.resource_category_id,
      e.content_type,
      e.file_size,
      e.width,
      e.height,
      e.original_name,
      e.original_location,
      e.hash,
      $7 AS mrql_bucket
    FROM
      resources e
    WHERE
      (
        1 = 1
        AND e.file_size > $8
      )
      AND e.content_type IS NULL
      AND to_char((e.created_at AT TIME ZONE CAST($9 AS text)), 'YYYY-MM-DD') = $10
    ORDER BY
      lower(e.name) COLLATE "C"
    LIMIT
      $11
  ) b1;
-- params: [0,1000,"image/png","UTC","2024-03-10",3,1,1000,"UTC","2024-03-11",3]

-- MrqlRepository.rows (cross-entity random: probe of drawn ids)
SELECT
  set_config('statement_timeout', '1000', TRUE);
-- params: []

WITH RECURSIVE
  st (id, depth) AS (
    SELECT
      id,
      0
    FROM
      groups
    WHERE
      id = $1
    UNION
    SELECT
      g.id,
      s.depth + 1
    FROM
      st s
      CROSS JOIN LATERAL (
        SELECT
          g.id
        FROM
          groups g
        WHERE
          g.owner_id = s.id
        OFFSET
          0
      ) g
    WHERE
      s.depth < 50
  )
SELECT
  (
    SELECT
      COUNT(*)
    FROM
      st
  ) AS n,
  (
    SELECT
      COUNT(*)
    FROM
      groups
  ) AS total;
-- params: [4]

-- MrqlRepository.rows (nested queries of a card list: one statement)
SELECT
  set_config('statement_timeout', '1000', TRUE);
-- params: []

SELECT
  0 AS mrql_batch,
  x0.*
FROM
  (
    WITH RECURSIVE
      scope_tree (id, depth) AS (
        SELECT
          id,
          0
        FROM
          groups
        WHERE
          id = $1
        UNION
        SELECT
          g.id,
          s.depth + 1
        FROM
          scope_tree s
          CROSS JOIN LATERAL (
            SELECT
              g.id
            FROM
              groups g
            WHERE
              g.owner_id = s.id
            OFFSET
              0
          ) g
        WHERE
          s.depth < 50
      )
    SELECT
      e.*
    FROM
      (
        SELECT DISTINCT
          id
        FROM
          scope_tree
      ) st
      CROSS JOIN LATERAL (
        SELECT
          e.id,
          e.name,
          e.description,
          e.created_at,
          e.updated_at,
          e.guid,
          e.meta,
          e.owner_id,
          e.resource_category_id,
          e.content_type,
          e.file_size,
          e.width,
          e.height,
          e.original_name,
          e.original_location,
          e.hash
        FROM
          resources e
        WHERE
          e.owner_id = st.id
          AND 1 = 1
        ORDER BY
          e.id
        LIMIT
          $2
      ) e
    ORDER BY
      e.id
    LIMIT
      $3
  ) x0
UNION ALL
SELECT
  1 AS mrql_batch,
  x1.*
FROM
  (
    WITH RECURSIVE
      scope_tree (id, depth) AS (
        SELECT
          id,
          0
        FROM
          groups
        WHERE
          id = $4
        UNION
        SELECT
          g.id,
          s.depth + 1
        FROM
          scope_tree s
          CROSS JOIN LATERAL (
            SELECT
              g.id
            FROM
              groups g
            WHERE
              g.owner_id = s.id
            OFFSET
              0
          ) g
        WHERE
          s.depth < 50
      )
    SELECT
      e.*
    FROM
      (
        SELECT DISTINCT
          id
        FROM
          scope_tree
      ) st
      CROSS JOIN LATERAL (
        SELECT
          e.id,
          e.name,
          e.description,
          e.created_at,
          e.updated_at,
          e.guid,
          e.meta,
          e.owner_id,
          e.resource_category_id,
          e.content_type,
          e.file_size,
          e.width,
          e.height,
          e.original_name,
          e.original_location,
          e.hash
        FROM
          resources e
        WHERE
          e.owner_id = st.id
          AND (
            1 = 1
            AND (
              CASE
                WHEN jsonb_typeof((e.meta #> '{rating}')) = 'number' THEN (e.meta #>> '{rating}')::numeric > $5
              END
            )
          )
        LIMIT
          $6
      ) e
    LIMIT
      $7
  ) x1;
-- params: [2,20,20,3,2,5,5]

-- MrqlRepository.rows (one nested query under many scopes)
SELECT
  set_config('statement_timeout', '1000', TRUE),
  set_config('plan_cache_mode', 'force_generic_plan', TRUE);
-- params: []

SELECT
  r.id AS mrql_scope,
  e.id,
  e.name,
  e.description,
  e.created_at,
  e.updated_at,
  e.guid,
  e.meta,
  e.owner_id,
  e.note_type_id,
  e.start_date,
  e.end_date,
  e.share_token
FROM
  groups r
  CROSS JOIN LATERAL (
    WITH RECURSIVE
      t (id, depth) AS (
        SELECT
          r.id,
          0
        UNION
        SELECT
          g.id,
          t.depth + 1
        FROM
          t
          CROSS JOIN LATERAL (
            SELECT
              g.id
            FROM
              groups g
            WHERE
              g.owner_id = t.id
            OFFSET
              0
          ) g
        WHERE
          t.depth < 50
      )
    SELECT
      e.id
    FROM
      (
        SELECT DISTINCT
          id
        FROM
          t
      ) st
      CROSS JOIN LATERAL (
        SELECT
          e.id,
          e.name,
          e.description,
          e.created_at,
          e.updated_at,
          e.guid,
          e.meta,
          e.owner_id,
          e.note_type_id,
          e.start_date,
          e.end_date,
          e.share_token
        FROM
          notes e
        WHERE
          e.owner_id = st.id
          AND (
            1 = 1
            AND EXISTS (
              SELECT
                1
              FROM
                note_tags j1
              WHERE
                j1.note_id = e.id
                AND j1.tag_id = $1
              LIMIT
                1
              OFFSET
                0
            )
          )
        ORDER BY
          e.created_at DESC
        LIMIT
          $2
      ) e
    ORDER BY
      e.created_at DESC
    LIMIT
      $3
    OFFSET
      $4
  ) page
  JOIN notes e ON e.id = page.id
WHERE
  r.id IN ($5, $6, $7)
ORDER BY
  r.id,
  e.created_at DESC;
-- params: [3,20,20,0,2,3,5]

-- MrqlRepository.rows (one nested query under many scopes, in id order)
SELECT
  set_config('statement_timeout', '1000', TRUE),
  set_config('plan_cache_mode', 'force_generic_plan', TRUE);
-- params: []

SELECT
  r.id AS mrql_scope,
  e.id,
  e.name,
  e.description,
  e.created_at,
  e.updated_at,
  e.guid,
  e.meta,
  e.owner_id,
  e.resource_category_id,
  e.content_type,
  e.file_size,
  e.width,
  e.height,
  e.original_name,
  e.original_location,
  e.hash
FROM
  groups r
  CROSS JOIN LATERAL (
    WITH RECURSIVE
      t (id, depth) AS (
        SELECT
          r.id,
          0
        UNION
        SELECT
          g.id,
          t.depth + 1
        FROM
          t
          CROSS JOIN LATERAL (
            SELECT
              g.id
            FROM
              groups g
            WHERE
              g.owner_id = t.id
            OFFSET
              0
          ) g
        WHERE
          t.depth < 50
      )
    SELECT
      e.id
    FROM
      (
        SELECT DISTINCT
          id
        FROM
          t
      ) st
      CROSS JOIN LATERAL (
        SELECT
          e.id,
          e.name,
          e.description,
          e.created_at,
          e.updated_at,
          e.guid,
          e.meta,
          e.owner_id,
          e.resource_category_id,
          e.content_type,
          e.file_size,
          e.width,
          e.height,
          e.original_name,
          e.original_location,
          e.hash
        FROM
          resources e
        WHERE
          e.owner_id = st.id
          AND (
            1 = 1
            AND (
              CASE
                WHEN jsonb_typeof((e.meta #> '{rating}')) = 'number' THEN (e.meta #>> '{rating}')::numeric > $1
              END
            )
          )
        ORDER BY
          e.id
        LIMIT
          $2
      ) e
    ORDER BY
      e.id
    LIMIT
      $3
    OFFSET
      $4
  ) page
  JOIN resources e ON e.id = page.id
WHERE
  r.id IN ($5, $6)
ORDER BY
  r.id,
  e.id;
-- params: [2,5,5,0,2,3]

-- MrqlRepository.rows (hydrate sampled ids)
SELECT
  set_config('statement_timeout', '1000', TRUE);
-- params: []

SELECT
  e.id,
  e.name,
  e.description,
  e.created_at,
  e.updated_at,
  e.guid,
  e.meta,
  e.owner_id,
  e.note_type_id,
  e.start_date,
  e.end_date,
  e.share_token
FROM
  notes e
WHERE
  e.id IN ($1, $2, $3);
-- params: [3,1,2]

-- MrqlRepository.rows (total count)
SELECT
  set_config('statement_timeout', '1000', TRUE);
-- params: []

WITH RECURSIVE
  scope_tree (id, depth) AS (
    SELECT
      id,
      0
    FROM
      groups
    WHERE
      id = $1
    UNION
    SELECT
      g.id,
      s.depth + 1
    FROM
      scope_tree s
      CROSS JOIN LATERAL (
        SELECT
          g.id
        FROM
          groups g
        WHERE
          g.owner_id = s.id
        OFFSET
          0
      ) g
    WHERE
      s.depth < 50
  )
SELECT
  COUNT(*) AS n
FROM
  resources e
WHERE
  EXISTS (
    SELECT
      1
    FROM
      resource_tags j1
    WHERE
      j1.resource_id = e.id
      AND j1.tag_id IN (
        SELECT
          n2.id
        FROM
          tags n2
        WHERE
          lower(n2.name) = CAST($2 AS text)
      )
    LIMIT
      1
    OFFSET
      0
  )
  AND e.owner_id = ANY (
    ARRAY(
      SELECT
        id
      FROM
        scope_tree
    )
  );
-- params: [2,"red"]

SELECT
  set_config('statement_timeout', '1000', TRUE);
-- params: []

WITH RECURSIVE
  scope_tree (id, depth) AS (
    SELECT
      id,
      0
    FROM
      groups
    WHERE
      id = $1
    UNION
    SELECT
      g.id,
      s.depth + 1
    FROM
      scope_tree s
      CROSS JOIN LATERAL (
        SELECT
          g.id
        FROM
          groups g
        WHERE
          g.owner_id = s.id
        OFFSET
          0
      ) g
    WHERE
      s.depth < 50
  )
SELECT
  COUNT(*) AS n
FROM
  notes e
WHERE
  EXISTS (
    SELECT
      1
    FROM
      note_tags j1
    WHERE
      j1.note_id = e.id
      AND j1.tag_id IN (
        SELECT
          n2.id
        FROM
          tags n2
        WHERE
          lower(n2.name) = CAST($2 AS text)
      )
    LIMIT
      1
    OFFSET
      0
  )
  AND e.owner_id = ANY (
    ARRAY(
      SELECT
        id
      FROM
        scope_tree
    )
  );
-- params: [2,"red"]

SELECT
  set_config('statement_timeout', '1000', TRUE);
-- params: []

WITH RECURSIVE
  scope_tree (id, depth) AS (
    SELECT
      id,
      0
    FROM
      groups
    WHERE
      id = $1
    UNION
    SELECT
      g.id,
      s.depth + 1
    FROM
      scope_tree s
      CROSS JOIN LATERAL (
        SELECT
          g.id
        FROM
          groups g
        WHERE
          g.owner_id = s.id
        OFFSET
          0
      ) g
    WHERE
      s.depth < 50
  )
SELECT
  COUNT(*) AS n
FROM
  groups e
WHERE
  EXISTS (
    SELECT
      1
    FROM
      group_tags j1
    WHERE
      j1.group_id = e.id
      AND j1.tag_id IN (
        SELECT
          n2.id
        FROM
          tags n2
        WHERE
          lower(n2.name) = CAST($2 AS text)
      )
    LIMIT
      1
    OFFSET
      0
  )
  AND e.id = ANY (
    ARRAY(
      SELECT
        id
      FROM
        scope_tree
    )
  );
-- params: [2,"red"]

-- MrqlRepository.plans (explain with the native plan)
EXPLAIN (FORMAT JSON)
SELECT
  e.id,
  e.name,
  e.description,
  e.created_at,
  e.updated_at,
  e.guid,
  e.meta,
  e.owner_id,
  e.resource_category_id,
  e.content_type,
  e.file_size,
  e.width,
  e.height,
  e.original_name,
  e.original_location,
  e.hash
FROM
  resources e
WHERE
  (
    1 = 1
    AND (
      CASE
        WHEN jsonb_typeof((e.meta #> '{rating}')) = 'number' THEN (e.meta #>> '{rating}')::numeric > $1
      END
    )
  )
ORDER BY
  e.created_at DESC
LIMIT
  $2;
-- params: [2,5]

-- SavedMrqlRepository.find
SELECT
  *
FROM
  "saved_mrql_queries"
WHERE
  "id" = $1;
-- params: [3]

-- SavedMrqlRepository.findByName
SELECT
  *
FROM
  "saved_mrql_queries"
WHERE
  "name" = $1;
-- params: ["by tag"]

-- SavedMrqlRepository.list (a page)
SELECT
  *
FROM
  "saved_mrql_queries"
ORDER BY
  lower(name),
  "id"
LIMIT
  $1
OFFSET
  $2;
-- params: [50,50]

-- SavedMrqlRepository.list (all)
SELECT
  *
FROM
  "saved_mrql_queries"
ORDER BY
  lower(name),
  "id";
-- params: []

-- SavedMrqlRepository.insert
INSERT INTO
  "saved_mrql_queries" ("name", "query", "description", "created_at", "updated_at", "created_by_user_id")
VALUES
  ($1, $2, $3, $4, $5, $6)
RETURNING
  *;
-- params: ["by tag","type = resource AND tags = $tag","","2024-06-01T12:00:00.000Z","2024-06-01T12:00:00.000Z",1]

-- SavedMrqlRepository.update
UPDATE "saved_mrql_queries"
SET
  "name" = $1,
  "query" = $2,
  "description" = $3,
  "updated_at" = $4
WHERE
  "id" = $5
RETURNING
  *;
-- params: ["by tag","type = note","notes","2024-06-01T12:00:00.000Z",3]

-- SavedMrqlRepository.remove
DELETE FROM "saved_mrql_queries"
WHERE
  "id" = $1;
-- params: [3]
