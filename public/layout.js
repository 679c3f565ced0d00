// The layout's small behaviours (companion §6.2): the menu collapses to a button on narrow
// screens, the sidebar becomes a drawer below 900 px, and open menus (Admin, account) close on
// a click outside them or on Escape.
(() => {
  const menuButton = document.getElementById('menu-toggle');
  const topbar = document.querySelector('.topbar');
  menuButton?.addEventListener('click', () => {
    const open = topbar.classList.toggle('menu-open');
    menuButton.setAttribute('aria-expanded', String(open));
  });

  const sidebar = document.getElementById('sidebar');
  const drawerButton = document.getElementById('sidebar-toggle');
  const setDrawer = (open) => {
    if (!sidebar || !drawerButton) return;
    sidebar.classList.toggle('open', open);
    document.body.classList.toggle('drawer-open', open);
    drawerButton.setAttribute('aria-expanded', String(open));
    if (open) sidebar.querySelector('input, select, button, a, textarea')?.focus();
    else drawerButton.focus();
  };
  drawerButton?.addEventListener('click', () => setDrawer(!sidebar.classList.contains('open')));
  document.getElementById('sidebar-close')?.addEventListener('click', () => setDrawer(false));

  const menus = () => [...document.querySelectorAll('details.menu[open]')];
  document.addEventListener('click', (ev) => {
    for (const menu of menus()) if (!menu.contains(ev.target)) menu.open = false;
  });
  document.addEventListener('keydown', (ev) => {
    if (ev.key !== 'Escape') return;
    for (const menu of menus()) {
      menu.open = false;
      menu.querySelector('summary')?.focus();
    }
    if (sidebar?.classList.contains('open')) setDrawer(false);
  });
})();
