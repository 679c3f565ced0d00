-- GroupRepository.find
SELECT
  *
FROM
  "groups"
WHERE
  "groups"."id" = ?
  AND "groups"."id" IN (
    WITH RECURSIVE
      scope_tree (id, depth) AS (
        SELECT
          id,
          0
        FROM
          "groups"
        WHERE
          id = ?
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
  "name" = ?
ORDER BY
  "id";
-- params: ["Home"]

-- GroupRepository.findMany
SELECT
  *
FROM
  "groups"
WHERE
  "groups"."id" IN (?, ?)
  AND "groups"."id" IN (
    WITH RECURSIVE
      scope_tree (id, depth) AS (
        SELECT
          id,
          0
        FROM
          "groups"
        WHERE
          id = ?
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
              id = ?
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
  + groups.id IN (
    WITH RECURSIVE
      scope_tree (id, depth) AS (
        SELECT
          id,
          0
        FROM
          "groups"
        WHERE
          id = ?
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
  "groups"."created_at" DESC,
  "groups"."id" DESC
LIMIT
  ?
OFFSET
  ?;
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
              id = ?
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
    "groups"."name" = ?
    OR EXISTS (
      SELECT
        1
      FROM
        "groups" np
      WHERE
        np.id = "groups".owner_id
        AND "np"."name" = ?
    )
    OR EXISTS (
      SELECT
        1
      FROM
        "groups" nc
      WHERE
        nc.owner_id = "groups".id
        AND "nc"."name" = ?
    )
  )
  AND groups.id IN (
    WITH RECURSIVE
      scope_tree (id, depth) AS (
        SELECT
          id,
          0
        FROM
          "groups"
        WHERE
          id = ?
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
  "groups"."created_at" DESC,
  "groups"."id" DESC
LIMIT
  ?
OFFSET
  ?;
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
              id = ?
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
  lower("groups"."description") LIKE lower(?) ESCAPE '\'
  AND lower("groups"."url") LIKE lower(?) ESCAPE '\'
  AND "groups"."created_at" >= ?
  AND "groups"."updated_at" <= ?
  AND (
    EXISTS (
      SELECT
        1
      FROM
        group_tags gt
      WHERE
        gt.group_id = "groups".id
        AND gt.tag_id = ?
    )
    OR EXISTS (
      SELECT
        1
      FROM
        group_tags gt
      WHERE
        gt.group_id = "groups".owner_id
        AND gt.tag_id = ?
    )
    OR EXISTS (
      SELECT
        1
      FROM
        group_tags gt
        JOIN "groups" c ON c.id = gt.group_id
      WHERE
        c.owner_id = "groups".id
        AND gt.tag_id = ?
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
        AND gt.tag_id = ?
    )
    OR EXISTS (
      SELECT
        1
      FROM
        group_tags gt
      WHERE
        gt.group_id = "groups".owner_id
        AND gt.tag_id = ?
    )
    OR EXISTS (
      SELECT
        1
      FROM
        group_tags gt
        JOIN "groups" c ON c.id = gt.group_id
      WHERE
        c.owner_id = "groups".id
        AND gt.tag_id = ?
    )
  )
  AND groups.id IN (
    WITH RECURSIVE
      scope_tree (id, depth) AS (
        SELECT
          id,
          0
        FROM
          "groups"
        WHERE
          id = ?
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
  "groups"."created_at" DESC,
  "groups"."id" DESC
LIMIT
  ?
OFFSET
  ?;
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
              id = ?
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
    "groups".owner_id = ?
    OR EXISTS (
      SELECT
        1
      FROM
        group_related_groups rg
      WHERE
        rg.group_id = "groups".id
        AND rg.related_group_id = ?
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
        AND rn.note_id = ?
    )
    OR EXISTS (
      SELECT
        1
      FROM
        notes o
      WHERE
        o.id = ?
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
        AND rr.resource_id = ?
    )
    OR EXISTS (
      SELECT
        1
      FROM
        resources o
      WHERE
        o.id = ?
        AND o.owner_id = "groups".id
    )
  )
  AND groups.id IN (
    WITH RECURSIVE
      scope_tree (id, depth) AS (
        SELECT
          id,
          0
        FROM
          "groups"
        WHERE
          id = ?
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
  "groups"."created_at" DESC,
  "groups"."id" DESC
LIMIT
  ?
OFFSET
  ?;
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
              id = ?
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
  "groups"."category_id" IN (?, ?)
  AND "groups"."category_id" = ?
  AND "groups"."owner_id" = ?
  AND "groups"."id" IN (?, ?)
  AND "groups".category_id = (
    SELECT
      "rt"."to_category_id"
    FROM
      group_relation_types rt
    WHERE
      rt.id = ?
  )
  AND groups.id IN (
    WITH RECURSIVE
      scope_tree (id, depth) AS (
        SELECT
          id,
          0
        FROM
          "groups"
        WHERE
          id = ?
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
  json_extract("groups"."meta", '$.rank') DESC NULLS LAST,
  "groups"."name" ASC NULLS LAST,
  "groups"."created_at" DESC,
  "groups"."id" DESC
LIMIT
  ?
OFFSET
  ?;
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
              id = ?
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
  "groups".name LIKE ?
  AND (
    (
      (
        json_type("groups"."meta", '$.rank') IN ('integer', 'real')
        AND json_extract("groups"."meta", '$.rank') > ?
      )
    )
    AND EXISTS (
      SELECT
        1
      FROM
        "groups" mq_parent
      WHERE
        mq_parent.id = "groups"."owner_id"
        AND (CAST(json_extract(mq_parent.meta, '$.region') AS TEXT) LIKE ? ESCAPE '\')
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
            json_type(mq_child.meta, '$.size') IN ('integer', 'real')
            AND json_extract(mq_child.meta, '$.size') <= ?
          )
        )
    )
  )
  AND groups.id IN (
    WITH RECURSIVE
      scope_tree (id, depth) AS (
        SELECT
          id,
          0
        FROM
          "groups"
        WHERE
          id = ?
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
  "groups"."created_at" DESC,
  "groups"."id" DESC
LIMIT
  ?
OFFSET
  ?;
-- params: ["trip%",3,"%north%",10,3,50,0]

-- GroupRepository.count
SELECT
  count(*) AS "n"
FROM
  "groups"
WHERE
  (lower("groups"."name") LIKE lower(?) ESCAPE '\')
  AND "groups"."id" IN (
    WITH RECURSIVE
      scope_tree (id, depth) AS (
        SELECT
          id,
          0
        FROM
          "groups"
        WHERE
          id = ?
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
      WHEN "groups"."created_at" >= ?
      AND "groups"."created_at" < ? THEN 1
      ELSE 0
    END
  ) AS "c0",
  sum(
    CASE
      WHEN "groups"."updated_at" >= ?
      AND "groups"."updated_at" < ?
      AND "groups"."updated_at" > "groups"."created_at" THEN 1
      ELSE 0
    END
  ) AS "u0",
  sum(
    CASE
      WHEN "groups"."created_at" >= ?
      AND "groups"."created_at" < ? THEN 1
      ELSE 0
    END
  ) AS "c1",
  sum(
    CASE
      WHEN "groups"."updated_at" >= ?
      AND "groups"."updated_at" < ?
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
        AND gt.tag_id = ?
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
          id = ?
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
      "groups"."created_at" >= ?
      AND "groups"."created_at" < ?
    )
    OR (
      "groups"."updated_at" >= ?
      AND "groups"."updated_at" < ?
    )
  );
-- params: ["2024-01-01T00:00:00.000Z","2024-02-01T00:00:00.000Z","2024-01-01T00:00:00.000Z","2024-02-01T00:00:00.000Z","2024-02-01T00:00:00.000Z","2024-03-01T00:00:00.000Z","2024-02-01T00:00:00.000Z","2024-03-01T00:00:00.000Z",1,3,"2024-01-01T00:00:00.000Z","2024-03-01T00:00:00.000Z","2024-01-01T00:00:00.000Z","2024-03-01T00:00:00.000Z"]

-- GroupRepository.matchingIds
SELECT
  "groups"."id" AS "id"
FROM
  "groups"
WHERE
  "groups".name LIKE ?
  AND (lower("groups"."name") LIKE lower(?) ESCAPE '\')
  AND "groups"."id" IN (
    WITH RECURSIVE
      scope_tree (id, depth) AS (
        SELECT
          id,
          0
        FROM
          "groups"
        WHERE
          id = ?
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
  ?;
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
  (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
RETURNING
  "id";
-- params: ["2024-01-01T00:00:00.000Z","2024-01-01T00:00:00.000Z",1,"00000000-0000-4000-8000-000000000000","Home","",null,"{}",null,2]

-- GroupRepository.update
UPDATE "groups"
SET
  "name" = ?,
  "owner_id" = ?,
  "category_id" = ?,
  "meta" = ?,
  "updated_at" = ?
WHERE
  "groups"."id" = ?
  AND "groups"."id" IN (
    WITH RECURSIVE
      scope_tree (id, depth) AS (
        SELECT
          id,
          0
        FROM
          "groups"
        WHERE
          id = ?
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
  "groups"."id" IN (?, ?)
  AND "groups"."id" IN (
    WITH RECURSIVE
      scope_tree (id, depth) AS (
        SELECT
          id,
          0
        FROM
          "groups"
        WHERE
          id = ?
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
  "owner_id" = ?
  AND "groups"."id" IN (
    WITH RECURSIVE
      scope_tree (id, depth) AS (
        SELECT
          id,
          0
        FROM
          "groups"
        WHERE
          id = ?
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
  ?;
-- params: [7,3,50]

-- GroupRepository.relatedGroups
SELECT
  "groups".*
FROM
  "group_related_groups" AS "rg"
  INNER JOIN "groups" ON "groups"."id" = "rg"."related_group_id"
WHERE
  "rg"."group_id" = ?
  AND "groups"."id" IN (
    WITH RECURSIVE
      scope_tree (id, depth) AS (
        SELECT
          id,
          0
        FROM
          "groups"
        WHERE
          id = ?
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
  ?;
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
      id = ?
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
  "groups"."id" IN (?, ?)
  AND "groups"."id" IN (
    WITH RECURSIVE
      scope_tree (id, depth) AS (
        SELECT
          id,
          0
        FROM
          "groups"
        WHERE
          id = ?
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
      id = ?
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
  id = ?
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
  g.id = ?
  AND "g"."id" IN (
    WITH RECURSIVE
      scope_tree (id, depth) AS (
        SELECT
          id,
          0
        FROM
          "groups"
        WHERE
          id = ?
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
  ?;
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
  g.owner_id = ?
  AND "g"."id" IN (
    WITH RECURSIVE
      scope_tree (id, depth) AS (
        SELECT
          id,
          0
        FROM
          "groups"
        WHERE
          id = ?
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
  ?;
-- params: [7,3,100]

-- GroupRepository.setTags
DELETE FROM "group_tags"
WHERE
  "group_id" = ?;
-- params: [7]

INSERT INTO
  "group_tags" ("group_id", "tag_id")
VALUES
  (?, ?),
  (?, ?);
-- params: [7,1,7,2]

-- GroupRepository.setTags (clear)
DELETE FROM "group_tags"
WHERE
  "group_id" = ?;
-- params: [7]

-- GroupRepository.setRelatedGroups
DELETE FROM "group_related_groups"
WHERE
  "group_id" = ?;
-- params: [7]

INSERT INTO
  "group_related_groups" ("group_id", "related_group_id")
VALUES
  (?, ?),
  (?, ?);
-- params: [7,8,7,9]

-- GroupRepository.isUserScope
SELECT
  "id"
FROM
  "users"
WHERE
  "scope_group_id" IN (?, ?)
LIMIT
  ?;
-- params: [7,8,1]

-- GroupRepository.metas
SELECT
  "meta"
FROM
  "groups"
WHERE
  "id" IN (?, ?)
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
          id = ?
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
  AND "resources"."owner_id" = ?
ORDER BY
  "resources"."created_at" DESC,
  "resources"."id" DESC
LIMIT
  ?;
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
          id = ?
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
  AND "rr"."group_id" = ?
ORDER BY
  "resources"."created_at" DESC,
  "resources"."id" DESC
LIMIT
  ?;
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
          id = ?
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
  AND "notes"."owner_id" = ?
ORDER BY
  "notes"."created_at" DESC,
  "notes"."id" DESC
LIMIT
  ?;
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
          id = ?
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
  AND "rn"."group_id" = ?
ORDER BY
  "notes"."created_at" DESC,
  "notes"."id" DESC
LIMIT
  ?;
-- params: [3,7,50]

-- GroupCopyRepository.copyLinks
INSERT INTO
  "group_tags" (group_id, "tag_id")
SELECT
  CAST(? AS integer),
  "tag_id"
FROM
  "group_tags"
WHERE
  group_id = ?;
-- params: [12,7]

INSERT INTO
  "groups_related_resources" (group_id, "resource_id")
SELECT
  CAST(? AS integer),
  "resource_id"
FROM
  "groups_related_resources"
WHERE
  group_id = ?;
-- params: [12,7]

INSERT INTO
  "groups_related_notes" (group_id, "note_id")
SELECT
  CAST(? AS integer),
  "note_id"
FROM
  "groups_related_notes"
WHERE
  group_id = ?;
-- params: [12,7]

INSERT INTO
  "group_related_groups" (group_id, "related_group_id")
SELECT
  CAST(? AS integer),
  "related_group_id"
FROM
  "group_related_groups"
WHERE
  group_id = ?;
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
  CAST(? AS text),
  CAST(? AS text),
  created_by_user_id,
  name,
  description,
  CAST(? AS integer),
  to_group_id,
  relation_type_id
FROM
  group_relations
WHERE
  from_group_id = ?
  AND to_group_id <> ?;
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
  CAST(? AS text),
  CAST(? AS text),
  created_by_user_id,
  name,
  description,
  from_group_id,
  CAST(? AS integer),
  relation_type_id
FROM
  group_relations
WHERE
  to_group_id = ?
  AND from_group_id <> ?;
-- params: ["2024-06-01T12:00:00.000Z","2024-06-01T12:00:00.000Z",12,7,7]

-- GroupCopyRepository.moveRelationships
INSERT INTO
  "group_tags" (group_id, "tag_id")
SELECT DISTINCT
  CAST(? AS integer),
  x."tag_id"
FROM
  "group_tags" x
WHERE
  x.group_id IN (?, ?)
  AND NOT EXISTS (
    SELECT
      1
    FROM
      "group_tags" y
    WHERE
      y.group_id = ?
      AND y."tag_id" = x."tag_id"
  );
-- params: [7,8,9,7]

INSERT INTO
  "groups_related_resources" (group_id, "resource_id")
SELECT DISTINCT
  CAST(? AS integer),
  x."resource_id"
FROM
  "groups_related_resources" x
WHERE
  x.group_id IN (?, ?)
  AND NOT EXISTS (
    SELECT
      1
    FROM
      "groups_related_resources" y
    WHERE
      y.group_id = ?
      AND y."resource_id" = x."resource_id"
  );
-- params: [7,8,9,7]

INSERT INTO
  "groups_related_notes" (group_id, "note_id")
SELECT DISTINCT
  CAST(? AS integer),
  x."note_id"
FROM
  "groups_related_notes" x
WHERE
  x.group_id IN (?, ?)
  AND NOT EXISTS (
    SELECT
      1
    FROM
      "groups_related_notes" y
    WHERE
      y.group_id = ?
      AND y."note_id" = x."note_id"
  );
-- params: [7,8,9,7]

INSERT INTO
  "group_related_groups" (group_id, "related_group_id")
SELECT DISTINCT
  CAST(? AS integer),
  x."related_group_id"
FROM
  "group_related_groups" x
WHERE
  x.group_id IN (?, ?)
  AND NOT EXISTS (
    SELECT
      1
    FROM
      "group_related_groups" y
    WHERE
      y.group_id = ?
      AND y."related_group_id" = x."related_group_id"
  );
-- params: [7,8,9,7]

DELETE FROM "group_related_groups"
WHERE
  "group_id" = ?
  AND "related_group_id" IN (?, ?, ?);
-- params: [7,7,8,9]

INSERT INTO
  group_related_groups (group_id, related_group_id)
SELECT DISTINCT
  x.group_id,
  CAST(? AS integer)
FROM
  group_related_groups x
WHERE
  x.related_group_id IN (?, ?)
  AND x.group_id <> ?
  AND x.group_id NOT IN (?, ?)
  AND NOT EXISTS (
    SELECT
      1
    FROM
      group_related_groups y
    WHERE
      y.group_id = x.group_id
      AND y.related_group_id = ?
  );
-- params: [7,8,9,7,8,9,7]

UPDATE "groups"
SET
  "owner_id" = ?
WHERE
  "owner_id" IN (?, ?)
  AND "id" <> ?;
-- params: [7,8,9,7]

UPDATE "notes"
SET
  "owner_id" = ?
WHERE
  "owner_id" IN (?, ?)
  AND "id" <> ?;
-- params: [7,8,9,7]

UPDATE "resources"
SET
  "owner_id" = ?
WHERE
  "owner_id" IN (?, ?)
  AND "id" <> ?;
-- params: [7,8,9,7]

UPDATE group_relations
SET
  from_group_id = ?
WHERE
  from_group_id IN (?, ?)
  AND to_group_id <> ?
  AND to_group_id NOT IN (?, ?)
  AND NOT EXISTS (
    SELECT
      1
    FROM
      group_relations d
    WHERE
      d.from_group_id = ?
      AND d.to_group_id = group_relations.to_group_id
      AND d.relation_type_id = group_relations.relation_type_id
  );
-- params: [7,8,9,7,8,9,7]

UPDATE group_relations
SET
  to_group_id = ?
WHERE
  to_group_id IN (?, ?)
  AND from_group_id <> ?
  AND from_group_id NOT IN (?, ?)
  AND NOT EXISTS (
    SELECT
      1
    FROM
      group_relations d
    WHERE
      d.to_group_id = ?
      AND d.from_group_id = group_relations.from_group_id
      AND d.relation_type_id = group_relations.relation_type_id
  );
-- params: [7,8,9,7,8,9,7]
