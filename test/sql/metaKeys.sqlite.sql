-- MetaKeyRepository.keys (groups)
SELECT DISTINCT
  k.key AS KEY
FROM
  "groups" t,
  json_each(
    CASE
      WHEN json_type(t.meta, '$') = 'object' THEN json_extract(t.meta, '$')
    END
  ) k
ORDER BY
  k.key;
-- params: []

-- MetaKeyRepository.keys (resources)
SELECT DISTINCT
  k.key AS KEY
FROM
  "resources" t,
  json_each(
    CASE
      WHEN json_type(t.meta, '$') = 'object' THEN json_extract(t.meta, '$')
    END
  ) k
ORDER BY
  k.key;
-- params: []
