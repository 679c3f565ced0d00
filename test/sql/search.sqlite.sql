-- SearchRepository.search (full text, prefixes, resources)
SELECT
  t.id,
  t.name,
  t.description,
  t.content_type,
  t.original_name
FROM
  resources_fts f
  JOIN resources t ON t.id = f.rowid
WHERE
  resources_fts MATCH ?
ORDER BY
  f.rank
LIMIT
  ?;
-- params: ["\"harbour\"* \"light\"*",20]

-- SearchRepository.search (full text, one word, unscoped notes: SQLite profile postings first)
SELECT
  min(term) AS next
FROM
  notes_fts_postings
WHERE
  term > ?;
-- params: ["harbour"]

WITH RECURSIVE
  w (profile) AS (
    SELECT
      min(profile)
    FROM
      notes_fts_postings
    WHERE
      term = ?
    UNION ALL
    SELECT
      (
        SELECT
          min(profile)
        FROM
          notes_fts_postings
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
  notes_fts_data
WHERE
  id = 1;
-- params: ["harbour","harbour"]

SELECT
  t.id,
  t.name,
  t.description
FROM
  notes_fts f
  JOIN notes t ON t.id = f.rowid
WHERE
  notes_fts MATCH ?
ORDER BY
  f.rank
LIMIT
  ?;
-- params: ["\"harbour\"*",20]

-- SearchRepository.profileGroups (one exact word, groups)
WITH RECURSIVE
  w (profile) AS (
    SELECT
      min(profile)
    FROM
      groups_fts_postings
    WHERE
      term = ?
    UNION ALL
    SELECT
      (
        SELECT
          min(profile)
        FROM
          groups_fts_postings
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
  groups_fts_data
WHERE
  id = 1;
-- params: ["harbour","harbour"]

-- SearchRepository.search (full text, exact words, scoped groups)
SELECT
  t.id,
  t.name,
  t.description
FROM
  groups_fts f
  JOIN groups t ON t.id = f.rowid
WHERE
  groups_fts MATCH ?
  AND t.id IN (
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
          st.depth + 1
        FROM
          groups g
          JOIN st ON g.owner_id = st.id
        WHERE
          st.depth < 50
      )
    SELECT
      id
    FROM
      st
  )
ORDER BY
  f.rank
LIMIT
  ?;
-- params: ["\"harbour\"",4,20]

-- SearchRepository.search (LIKE with one-substitution patterns, scoped notes)
SELECT
  t.id,
  t.name,
  t.description
FROM
  notes t
WHERE
  (
    lower(t.name) LIKE lower(?) ESCAPE '\'
    OR lower(t.name) LIKE lower(?) ESCAPE '\'
    OR lower(t.name) LIKE lower(?) ESCAPE '\'
    OR lower(t.name) LIKE lower(?) ESCAPE '\'
    OR lower(t.name) LIKE lower(?) ESCAPE '\'
    OR lower(t.description) LIKE lower(?) ESCAPE '\'
    OR lower(t.description) LIKE lower(?) ESCAPE '\'
    OR lower(t.description) LIKE lower(?) ESCAPE '\'
    OR lower(t.description) LIKE lower(?) ESCAPE '\'
    OR lower(t.description) LIKE lower(?) ESCAPE '\'
  )
  AND t.owner_id IN (
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
          st.depth + 1
        FROM
          groups g
          JOIN st ON g.owner_id = st.id
        WHERE
          st.depth < 50
      )
    SELECT
      id
    FROM
      st
  )
ORDER BY
  t.id
LIMIT
  ?;
-- params: ["%harb%","%_arb%","%h_rb%","%ha_b%","%har_%","%harb%","%_arb%","%h_rb%","%ha_b%","%har_%",4,50]

-- SearchRepository.search (LIKE, saved queries)
SELECT
  t.id,
  t.name,
  t.description
FROM
  saved_mrql_queries t
WHERE
  (
    lower(t.name) LIKE lower(?) ESCAPE '\'
    OR lower(t.description) LIKE lower(?) ESCAPE '\'
  )
ORDER BY
  t.id
LIMIT
  ?;
-- params: ["%100\\%\\_off%","%100\\%\\_off%",20]
