// Lazily expanding group tree: children load from /v1/group/tree/children when a node opens.
// Built with textContent only, so group names can never inject markup.
(function () {
  const tree = document.getElementById('group-tree');
  if (!tree) return;
  const open = new Set(JSON.parse(tree.dataset.open || '[]'));
  const highlight = Number(tree.dataset.highlight || 0);

  function node(item) {
    const li = document.createElement('li');
    li.dataset.id = String(item.id);
    li.dataset.count = String(item.childCount);
    const link = document.createElement('a');
    link.href = '/group?id=' + item.id;
    link.textContent = item.name;
    li.appendChild(link);
    if (item.categoryName) {
      const small = document.createElement('small');
      small.textContent = ' · ' + item.categoryName;
      li.appendChild(small);
    }
    return li;
  }

  async function expand(li) {
    const list = document.createElement('ul');
    li.appendChild(list);
    const res = await fetch('/v1/group/tree/children?limit=100&parentId=' + li.dataset.id, { headers: { accept: 'application/json' } });
    const children = await res.json();
    for (const child of children) list.appendChild(decorate(node(child)));
    if (Number(li.dataset.count) > children.length) {
      const more = document.createElement('li');
      const a = document.createElement('a');
      a.href = '/groups?OwnerId=' + li.dataset.id;
      a.textContent = 'all ' + li.dataset.count + ' children…';
      more.appendChild(a);
      list.appendChild(more);
    }
  }

  function decorate(li) {
    const id = Number(li.dataset.id);
    if (id === highlight) li.classList.add('highlight');
    if (Number(li.dataset.count) > 0) {
      const toggle = document.createElement('button');
      toggle.type = 'button';
      toggle.className = 'toggle';
      toggle.textContent = '▸';
      toggle.setAttribute('aria-expanded', 'false');
      toggle.addEventListener('click', async () => {
        const expanded = toggle.getAttribute('aria-expanded') === 'true';
        const list = li.querySelector(':scope > ul');
        if (expanded) {
          if (list) list.hidden = true;
        } else if (list) {
          list.hidden = false;
        } else {
          await expand(li);
        }
        toggle.setAttribute('aria-expanded', String(!expanded));
        toggle.textContent = expanded ? '▸' : '▾';
      });
      li.insertBefore(toggle, li.firstChild);
      if (open.has(id) && id !== highlight) toggle.click();
    }
    return li;
  }

  for (const li of tree.querySelectorAll(':scope > li')) decorate(li);
})();
