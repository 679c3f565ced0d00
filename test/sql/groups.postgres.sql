-- GroupRepository.find
SELECT
  *
FROM
  "groups"
WHERE
  "groups"."id" = $1
  AND "groups"."id" IN (
    WITH RECURSIVE
      scope_tree (id, depth) AS (
        SELECT
          id,
          0
        FROM
          "groups"
        WHERE
          id = $2
        UNION
        SELECT
          g.id,
          s.depth + 1
        FROM
          "groups" g
          JOIN scope_tree s ON g.owner_id = s.id
        WHERE
          s.depth < 50
      )
    SELECT
      id
    FROM
      scope_tree
  );
-- params: [7,3]

-- GroupRepository.findByName
SELECT
  *
FROM
  "groups"
WHERE
  "name" = $1
ORDER BY
  "id";
-- params: ["Home"]

-- GroupRepository.findMany
SELECT
  *
FROM
  "groups"
WHERE
  "groups"."id" IN ($1, $2)
  AND "groups"."id" IN (
    WITH RECURSIVE
      scope_tree (id, depth) AS (
        SELECT
          id,
          0
        FROM
          "groups"
        WHERE
          id = $3
        UNION
        SELECT
          g.id,
          s.depth + 1
        FROM
          "groups" g
          JOIN scope_tree s ON g.owner_id = s.id
        WHERE
          s.depth < 50
      )
    SELECT
      id
    FROM
      scope_tree
  )
ORDER BY
  "groups"."id";
-- params: [1,2,3]

-- GroupRepository.page
SELECT
  (
    SELECT
      COUNT(*)
    FROM
      (
        WITH RECURSIVE
          scope_tree (id, depth) AS (
            SELECT
              id,
              0
            FROM
              "groups"
            WHERE
              id = $1
            UNION
            SELECT
              g.id,
              s.depth + 1
            FROM
              "groups" g
              JOIN scope_tree s ON g.owner_id = s.id
            WHERE
              s.depth < 50
          )
        SELECT
          id
        FROM
          scope_tree
      ) m
  ) AS n,
  (
    SELECT
      COUNT(*)
    FROM
      "groups"
  ) AS total;
-- params: [3]

SELECT
  "groups".*
FROM
  "groups"
WHERE
  groups.id = ANY (
    ARRAY(
      WITH RECURSIVE
        scope_tree (id, depth) AS (
          SELECT
            id,
            0
          FROM
            "groups"
          WHERE
            id = $1
          UNION
          SELECT
            g.id,
            s.depth + 1
          FROM
            "groups" g
            JOIN scope_tree s ON g.owner_id = s.id
          WHERE
            s.depth < 50
        )
      SELECT
        id
      FROM
        scope_tree
    )
  )
ORDER BY
  "groups"."created_at" DESC,
  "groups"."id" DESC
LIMIT
  $2
OFFSET
  $3;
-- params: [3,50,0]

-- GroupRepository.page (name widened to parents and children, exact)
SELECT
  (
    SELECT
      COUNT(*)
    FROM
      (
        WITH RECURSIVE
          scope_tree (id, depth) AS (
            SELECT
              id,
              0
            FROM
              "groups"
            WHERE
              id = $1
            UNION
            SELECT
              g.id,
              s.depth + 1
            FROM
              "groups" g
              JOIN scope_tree s ON g.owner_id = s.id
            WHERE
              s.depth < 50
          )
        SELECT
          id
        FROM
          scope_tree
      ) m
  ) AS n,
  (
    SELECT
      COUNT(*)
    FROM
      "groups"
  ) AS total;
-- params: [3]

SELECT
  "groups".*
FROM
  "groups"
WHERE
  (
    "groups"."name" = $1
    OR EXISTS (
      SELECT
        1
      FROM
        "groups" np
      WHERE
        np.id = "groups".owner_id
        AND "np"."name" = $2
    )
    OR EXISTS (
      SELECT
        1
      FROM
        "groups" nc
      WHERE
        nc.owner_id = "groups".id
        AND "nc"."name" = $3
    )
  )
  AND groups.id = ANY (
    ARRAY(
      WITH RECURSIVE
        scope_tree (id, depth) AS (
          SELECT
            id,
            0
          FROM
            "groups"
          WHERE
            id = $4
          UNION
          SELECT
            g.id,
            s.depth + 1
          FROM
            "groups" g
            JOIN scope_tree s ON g.owner_id = s.id
          WHERE
            s.depth < 50
        )
      SELECT
        id
      FROM
        scope_tree
    )
  )
ORDER BY
  "groups"."created_at" DESC,
  "groups"."id" DESC
LIMIT
  $5
OFFSET
  $6;
-- params: ["Home","Home","Home",3,50,0]

-- GroupRepository.page (tags widened, description, url, dates)
SELECT
  (
    SELECT
      COUNT(*)
    FROM
      (
        WITH RECURSIVE
          scope_tree (id, depth) AS (
            SELECT
              id,
              0
            FROM
              "groups"
            WHERE
              id = $1
            UNION
            SELECT
              g.id,
              s.depth + 1
            FROM
              "groups" g
              JOIN scope_tree s ON g.owner_id = s.id
            WHERE
              s.depth < 50
          )
        SELECT
          id
        FROM
          scope_tree
      ) m
  ) AS n,
  (
    SELECT
      COUNT(*)
    FROM
      "groups"
  ) AS total;
-- params: [3]

SELECT
  "groups".*
FROM
  "groups"
WHERE
  "groups"."description" ILIKE CAST($1 AS text) ESCAPE '\'
  AND "groups"."url" ILIKE CAST($2 AS text) ESCAPE '\'
  AND "groups"."created_at" >= $3
  AND "groups"."updated_at" <= $4
  AND (
    EXISTS (
      SELECT
        1
      FROM
        group_tags gt
      WHERE
        gt.group_id = "groups".id
        AND gt.tag_id = $5
    )
    OR EXISTS (
      SELECT
        1
      FROM
        group_tags gt
      WHERE
        gt.group_id = "groups".owner_id
        AND gt.tag_id = $6
    )
    OR EXISTS (
      SELECT
        1
      FROM
        group_tags gt
        JOIN "groups" c ON c.id = gt.group_id
      WHERE
        c.owner_id = "groups".id
        AND gt.tag_id = $7
    )
  )
  AND (
    EXISTS (
      SELECT
        1
      FROM
        group_tags gt
      WHERE
        gt.group_id = "groups".id
        AND gt.tag_id = $8
    )
    OR EXISTS (
      SELECT
        1
      FROM
        group_tags gt
      WHERE
        gt.group_id = "groups".owner_id
        AND gt.tag_id = $9
    )
    OR EXISTS (
      SELECT
        1
      FROM
        group_tags gt
        JOIN "groups" c ON c.id = gt.group_id
      WHERE
        c.owner_id = "groups".id
        AND gt.tag_id = $10
    )
  )
  AND groups.id = ANY (
    ARRAY(
      WITH RECURSIVE
        scope_tree (id, depth) AS (
          SELECT
            id,
            0
          FROM
            "groups"
          WHERE
            id = $11
          UNION
          SELECT
            g.id,
            s.depth + 1
          FROM
            "groups" g
            JOIN scope_tree s ON g.owner_id = s.id
          WHERE
            s.depth < 50
        )
      SELECT
        id
      FROM
        scope_tree
    )
  )
ORDER BY
  "groups"."created_at" DESC,
  "groups"."id" DESC
LIMIT
  $12
OFFSET
  $13;
-- params: ["%trip%","%example%","2024-01-01T00:00:00.000Z","2024-12-31T00:00:00.000Z",1,1,1,2,2,2,3,50,0]

-- GroupRepository.page (groups, notes, resources)
SELECT
  (
    SELECT
      COUNT(*)
    FROM
      (
        WITH RECURSIVE
          scope_tree (id, depth) AS (
            SELECT
              id,
              0
            FROM
              "groups"
            WHERE
              id = $1
            UNION
            SELECT
              g.id,
              s.depth + 1
            FROM
              "groups" g
              JOIN scope_tree s ON g.owner_id = s.id
            WHERE
              s.depth < 50
          )
        SELECT
          id
        FROM
          scope_tree
      ) m
  ) AS n,
  (
    SELECT
      COUNT(*)
    FROM
      "groups"
  ) AS total;
-- params: [3]

SELECT
  "groups".*
FROM
  "groups"
WHERE
  (
    "groups".owner_id = $1
    OR EXISTS (
      SELECT
        1
      FROM
        group_related_groups rg
      WHERE
        rg.group_id = "groups".id
        AND rg.related_group_id = $2
    )
  )
  AND (
    EXISTS (
      SELECT
        1
      FROM
        groups_related_notes rn
      WHERE
        rn.group_id = "groups".id
        AND rn.note_id = $3
    )
    OR EXISTS (
      SELECT
        1
      FROM
        notes o
      WHERE
        o.id = $4
        AND o.owner_id = "groups".id
    )
  )
  AND (
    EXISTS (
      SELECT
        1
      FROM
        groups_related_resources rr
      WHERE
        rr.group_id = "groups".id
        AND rr.resource_id = $5
    )
    OR EXISTS (
      SELECT
        1
      FROM
        resources o
      WHERE
        o.id = $6
        AND o.owner_id = "groups".id
    )
  )
  AND groups.id = ANY (
    ARRAY(
      WITH RECURSIVE
        scope_tree (id, depth) AS (
          SELECT
            id,
            0
          FROM
            "groups"
          WHERE
            id = $7
          UNION
          SELECT
            g.id,
            s.depth + 1
          FROM
            "groups" g
            JOIN scope_tree s ON g.owner_id = s.id
          WHERE
            s.depth < 50
        )
      SELECT
        id
      FROM
        scope_tree
    )
  )
ORDER BY
  "groups"."created_at" DESC,
  "groups"."id" DESC
LIMIT
  $8
OFFSET
  $9;
-- params: [3,3,4,4,5,5,3,50,0]

-- GroupRepository.page (categories, owner, ids, relation side, sorted by meta)
SELECT
  (
    SELECT
      COUNT(*)
    FROM
      (
        WITH RECURSIVE
          scope_tree (id, depth) AS (
            SELECT
              id,
              0
            FROM
              "groups"
            WHERE
              id = $1
            UNION
            SELECT
              g.id,
              s.depth + 1
            FROM
              "groups" g
              JOIN scope_tree s ON g.owner_id = s.id
            WHERE
              s.depth < 50
          )
        SELECT
          id
        FROM
          scope_tree
      ) m
  ) AS n,
  (
    SELECT
      COUNT(*)
    FROM
      "groups"
  ) AS total;
-- params: [3]

SELECT
  "groups".*
FROM
  "groups"
WHERE
  "groups"."category_id" IN ($1, $2)
  AND "groups"."category_id" = $3
  AND "groups"."owner_id" = $4
  AND "groups"."id" IN ($5, $6)
  AND "groups".category_id = (
    SELECT
      "rt"."to_category_id"
    FROM
      group_relation_types rt
    WHERE
      rt.id = $7
  )
  AND groups.id = ANY (
    ARRAY(
      WITH RECURSIVE
        scope_tree (id, depth) AS (
          SELECT
            id,
            0
          FROM
            "groups"
          WHERE
            id = $8
          UNION
          SELECT
            g.id,
            s.depth + 1
          FROM
            "groups" g
            JOIN scope_tree s ON g.owner_id = s.id
          WHERE
            s.depth < 50
        )
      SELECT
        id
      FROM
        scope_tree
    )
  )
ORDER BY
  ("groups"."meta" #>> '{rank}') DESC NULLS LAST,
  "groups"."name" ASC NULLS LAST,
  "groups"."created_at" DESC,
  "groups"."id" DESC
LIMIT
  $9
OFFSET
  $10;
-- params: [1,2,1,3,4,5,6,3,50,100]

-- GroupRepository.page (MetaQuery with parent. and child., MRQL)
SELECT
  (
    SELECT
      COUNT(*)
    FROM
      (
        WITH RECURSIVE
          scope_tree (id, depth) AS (
            SELECT
              id,
              0
            FROM
              "groups"
            WHERE
              id = $1
            UNION
            SELECT
              g.id,
              s.depth + 1
            FROM
              "groups" g
              JOIN scope_tree s ON g.owner_id = s.id
            WHERE
              s.depth < 50
          )
        SELECT
          id
        FROM
          scope_tree
      ) m
  ) AS n,
  (
    SELECT
      COUNT(*)
    FROM
      "groups"
  ) AS total;
-- params: [3]

SELECT
  "groups".*
FROM
  "groups"
WHERE
  "groups".name LIKE $1
  AND (
    (
      (
        jsonb_typeof(("groups"."meta" #> '{rank}')) = 'number'
        AND ("groups"."meta" #> '{rank}') > CAST($2 AS jsonb)
      )
    )
    AND EXISTS (
      SELECT
        1
      FROM
        "groups" mq_parent
      WHERE
        mq_parent.id = "groups"."owner_id"
        AND (CAST((mq_parent.meta #> '{region}') AS text) LIKE $3 ESCAPE '\')
    )
    AND EXISTS (
      SELECT
        1
      FROM
        "groups" mq_child
      WHERE
        mq_child.owner_id = "groups"."id"
        AND (
          (
            jsonb_typeof((mq_child.meta #> '{size}')) = 'number'
            AND (mq_child.meta #> '{size}') <= CAST($4 AS jsonb)
          )
        )
    )
  )
  AND groups.id = ANY (
    ARRAY(
      WITH RECURSIVE
        scope_tree (id, depth) AS (
          SELECT
            id,
            0
          FROM
            "groups"
          WHERE
            id = $5
          UNION
          SELECT
            g.id,
            s.depth + 1
          FROM
            "groups" g
            JOIN scope_tree s ON g.owner_id = s.id
          WHERE
            s.depth < 50
        )
      SELECT
        id
      FROM
        scope_tree
    )
  )
ORDER BY
  "groups"."created_at" DESC,
  "groups"."id" DESC
LIMIT
  $6
OFFSET
  $7;
-- params: ["trip%","3","%north%","10",3,50,0]

-- GroupRepository.count
SELECT
  count(*) AS "n"
FROM
  "groups"
WHERE
  ("groups"."name" ILIKE CAST($1 AS text) ESCAPE '\')
  AND "groups"."id" IN (
    WITH RECURSIVE
      scope_tree (id, depth) AS (
        SELECT
          id,
          0
        FROM
          "groups"
        WHERE
          id = $2
        UNION
        SELECT
          g.id,
          s.depth + 1
        FROM
          "groups" g
          JOIN scope_tree s ON g.owner_id = s.id
        WHERE
          s.depth < 50
      )
    SELECT
      id
    FROM
      scope_tree
  );
-- params: ["%trip%",3]

-- GroupRepository.timeline
SELECT
  sum(
    CASE
      WHEN "groups"."created_at" >= $1
      AND "groups"."created_at" < $2 THEN 1
      ELSE 0
    END
  ) AS "c0",
  sum(
    CASE
      WHEN "groups"."updated_at" >= $3
      AND "groups"."updated_at" < $4
      AND "groups"."updated_at" > "groups"."created_at" THEN 1
      ELSE 0
    END
  ) AS "u0",
  sum(
    CASE
      WHEN "groups"."created_at" >= $5
      AND "groups"."created_at" < $6 THEN 1
      ELSE 0
    END
  ) AS "c1",
  sum(
    CASE
      WHEN "groups"."updated_at" >= $7
      AND "groups"."updated_at" < $8
      AND "groups"."updated_at" > "groups"."created_at" THEN 1
      ELSE 0
    END
  ) AS "u1"
FROM
  "groups"
WHERE
  (
    EXISTS (
      SELECT
        1
      FROM
        group_tags gt
      WHERE
        gt.group_id = "groups".id
        AND gt.tag_id = $9
    )
  )
  AND "groups"."id" IN (
    WITH RECURSIVE
      scope_tree (id, depth) AS (
        SELECT
          id,
          0
        FROM
          "groups"
        WHERE
          id = $10
        UNION
        SELECT
          g.id,
          s.depth + 1
        FROM
          "groups" g
          JOIN scope_tree s ON g.owner_id = s.id
        WHERE
          s.depth < 50
      )
    SELECT
      id
    FROM
      scope_tree
  )
  AND (
    (
      "groups"."created_at" >= $11
      AND "groups"."created_at" < $12
    )
    OR (
      "groups"."updated_at" >= $13
      AND "groups"."updated_at" < $14
    )
  );
-- params: ["2024-01-01T00:00:00.000Z","2024-02-01T00:00:00.000Z","2024-01-01T00:00:00.000Z","2024-02-01T00:00:00.000Z","2024-02-01T00:00:00.000Z","2024-03-01T00:00:00.000Z","2024-02-01T00:00:00.000Z","2024-03-01T00:00:00.000Z",1,3,"2024-01-01T00:00:00.000Z","2024-03-01T00:00:00.000Z","2024-01-01T00:00:00.000Z","2024-03-01T00:00:00.000Z"]

-- GroupRepository.matchingIds
SELECT
  "groups"."id" AS "id"
FROM
  "groups"
WHERE
  "groups".name LIKE $1
  AND ("groups"."name" ILIKE CAST($2 AS text) ESCAPE '\')
  AND "groups"."id" IN (
    WITH RECURSIVE
      scope_tree (id, depth) AS (
        SELECT
          id,
          0
        FROM
          "groups"
        WHERE
          id = $3
        UNION
        SELECT
          g.id,
          s.depth + 1
        FROM
          "groups" g
          JOIN scope_tree s ON g.owner_id = s.id
        WHERE
          s.depth < 50
      )
    SELECT
      id
    FROM
      scope_tree
  )
ORDER BY
  "groups"."id"
LIMIT
  $4;
-- params: ["trip%","%trip%",3,501]

-- GroupRepository.insert
INSERT INTO
  "groups" (
    "created_at",
    "updated_at",
    "created_by_user_id",
    "guid",
    "name",
    "description",
    "url",
    "meta",
    "owner_id",
    "category_id"
  )
VALUES
  ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
RETURNING
  "id";
-- params: ["2024-01-01T00:00:00.000Z","2024-01-01T00:00:00.000Z",1,"00000000-0000-4000-8000-000000000000","Home","",null,"{}",null,2]

-- GroupRepository.update
UPDATE "groups"
SET
  "name" = $1,
  "owner_id" = $2,
  "category_id" = $3,
  "meta" = $4,
  "updated_at" = $5
WHERE
  "groups"."id" = $6
  AND "groups"."id" IN (
    WITH RECURSIVE
      scope_tree (id, depth) AS (
        SELECT
          id,
          0
        FROM
          "groups"
        WHERE
          id = $7
        UNION
        SELECT
          g.id,
          s.depth + 1
        FROM
          "groups" g
          JOIN scope_tree s ON g.owner_id = s.id
        WHERE
          s.depth < 50
      )
    SELECT
      id
    FROM
      scope_tree
  );
-- params: ["Away",3,null,"{\"a\":1}","2024-06-01T12:00:00.000Z",7,3]

-- GroupRepository.remove
DELETE FROM "groups"
WHERE
  "groups"."id" IN ($1, $2)
  AND "groups"."id" IN (
    WITH RECURSIVE
      scope_tree (id, depth) AS (
        SELECT
          id,
          0
        FROM
          "groups"
        WHERE
          id = $3
        UNION
        SELECT
          g.id,
          s.depth + 1
        FROM
          "groups" g
          JOIN scope_tree s ON g.owner_id = s.id
        WHERE
          s.depth < 50
      )
    SELECT
      id
    FROM
      scope_tree
  );
-- params: [7,8,3]

-- GroupRepository.children
SELECT
  *
FROM
  "groups"
WHERE
  "owner_id" = $1
  AND "groups"."id" IN (
    WITH RECURSIVE
      scope_tree (id, depth) AS (
        SELECT
          id,
          0
        FROM
          "groups"
        WHERE
          id = $2
        UNION
        SELECT
          g.id,
          s.depth + 1
        FROM
          "groups" g
          JOIN scope_tree s ON g.owner_id = s.id
        WHERE
          s.depth < 50
      )
    SELECT
      id
    FROM
      scope_tree
  )
ORDER BY
  "name"
LIMIT
  $3;
-- params: [7,3,50]

-- GroupRepository.relatedGroups
SELECT
  "groups".*
FROM
  "group_related_groups" AS "rg"
  INNER JOIN "groups" ON "groups"."id" = "rg"."related_group_id"
WHERE
  "rg"."group_id" = $1
  AND "groups"."id" IN (
    WITH RECURSIVE
      scope_tree (id, depth) AS (
        SELECT
          id,
          0
        FROM
          "groups"
        WHERE
          id = $2
        UNION
        SELECT
          g.id,
          s.depth + 1
        FROM
          "groups" g
          JOIN scope_tree s ON g.owner_id = s.id
        WHERE
          s.depth < 50
      )
    SELECT
      id
    FROM
      scope_tree
  )
ORDER BY
  "groups"."name"
LIMIT
  $3;
-- params: [7,3,50]

-- GroupRepository.ancestors
WITH RECURSIVE
  chain (id, owner_id, depth) AS (
    SELECT
      id,
      owner_id,
      0
    FROM
      "groups"
    WHERE
      id = $1
    UNION
    SELECT
      g.id,
      g.owner_id,
      chain.depth + 1
    FROM
      "groups" g
      JOIN chain ON g.id = chain.owner_id
    WHERE
      chain.depth < 10000
  )
SELECT
  g.*,
  chain.depth
FROM
  chain
  JOIN "groups" g ON g.id = chain.id
ORDER BY
  chain.depth DESC;
-- params: [7]

-- GroupRepository.visibleAmong
SELECT
  "groups"."id"
FROM
  "groups"
WHERE
  "groups"."id" IN ($1, $2)
  AND "groups"."id" IN (
    WITH RECURSIVE
      scope_tree (id, depth) AS (
        SELECT
          id,
          0
        FROM
          "groups"
        WHERE
          id = $3
        UNION
        SELECT
          g.id,
          s.depth + 1
        FROM
          "groups" g
          JOIN scope_tree s ON g.owner_id = s.id
        WHERE
          s.depth < 50
      )
    SELECT
      id
    FROM
      scope_tree
  );
-- params: [1,7,3]

-- GroupRepository.wouldCreateCycle
WITH RECURSIVE
  chain (id, owner_id) AS (
    SELECT
      id,
      owner_id
    FROM
      "groups"
    WHERE
      id = $1
    UNION
    SELECT
      g.id,
      g.owner_id
    FROM
      "groups" g
      JOIN chain ON g.id = chain.owner_id
  )
SELECT
  1 AS hit
FROM
  chain
WHERE
  id = $2
LIMIT
  1;
-- params: [9,7]

-- GroupRepository.treeChildren (roots)
SELECT
  g.id,
  g.name,
  c.name AS "categoryName",
  g.owner_id AS "ownerId",
  (
    SELECT
      count(*)
    FROM
      "groups" k
    WHERE
      k.owner_id = g.id
  ) AS "childCount"
FROM
  "groups" g
  LEFT JOIN categories c ON c.id = g.category_id
WHERE
  g.id = $1
  AND "g"."id" IN (
    WITH RECURSIVE
      scope_tree (id, depth) AS (
        SELECT
          id,
          0
        FROM
          "groups"
        WHERE
          id = $2
        UNION
        SELECT
          g.id,
          s.depth + 1
        FROM
          "groups" g
          JOIN scope_tree s ON g.owner_id = s.id
        WHERE
          s.depth < 50
      )
    SELECT
      id
    FROM
      scope_tree
  )
ORDER BY
  lower(g.name),
  g.id
LIMIT
  $3;
-- params: [3,3,50]

-- GroupRepository.treeChildren (of a parent)
SELECT
  g.id,
  g.name,
  c.name AS "categoryName",
  g.owner_id AS "ownerId",
  (
    SELECT
      count(*)
    FROM
      "groups" k
    WHERE
      k.owner_id = g.id
  ) AS "childCount"
FROM
  "groups" g
  LEFT JOIN categories c ON c.id = g.category_id
WHERE
  g.owner_id = $1
  AND "g"."id" IN (
    WITH RECURSIVE
      scope_tree (id, depth) AS (
        SELECT
          id,
          0
        FROM
          "groups"
        WHERE
          id = $2
        UNION
        SELECT
          g.id,
          s.depth + 1
        FROM
          "groups" g
          JOIN scope_tree s ON g.owner_id = s.id
        WHERE
          s.depth < 50
      )
    SELECT
      id
    FROM
      scope_tree
  )
ORDER BY
  lower(g.name),
  g.id
LIMIT
  $3;
-- params: [7,3,100]

-- GroupRepository.setTags
DELETE FROM "group_tags"
WHERE
  "group_id" = $1;
-- params: [7]

INSERT INTO
  "group_tags" ("group_id", "tag_id")
VALUES
  ($1, $2),
  ($3, $4);
-- params: [7,1,7,2]

-- GroupRepository.setTags (clear)
DELETE FROM "group_tags"
WHERE
  "group_id" = $1;
-- params: [7]

-- GroupRepository.setRelatedGroups
DELETE FROM "group_related_groups"
WHERE
  "group_id" = $1;
-- params: [7]

INSERT INTO
  "group_related_groups" ("group_id", "related_group_id")
VALUES
  ($1, $2),
  ($3, $4);
-- params: [7,8,7,9]

-- GroupRepository.isUserScope
SELECT
  "id"
FROM
  "users"
WHERE
  "scope_group_id" IN ($1, $2)
LIMIT
  $3;
-- params: [7,8,1]

-- GroupRepository.metas
SELECT
  "meta"
FROM
  "groups"
WHERE
  "id" IN ($1, $2)
ORDER BY
  "id";
-- params: [8,9]

-- GroupRepository.resourceStubs (owned)
SELECT
  "resources"."id",
  "resources"."name",
  "resources"."content_type",
  "resources"."file_size",
  "resources"."created_at"
FROM
  "resources"
WHERE
  "resources"."owner_id" IN (
    WITH RECURSIVE
      scope_tree (id, depth) AS (
        SELECT
          id,
          0
        FROM
          "groups"
        WHERE
          id = $1
        UNION
        SELECT
          g.id,
          s.depth + 1
        FROM
          "groups" g
          JOIN scope_tree s ON g.owner_id = s.id
        WHERE
          s.depth < 50
      )
    SELECT
      id
    FROM
      scope_tree
  )
  AND "resources"."owner_id" = $2
ORDER BY
  "resources"."created_at" DESC,
  "resources"."id" DESC
LIMIT
  $3;
-- params: [3,7,5]

-- GroupRepository.resourceStubs (related)
SELECT
  "resources"."id",
  "resources"."name",
  "resources"."content_type",
  "resources"."file_size",
  "resources"."created_at"
FROM
  "resources"
  INNER JOIN "groups_related_resources" AS "rr" ON "rr"."resource_id" = "resources"."id"
WHERE
  "resources"."owner_id" IN (
    WITH RECURSIVE
      scope_tree (id, depth) AS (
        SELECT
          id,
          0
        FROM
          "groups"
        WHERE
          id = $1
        UNION
        SELECT
          g.id,
          s.depth + 1
        FROM
          "groups" g
          JOIN scope_tree s ON g.owner_id = s.id
        WHERE
          s.depth < 50
      )
    SELECT
      id
    FROM
      scope_tree
  )
  AND "rr"."group_id" = $2
ORDER BY
  "resources"."created_at" DESC,
  "resources"."id" DESC
LIMIT
  $3;
-- params: [3,7,5]

-- GroupRepository.noteStubs (owned)
SELECT
  "notes"."id",
  "notes"."name",
  "notes"."description",
  "notes"."created_at"
FROM
  "notes"
WHERE
  "notes"."owner_id" IN (
    WITH RECURSIVE
      scope_tree (id, depth) AS (
        SELECT
          id,
          0
        FROM
          "groups"
        WHERE
          id = $1
        UNION
        SELECT
          g.id,
          s.depth + 1
        FROM
          "groups" g
          JOIN scope_tree s ON g.owner_id = s.id
        WHERE
          s.depth < 50
      )
    SELECT
      id
    FROM
      scope_tree
  )
  AND "notes"."owner_id" = $2
ORDER BY
  "notes"."created_at" DESC,
  "notes"."id" DESC
LIMIT
  $3;
-- params: [3,7,50]

-- GroupRepository.noteStubs (related)
SELECT
  "notes"."id",
  "notes"."name",
  "notes"."description",
  "notes"."created_at"
FROM
  "notes"
  INNER JOIN "groups_related_notes" AS "rn" ON "rn"."note_id" = "notes"."id"
WHERE
  "notes"."owner_id" IN (
    WITH RECURSIVE
      scope_tree (id, depth) AS (
        SELECT
          id,
          0
        FROM
          "groups"
        WHERE
          id = $1
        UNION
        SELECT
          g.id,
          s.depth + 1
        FROM
          "groups" g
          JOIN scope_tree s ON g.owner_id = s.id
        WHERE
          s.depth < 50
      )
    SELECT
      id
    FROM
      scope_tree
  )
  AND "rn"."group_id" = $2
ORDER BY
  "notes"."created_at" DESC,
  "notes"."id" DESC
LIMIT
  $3;
-- params: [3,7,50]

-- GroupCopyRepository.copyLinks
INSERT INTO
  "group_tags" (group_id, "tag_id")
SELECT
  CAST($1 AS integer),
  "tag_id"
FROM
  "group_tags"
WHERE
  group_id = $2;
-- params: [12,7]

INSERT INTO
  "groups_related_resources" (group_id, "resource_id")
SELECT
  CAST($1 AS integer),
  "resource_id"
FROM
  "groups_related_resources"
WHERE
  group_id = $2;
-- params: [12,7]

INSERT INTO
  "groups_related_notes" (group_id, "note_id")
SELECT
  CAST($1 AS integer),
  "note_id"
FROM
  "groups_related_notes"
WHERE
  group_id = $2;
-- params: [12,7]

INSERT INTO
  "group_related_groups" (group_id, "related_group_id")
SELECT
  CAST($1 AS integer),
  "related_group_id"
FROM
  "group_related_groups"
WHERE
  group_id = $2;
-- params: [12,7]

-- GroupCopyRepository.copyRelations
INSERT INTO
  group_relations (
    created_at,
    updated_at,
    created_by_user_id,
    name,
    description,
    from_group_id,
    to_group_id,
    relation_type_id
  )
SELECT
  CAST($1 AS timestamptz),
  CAST($2 AS timestamptz),
  created_by_user_id,
  name,
  description,
  CAST($3 AS integer),
  to_group_id,
  relation_type_id
FROM
  group_relations
WHERE
  from_group_id = $4
  AND to_group_id <> $5;
-- params: ["2024-06-01T12:00:00.000Z","2024-06-01T12:00:00.000Z",12,7,7]

INSERT INTO
  group_relations (
    created_at,
    updated_at,
    created_by_user_id,
    name,
    description,
    from_group_id,
    to_group_id,
    relation_type_id
  )
SELECT
  CAST($1 AS timestamptz),
  CAST($2 AS timestamptz),
  created_by_user_id,
  name,
  description,
  from_group_id,
  CAST($3 AS integer),
  relation_type_id
FROM
  group_relations
WHERE
  to_group_id = $4
  AND from_group_id <> $5;
-- params: ["2024-06-01T12:00:00.000Z","2024-06-01T12:00:00.000Z",12,7,7]

-- GroupCopyRepository.moveRelationships
INSERT INTO
  "group_tags" (group_id, "tag_id")
SELECT DISTINCT
  CAST($1 AS integer),
  x."tag_id"
FROM
  "group_tags" x
WHERE
  x.group_id IN ($2, $3)
  AND NOT EXISTS (
    SELECT
      1
    FROM
      "group_tags" y
    WHERE
      y.group_id = $4
      AND y."tag_id" = x."tag_id"
  );
-- params: [7,8,9,7]

INSERT INTO
  "groups_related_resources" (group_id, "resource_id")
SELECT DISTINCT
  CAST($1 AS integer),
  x."resource_id"
FROM
  "groups_related_resources" x
WHERE
  x.group_id IN ($2, $3)
  AND NOT EXISTS (
    SELECT
      1
    FROM
      "groups_related_resources" y
    WHERE
      y.group_id = $4
      AND y."resource_id" = x."resource_id"
  );
-- params: [7,8,9,7]

INSERT INTO
  "groups_related_notes" (group_id, "note_id")
SELECT DISTINCT
  CAST($1 AS integer),
  x."note_id"
FROM
  "groups_related_notes" x
WHERE
  x.group_id IN ($2, $3)
  AND NOT EXISTS (
    SELECT
      1
    FROM
      "groups_related_notes" y
    WHERE
      y.group_id = $4
      AND y."note_id" = x."note_id"
  );
-- params: [7,8,9,7]

INSERT INTO
  "group_related_groups" (group_id, "related_group_id")
SELECT DISTINCT
  CAST($1 AS integer),
  x."related_group_id"
FROM
  "group_related_groups" x
WHERE
  x.group_id IN ($2, $3)
  AND NOT EXISTS (
    SELECT
      1
    FROM
      "group_related_groups" y
    WHERE
      y.group_id = $4
      AND y."related_group_id" = x."related_group_id"
  );
-- params: [7,8,9,7]

DELETE FROM "group_related_groups"
WHERE
  "group_id" = $1
  AND "related_group_id" IN ($2, $3, $4);
-- params: [7,7,8,9]

INSERT INTO
  group_related_groups (group_id, related_group_id)
SELECT DISTINCT
  x.group_id,
  CAST($1 AS integer)
FROM
  group_related_groups x
WHERE
  x.related_group_id IN ($2, $3)
  AND x.group_id <> $4
  AND x.group_id NOT IN ($5, $6)
  AND NOT EXISTS (
    SELECT
      1
    FROM
      group_related_groups y
    WHERE
      y.group_id = x.group_id
      AND y.related_group_id = $7
  );
-- params: [7,8,9,7,8,9,7]

UPDATE "groups"
SET
  "owner_id" = $1
WHERE
  "owner_id" IN ($2, $3)
  AND "id" <> $4;
-- params: [7,8,9,7]

UPDATE "notes"
SET
  "owner_id" = $1
WHERE
  "owner_id" IN ($2, $3)
  AND "id" <> $4;
-- params: [7,8,9,7]

UPDATE "resources"
SET
  "owner_id" = $1
WHERE
  "owner_id" IN ($2, $3)
  AND "id" <> $4;
-- params: [7,8,9,7]

UPDATE group_relations
SET
  from_group_id = $1
WHERE
  from_group_id IN ($2, $3)
  AND to_group_id <> $4
  AND to_group_id NOT IN ($5, $6)
  AND NOT EXISTS (
    SELECT
      1
    FROM
      group_relations d
    WHERE
      d.from_group_id = $7
      AND d.to_group_id = group_relations.to_group_id
      AND d.relation_type_id = group_relations.relation_type_id
  );
-- params: [7,8,9,7,8,9,7]

UPDATE group_relations
SET
  to_group_id = $1
WHERE
  to_group_id IN ($2, $3)
  AND from_group_id <> $4
  AND from_group_id NOT IN ($5, $6)
  AND NOT EXISTS (
    SELECT
      1
    FROM
      group_relations d
    WHERE
      d.to_group_id = $7
      AND d.from_group_id = group_relations.from_group_id
      AND d.relation_type_id = group_relations.relation_type_id
  );
-- params: [7,8,9,7,8,9,7]
