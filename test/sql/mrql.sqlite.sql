-- MrqlRepository.rows (scalar filter, folded sort)
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
  e.id IN (
    SELECT
      e.id
    FROM
      resources e
    WHERE
      (
        (
          1 = 1
          AND e.file_size > ?
        )
        AND lower(e.name) LIKE lower(?) ESCAPE '\'
      )
    ORDER BY
      lower(e.name) DESC
    LIMIT
      ?
  )
ORDER BY
  lower(e.name) DESC;
-- params: [10485760,"sun%",20]

-- MrqlRepository.rows (string equality, IN, null checks)
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
        AND lower(e.name) = ?
      )
      AND e.note_type_id IN (?, ?)
    )
    AND e.start_date IS NOT NULL
  )
ORDER BY
  e.id
LIMIT
  ?;
-- params: ["kickoff",1,2,50]

-- MrqlRepository.rows (datetime relative and text match)
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
      AND e.created_at > ?
    )
    AND lower(strftime('%Y-%m-%d %H:%M:%S', e.updated_at, 'localtime')) LIKE lower(?) ESCAPE '\'
  )
ORDER BY
  e.id
LIMIT
  ?;
-- params: ["2025-01-25T12:00:00.000Z","%2025-01%",50]

-- MrqlRepository.rows (meta paths: number, bool, string, empty, sort)
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
              WHEN json_type(e.meta, '$.rating') IN ('integer', 'real') THEN json_extract(e.meta, '$.rating') >= ?
            END
          )
        )
        AND (
          CASE
            WHEN (
              json_type(e.meta, '$.draft') IS NULL
              OR json_type(e.meta, '$.draft') = 'null'
            ) THEN NULL
            ELSE json_type(e.meta, '$.draft') = 'false'
          END
        )
      )
      AND lower(
        (
          CASE json_type(e.meta, '$.camera')
            WHEN 'true' THEN 'true'
            WHEN 'false' THEN 'false'
            ELSE CAST(json_extract(e.meta, '$.camera') AS TEXT)
          END
        )
      ) LIKE lower(?) ESCAPE '\'
    )
    AND NOT (
      (
        json_type(e.meta, '$.note') IS NULL
        OR json_type(e.meta, '$.note') = 'null'
      )
      OR (
        json_type(e.meta, '$.note') = 'text'
        AND json_extract(e.meta, '$.note') = ''
      )
    )
  )
ORDER BY
  (
    CASE
      WHEN NULLIF(json_type(e.meta, '$.rating'), 'null') IS NULL THEN 0
      WHEN NULLIF(json_type(e.meta, '$.rating'), 'null') IN ('integer', 'real') THEN 1
      WHEN NULLIF(json_type(e.meta, '$.rating'), 'null') = 'text' THEN 2
      WHEN NULLIF(json_type(e.meta, '$.rating'), 'null') = 'false' THEN 3
      WHEN NULLIF(json_type(e.meta, '$.rating'), 'null') = 'true' THEN 4
      ELSE 5
    END
  ) DESC,
  (
    CASE
      WHEN NULLIF(json_type(e.meta, '$.rating'), 'null') IN ('integer', 'real') THEN json_extract(e.meta, '$.rating')
    END
  ) DESC,
  (
    CASE
      WHEN NULLIF(json_type(e.meta, '$.rating'), 'null') = 'text' THEN lower(
        (
          CASE json_type(e.meta, '$.rating')
            WHEN 'true' THEN 'true'
            WHEN 'false' THEN 'false'
            ELSE CAST(json_extract(e.meta, '$.rating') AS TEXT)
          END
        )
      )
    END
  ) DESC,
  (
    CASE json_type(e.meta, '$.rating')
      WHEN 'true' THEN 'true'
      WHEN 'false' THEN 'false'
      ELSE CAST(json_extract(e.meta, '$.rating') AS TEXT)
    END
  ) DESC
LIMIT
  ?;
-- params: [3,"%x1%",50]

-- MrqlRepository.rows (meta IN and relative date)
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
      AND lower(
        (
          CASE json_type(e.meta, '$.priority')
            WHEN 'true' THEN 'true'
            WHEN 'false' THEN 'false'
            ELSE CAST(json_extract(e.meta, '$.priority') AS TEXT)
          END
        )
      ) IN (?, ?)
    )
    AND (
      CASE json_type(e.meta, '$.due')
        WHEN 'true' THEN 'true'
        WHEN 'false' THEN 'false'
        ELSE CAST(json_extract(e.meta, '$.due') AS TEXT)
      END
    ) < ?
  )
ORDER BY
  e.id
LIMIT
  ?;
-- params: ["high","low","2025-01-25T12:00:00",50]

-- MrqlRepository.rows (tags by id, name, pattern, list, empty)
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
                AND j1.tag_id = ?
              LIMIT
                1
            )
          )
          AND EXISTS (
            SELECT
              1
            FROM
              resource_tags j2
            WHERE
              j2.resource_id = e.id
              AND j2.tag_id IN (
                SELECT
                  n3.id
                FROM
                  tags n3
                WHERE
                  lower(n3.name) = ?
              )
            LIMIT
              1
          )
        )
        AND EXISTS (
          SELECT
            1
          FROM
            resource_tags j4
          WHERE
            j4.resource_id = e.id
            AND j4.tag_id IN (
              SELECT
                n5.id
              FROM
                tags n5
              WHERE
                lower(n5.name) LIKE lower(?) ESCAPE '\'
            )
          LIMIT
            1
        )
      )
      AND EXISTS (
        SELECT
          1
        FROM
          resource_tags j6
        WHERE
          j6.resource_id = e.id
          AND (
            j6.tag_id IN (?)
            OR j6.tag_id IN (
              SELECT
                n7.id
              FROM
                tags n7
              WHERE
                lower(n7.name) IN (?)
            )
          )
        LIMIT
          1
      )
    )
    AND NOT (
      NOT EXISTS (
        SELECT
          1
        FROM
          groups_related_resources j8
        WHERE
          j8.resource_id = e.id
      )
    )
  )
ORDER BY
  e.id
LIMIT
  ?;
-- params: [3,"holiday","hol%",7,"a",50]

-- MrqlRepository.rows (owner, parent chain, children, recursive)
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
                lower(g1.name) = ?
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
            AND lower(c2.name) LIKE lower(?) ESCAPE '\'
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
                    lower(g3.name) = ?
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
                      WHEN json_type(g6.meta, '$.tier') IN ('integer', 'real') THEN json_extract(g6.meta, '$.tier') = ?
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
  ?;
-- params: ["projects","%alp%","studio",1,50]

-- MrqlRepository.rows (counts)
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
      ) > ?
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
  ?;
-- params: [2,50]

-- MrqlRepository.rows (regex; refused before translation on SQLite)
-- (no statement)

-- MrqlRepository.rows (full text ranked)
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
  JOIN (
    SELECT
      rowid AS fid,
      rank AS score
    FROM
      resources_fts
    WHERE
      resources_fts MATCH ?
    ORDER BY
      rank
    LIMIT
      ?
  ) f ON f.fid = e.id
WHERE
  (
    1 = 1
    AND 1 = 1
  )
ORDER BY
  f.score
LIMIT
  ?;
-- params: ["\"harbour\" \"light\"",10,10]

-- MrqlRepository.rows (one-word full text ranked)
WITH RECURSIVE
  w (profile) AS (
    SELECT
      min(profile)
    FROM
      resources_fts_postings
    WHERE
      term = ?
    UNION ALL
    SELECT
      (
        SELECT
          min(profile)
        FROM
          resources_fts_postings
        WHERE
          term = ?
          AND profile > w.profile
      )
    FROM
      w
    WHERE
      w.profile IS NOT NULL
    LIMIT
      402
  )
SELECT
  profile,
  NULL AS block
FROM
  w
WHERE
  profile IS NOT NULL
UNION ALL
SELECT
  NULL,
  block
FROM
  resources_fts_data
WHERE
  id = 1;
-- params: ["harbour","harbour"]

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
  JOIN (
    SELECT
      rowid AS fid,
      rank AS score
    FROM
      resources_fts
    WHERE
      resources_fts MATCH ?
    ORDER BY
      rank
    LIMIT
      ?
  ) f ON f.fid = e.id
WHERE
  (
    1 = 1
    AND 1 = 1
  )
ORDER BY
  f.score
LIMIT
  ?;
-- params: ["\"harbour\"",10,10]

-- MrqlRepository.rows (one-word full text ranked, filtered)
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
  JOIN (
    SELECT
      rowid AS fid,
      bm25 (groups_fts) AS score
    FROM
      groups_fts
    WHERE
      groups_fts MATCH ?
  ) f ON f.fid = e.id
WHERE
  (
    (
      1 = 1
      AND 1 = 1
    )
    AND e.id > ?
  )
ORDER BY
  f.score
LIMIT
  ?;
-- params: ["\"harbour\"",2,10]

-- MrqlRepository.rows (full text in OR, ranked)
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
  LEFT JOIN (
    SELECT
      rowid AS fid,
      bm25 (notes_fts) AS score
    FROM
      notes_fts
    WHERE
      notes_fts MATCH ?
  ) f ON f.fid = e.id
WHERE
  (
    1 = 1
    AND (
      e.id IN (
        SELECT
          rowid
        FROM
          notes_fts
        WHERE
          notes_fts MATCH ?
      )
      OR lower(e.name) = ?
    )
  )
ORDER BY
  COALESCE(f.score, 1e9)
LIMIT
  ?;
-- params: ["\"launch\"","\"launch\"","todo",50]

-- MrqlRepository.rows (similarity with distance)
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
      s1.resource_id1 = ?
      AND COALESCE(s1.p_distance, s1.hamming_distance) <= ?
      AND (
        s1.a_distance IS NULL
        OR s1.a_distance <= ?
      )
    UNION ALL
    SELECT
      s2.resource_id1 AS other_id
    FROM
      resource_similarities s2
    WHERE
      s2.resource_id2 = ?
      AND COALESCE(s2.p_distance, s2.hamming_distance) <= ?
      AND (
        s2.a_distance IS NULL
        OR s2.a_distance <= ?
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
          s3.resource_id1 = ?
          AND COALESCE(s3.p_distance, s3.hamming_distance) <= ?
          AND (
            s3.a_distance IS NULL
            OR s3.a_distance <= ?
          )
        UNION ALL
        SELECT
          s4.resource_id1 AS other_id,
          COALESCE(s4.p_distance, s4.hamming_distance) AS distance
        FROM
          resource_similarities s4
        WHERE
          s4.resource_id2 = ?
          AND COALESCE(s4.p_distance, s4.hamming_distance) <= ?
          AND (
            s4.a_distance IS NULL
            OR s4.a_distance <= ?
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
  ?;
-- params: [1,8,5,1,8,5,1,8,5,1,8,5,50]

-- MrqlRepository.rows (context scope, page 3)
WITH RECURSIVE
  scope_tree (id, depth) AS (
    SELECT
      id,
      0
    FROM
      groups
    WHERE
      id = ?
    UNION
    SELECT
      g.id,
      s.depth + 1
    FROM
      scope_tree s
      JOIN groups g ON g.owner_id = s.id
    WHERE
      s.depth < 50
  )
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
  1 = 1
  AND e.owner_id IN (
    SELECT
      id
    FROM
      scope_tree
  )
ORDER BY
  e.created_at DESC
LIMIT
  ?
OFFSET
  ?;
-- params: [5,20,40]

-- MrqlRepository.rows (principal scope, groups)
WITH RECURSIVE
  scope_tree (id, depth) AS (
    SELECT
      id,
      0
    FROM
      groups
    WHERE
      id = ?
    UNION
    SELECT
      g.id,
      s.depth + 1
    FROM
      scope_tree s
      JOIN groups g ON g.owner_id = s.id
    WHERE
      s.depth < 50
  )
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
  AND e.id IN (
    SELECT
      id
    FROM
      scope_tree
  )
ORDER BY
  lower(e.name)
LIMIT
  ?;
-- params: [9,50]

-- MrqlRepository.rows (scope of a missing anchor: runs nothing)
-- (no statement)

-- MrqlRepository.rows (scope by id)
WITH RECURSIVE
  st (id, depth) AS (
    SELECT
      id,
      0
    FROM
      groups
    WHERE
      id = ?
    UNION
    SELECT
      g.id,
      s.depth + 1
    FROM
      st s
      JOIN groups g ON g.owner_id = s.id
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
WITH RECURSIVE
  st (id, depth) AS (
    SELECT
      id,
      0
    FROM
      groups
    WHERE
      lower(name) = ?
    UNION
    SELECT
      g.id,
      s.depth + 1
    FROM
      st s
      JOIN groups g ON g.owner_id = s.id
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
  lower(m.name) = ?
ORDER BY
  m.id;
-- params: ["projects","projects"]

-- MrqlRepository.rows (cross-entity top n)
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
  lower(e.name) LIKE lower(?) ESCAPE '\'
ORDER BY
  e.created_at DESC
LIMIT
  ?;
-- params: ["%a%",10]

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
  lower(e.name) LIKE lower(?) ESCAPE '\'
ORDER BY
  e.created_at DESC
LIMIT
  ?;
-- params: ["%a%",10]

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
  lower(e.name) LIKE lower(?) ESCAPE '\'
ORDER BY
  e.created_at DESC
LIMIT
  ?;
-- params: ["%a%",10]

-- MrqlRepository.rows (cross-entity random)
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
  s.id,
  c.population
FROM
  (
    SELECT
      e.id
    FROM
      resources e
    WHERE
      lower(e.name) LIKE lower(?) ESCAPE '\'
    ORDER BY
      random()
    LIMIT
      ?
  ) s
  CROSS JOIN (
    SELECT
      COUNT(*) AS population
    FROM
      resources e
    WHERE
      lower(e.name) LIKE lower(?) ESCAPE '\'
  ) c;
-- params: ["%a%",5,"%a%"]

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
      lower(e.name) LIKE lower(?) ESCAPE '\'
    ORDER BY
      random()
    LIMIT
      ?
  ) s
  CROSS JOIN (
    SELECT
      COUNT(*) AS population
    FROM
      notes e
    WHERE
      lower(e.name) LIKE lower(?) ESCAPE '\'
  ) c;
-- params: ["%a%",5,"%a%"]

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
      lower(e.name) LIKE lower(?) ESCAPE '\'
    ORDER BY
      random()
    LIMIT
      ?
  ) s
  CROSS JOIN (
    SELECT
      COUNT(*) AS population
    FROM
      groups e
    WHERE
      lower(e.name) LIKE lower(?) ESCAPE '\'
  ) c;
-- params: ["%a%",5,"%a%"]

-- MrqlRepository.rows (random order)
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
  ?;
-- params: [3]

-- MrqlRepository.rows (GROUP BY aggregates, HAVING)
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
      COUNT(*) > ?
  ) sub
ORDER BY
  sub.a0 DESC
LIMIT
  ?;
-- params: [1,10]

-- MrqlRepository.rows (GROUP BY contentType COUNT() of all resources: the count table)
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
  sub.a0 DESC
LIMIT
  ?;
-- params: [20]

-- MrqlRepository.rows (GROUP BY meta and month)
SELECT
  *
FROM
  (
    SELECT
      NULLIF(json_type(e.meta, '$.camera'), 'null') AS k0_0,
      json_extract(e.meta, '$.camera') AS k0_1,
      strftime('%Y-%m', e.created_at, 'localtime') AS k1_0,
      COUNT(*) AS a0,
      AVG(
        (
          CASE
            WHEN json_type(e.meta, '$.rating') IN ('integer', 'real') THEN json_extract(e.meta, '$.rating')
          END
        )
      ) AS a1,
      COALESCE(
        MIN(
          (
            CASE
              WHEN json_type(e.meta, '$.rating') IN ('integer', 'real') THEN json_extract(e.meta, '$.rating')
            END
          )
        ),
        MIN(
          (
            CASE
              WHEN json_type(e.meta, '$.rating') = 'text' THEN json_extract(e.meta, '$.rating')
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
      WHEN sub.k0_0 IN ('integer', 'real') THEN 1
      WHEN sub.k0_0 = 'text' THEN 2
      WHEN sub.k0_0 = 'false' THEN 3
      WHEN sub.k0_0 = 'true' THEN 4
      ELSE 5
    END
  ),
  (
    CASE
      WHEN sub.k0_0 IN ('integer', 'real') THEN sub.k0_1
    END
  ),
  (
    CASE
      WHEN sub.k0_0 = 'text' THEN lower(sub.k0_1)
    END
  ),
  sub.k0_1
LIMIT
  ?;
-- params: [50]

-- MrqlRepository.rows (GROUP BY relation)
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
  ?;
-- params: [50]

-- MrqlRepository.rows (buckets: key discovery of an unfiltered key)
SELECT
  *
FROM
  (
    SELECT DISTINCT
      e.content_type AS k0_0
    FROM
      resources e
    WHERE
      1 = 1
  ) sub
ORDER BY
  lower(sub.k0_0)
LIMIT
  ?;
-- params: [1001]

-- MrqlRepository.rows (buckets: key discovery)
SELECT
  *
FROM
  (
    SELECT DISTINCT
      date(e.created_at, 'localtime', '-6 days', 'weekday 1') AS k0_0,
      NULLIF(json_type(e.meta, '$.camera'), 'null') AS k1_0,
      json_extract(e.meta, '$.camera') AS k1_1
    FROM
      resources e
    WHERE
      1 = 1
  ) sub
ORDER BY
  lower(sub.k0_0),
  (
    CASE
      WHEN sub.k1_0 IS NULL THEN 0
      WHEN sub.k1_0 IN ('integer', 'real') THEN 1
      WHEN sub.k1_0 = 'text' THEN 2
      WHEN sub.k1_0 = 'false' THEN 3
      WHEN sub.k1_0 = 'true' THEN 4
      ELSE 5
    END
  ),
  (
    CASE
      WHEN sub.k1_0 IN ('integer', 'real') THEN sub.k1_1
    END
  ),
  (
    CASE
      WHEN sub.k1_0 = 'text' THEN lower(sub.k1_1)
    END
  ),
  sub.k1_1
LIMIT
  ?;
-- params: [1001]

-- MrqlRepository.rows (buckets: items of two buckets)
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
      ? AS mrql_bucket
    FROM
      resources e
    WHERE
      (
        1 = 1
        AND e.file_size > ?
      )
      AND e.content_type = ?
      AND strftime('%Y-%m-%d', e.created_at, 'localtime') = ?
    ORDER BY
      lower(e.name)
    LIMIT
      ?
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
      ? AS mrql_bucket
    FROM
      resources e
    WHERE
      (
        1 = 1
        AND e.file_size > ?
      )
      AND e.content_type IS NULL
      AND strftime('%Y-%m-%d', e.created_at, 'localtime') = ?
    ORDER BY
      lower(e.name)
    LIMIT
      ?
  ) b1;
-- params: [0,1000,"image/png","2024-03-10",3,1,1000,"2024-03-11",3]

-- MrqlRepository.rows (cross-entity random: probe of drawn ids)
WITH RECURSIVE
  st (id, depth) AS (
    SELECT
      id,
      0
    FROM
      groups
    WHERE
      id = ?
    UNION
    SELECT
      g.id,
      s.depth + 1
    FROM
      st s
      JOIN groups g ON g.owner_id = s.id
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
          id = ?
        UNION
        SELECT
          g.id,
          s.depth + 1
        FROM
          scope_tree s
          JOIN groups g ON g.owner_id = s.id
        WHERE
          s.depth < 50
      )
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
      1 = 1
      AND e.owner_id IN (
        SELECT
          id
        FROM
          scope_tree
      )
    ORDER BY
      e.id
    LIMIT
      ?
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
          id = ?
        UNION
        SELECT
          g.id,
          s.depth + 1
        FROM
          scope_tree s
          JOIN groups g ON g.owner_id = s.id
        WHERE
          s.depth < 50
      )
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
            WHEN json_type(e.meta, '$.rating') IN ('integer', 'real') THEN json_extract(e.meta, '$.rating') > ?
          END
        )
      )
      AND e.owner_id IN (
        SELECT
          id
        FROM
          scope_tree
      )
    ORDER BY
      e.id
    LIMIT
      ?
  ) x1;
-- params: [2,20,3,2,5]

-- MrqlRepository.rows (one nested query under many scopes)
WITH RECURSIVE
  scope_tree (root, id, depth) AS (
    SELECT
      id,
      id,
      0
    FROM
      groups
    WHERE
      id IN (?, ?, ?)
    UNION
    SELECT
      s.root,
      g.id,
      s.depth + 1
    FROM
      scope_tree s
      JOIN groups g ON g.owner_id = s.id
    WHERE
      s.depth < 50
  )
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
  CROSS JOIN notes e ON e.id IN (
    SELECT
      e.id
    FROM
      (
        SELECT DISTINCT
          id
        FROM
          scope_tree
        WHERE
          root = r.id
      ) st
      CROSS JOIN notes e ON e.id IN (
        SELECT
          e.id
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
                AND j1.tag_id = ?
              LIMIT
                1
            )
          )
        ORDER BY
          e.created_at DESC
        LIMIT
          ?
      )
    ORDER BY
      e.created_at DESC
    LIMIT
      ?
    OFFSET
      ?
  )
WHERE
  r.id IN (?, ?, ?)
ORDER BY
  r.id,
  e.created_at DESC;
-- params: [2,3,5,3,20,20,0,2,3,5]

-- MrqlRepository.rows (one nested query under many scopes, in id order)
WITH RECURSIVE
  scope_tree (root, id, depth) AS (
    SELECT
      id,
      id,
      0
    FROM
      groups
    WHERE
      id IN (?, ?)
    UNION
    SELECT
      s.root,
      g.id,
      s.depth + 1
    FROM
      scope_tree s
      JOIN groups g ON g.owner_id = s.id
    WHERE
      s.depth < 50
  )
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
  CROSS JOIN resources e ON e.id IN (
    SELECT
      e.id
    FROM
      (
        SELECT DISTINCT
          id
        FROM
          scope_tree
        WHERE
          root = r.id
      ) st
      CROSS JOIN resources e ON e.owner_id = st.id
      AND (
        1 = 1
        AND (
          CASE
            WHEN json_type(e.meta, '$.rating') IN ('integer', 'real') THEN json_extract(e.meta, '$.rating') > ?
          END
        )
      )
      AND e.id <= COALESCE(
        (
          SELECT
            e.id
          FROM
            resources e
          WHERE
            e.owner_id = st.id
            AND (
              1 = 1
              AND (
                CASE
                  WHEN json_type(e.meta, '$.rating') IN ('integer', 'real') THEN json_extract(e.meta, '$.rating') > ?
                END
              )
            )
          ORDER BY
            e.id
          LIMIT
            1
          OFFSET
            ?
        ),
        9223372036854775807
      )
    ORDER BY
      e.id
    LIMIT
      ?
    OFFSET
      ?
  )
WHERE
  r.id IN (?, ?)
ORDER BY
  r.id,
  e.id;
-- params: [2,3,2,2,4,5,0,2,3]

-- MrqlRepository.rows (hydrate sampled ids)
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
  e.id IN (?, ?, ?);
-- params: [3,1,2]

-- MrqlRepository.rows (total count)
WITH RECURSIVE
  scope_tree (id, depth) AS (
    SELECT
      id,
      0
    FROM
      groups
    WHERE
      id = ?
    UNION
    SELECT
      g.id,
      s.depth + 1
    FROM
      scope_tree s
      JOIN groups g ON g.owner_id = s.id
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
          lower(n2.name) = ?
      )
    LIMIT
      1
  )
  AND e.owner_id IN (
    SELECT
      id
    FROM
      scope_tree
  );
-- params: [2,"red"]

WITH RECURSIVE
  scope_tree (id, depth) AS (
    SELECT
      id,
      0
    FROM
      groups
    WHERE
      id = ?
    UNION
    SELECT
      g.id,
      s.depth + 1
    FROM
      scope_tree s
      JOIN groups g ON g.owner_id = s.id
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
          lower(n2.name) = ?
      )
    LIMIT
      1
  )
  AND e.owner_id IN (
    SELECT
      id
    FROM
      scope_tree
  );
-- params: [2,"red"]

WITH RECURSIVE
  scope_tree (id, depth) AS (
    SELECT
      id,
      0
    FROM
      groups
    WHERE
      id = ?
    UNION
    SELECT
      g.id,
      s.depth + 1
    FROM
      scope_tree s
      JOIN groups g ON g.owner_id = s.id
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
          lower(n2.name) = ?
      )
    LIMIT
      1
  )
  AND e.id IN (
    SELECT
      id
    FROM
      scope_tree
  );
-- params: [2,"red"]

-- MrqlRepository.plans (explain with the native plan)
EXPLAIN QUERY PLAN
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
        WHEN json_type(e.meta, '$.rating') IN ('integer', 'real') THEN json_extract(e.meta, '$.rating') > ?
      END
    )
  )
ORDER BY
  e.created_at DESC
LIMIT
  ?;
-- params: [2,5]

-- SavedMrqlRepository.find
SELECT
  *
FROM
  "saved_mrql_queries"
WHERE
  "id" = ?;
-- params: [3]

-- SavedMrqlRepository.findByName
SELECT
  *
FROM
  "saved_mrql_queries"
WHERE
  "name" = ?;
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
  ?
OFFSET
  ?;
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
  (?, ?, ?, ?, ?, ?)
RETURNING
  *;
-- params: ["by tag","type = resource AND tags = $tag","","2024-06-01T12:00:00.000Z","2024-06-01T12:00:00.000Z",1]

-- SavedMrqlRepository.update
UPDATE "saved_mrql_queries"
SET
  "name" = ?,
  "query" = ?,
  "description" = ?,
  "updated_at" = ?
WHERE
  "id" = ?
RETURNING
  *;
-- params: ["by tag","type = note","notes","2024-06-01T12:00:00.000Z",3]

-- SavedMrqlRepository.remove
DELETE FROM "saved_mrql_queries"
WHERE
  "id" = ?;
-- params: [3]
