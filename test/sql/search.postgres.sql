-- SearchRepository.search (full text, prefixes, resources)
SELECT
  t.id,
  t.name,
  t.description,
  t.content_type,
  t.original_name
FROM
  resources t,
  (
    SELECT
      COALESCE(
        (
          SELECT
            to_tsquery('simple', string_agg(quote_literal(lexeme) || ':*', ' & '))
          FROM
            unnest(to_tsvector('english', CAST($1 AS text)))
        ) || (
          SELECT
            to_tsquery('simple', string_agg(quote_literal(lexeme) || ':*', ' & '))
          FROM
            unnest(to_tsvector('simple', CAST($2 AS text)))
        ),
        (
          SELECT
            to_tsquery('simple', string_agg(quote_literal(lexeme) || ':*', ' & '))
          FROM
            unnest(to_tsvector('simple', CAST($3 AS text)))
        )
      )
  ) AS q (tsq)
WHERE
  t.search_vector @@ q.tsq
ORDER BY
  ts_rank(t.search_vector, q.tsq) DESC
LIMIT
  $4;
-- params: ["harbour light","harbour light","harbour light",20]

-- SearchRepository.search (full text, one word, unscoped notes: SQLite profile postings first)
SELECT
  t.id,
  t.name,
  t.description
FROM
  notes t,
  (
    SELECT
      COALESCE(
        (
          SELECT
            to_tsquery('simple', string_agg(quote_literal(lexeme) || ':*', ' & '))
          FROM
            unnest(to_tsvector('english', CAST($1 AS text)))
        ) || (
          SELECT
            to_tsquery('simple', string_agg(quote_literal(lexeme) || ':*', ' & '))
          FROM
            unnest(to_tsvector('simple', CAST($2 AS text)))
        ),
        (
          SELECT
            to_tsquery('simple', string_agg(quote_literal(lexeme) || ':*', ' & '))
          FROM
            unnest(to_tsvector('simple', CAST($3 AS text)))
        )
      )
  ) AS q (tsq)
WHERE
  t.search_vector @@ q.tsq
ORDER BY
  ts_rank(t.search_vector, q.tsq) DESC
LIMIT
  $4;
-- params: ["harbour","harbour","harbour",20]

-- SearchRepository.profileGroups (one exact word, groups)
-- (no statement)

-- SearchRepository.search (full text, exact words, scoped groups)
SELECT
  t.id,
  t.name,
  t.description
FROM
  groups t
WHERE
  t.search_vector @@ plainto_tsquery('english', CAST($1 AS text))
  AND t.id IN (
    WITH RECURSIVE
      st (id, depth) AS (
        SELECT
          id,
          0
        FROM
          groups
        WHERE
          id = $2
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
  ts_rank(t.search_vector, plainto_tsquery('english', CAST($3 AS text))) DESC
LIMIT
  $4;
-- params: ["harbour",4,"harbour",20]

-- SearchRepository.search (LIKE with one-substitution patterns, scoped notes)
SELECT
  t.id,
  t.name,
  t.description
FROM
  notes t
WHERE
  (
    t.name ILIKE CAST($1 AS text) ESCAPE '\'
    OR t.name ILIKE CAST($2 AS text) ESCAPE '\'
    OR t.name ILIKE CAST($3 AS text) ESCAPE '\'
    OR t.name ILIKE CAST($4 AS text) ESCAPE '\'
    OR t.name ILIKE CAST($5 AS text) ESCAPE '\'
    OR t.description ILIKE CAST($6 AS text) ESCAPE '\'
    OR t.description ILIKE CAST($7 AS text) ESCAPE '\'
    OR t.description ILIKE CAST($8 AS text) ESCAPE '\'
    OR t.description ILIKE CAST($9 AS text) ESCAPE '\'
    OR t.description ILIKE CAST($10 AS text) ESCAPE '\'
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
          id = $11
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
  $12;
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
    t.name ILIKE CAST($1 AS text) ESCAPE '\'
    OR t.description ILIKE CAST($2 AS text) ESCAPE '\'
  )
ORDER BY
  t.id
LIMIT
  $3;
-- params: ["%100\\%\\_off%","%100\\%\\_off%",20]
