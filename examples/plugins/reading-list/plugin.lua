-- reading-list: a small plugin for the Stacks library (see docs/plugins.md).
-- It keeps a reading list in its key-value store, shows it on a page with a form, offers the
-- list as JSON, and tags every new note whose name starts with "Read:" as it is created.
plugin = {
  name = "reading-list",
  version = "1.0.0",
  description = "A reading list page, a JSON endpoint, and a hook that marks reading notes",
  api_version = 1,
  capabilities = { "kv", "pages", "api", "hooks" },
  settings = {
    { name = "title", type = "string", label = "Page title", default = "Reading list" },
    { name = "max_items", type = "number", label = "Most items kept", default = 50 },
  },
}

local function items()
  return mah.kv.get("items") or {}
end

local function add(title)
  local list = items()
  table.insert(list, 1, { title = title, added = mah.util.now_iso() })
  local max = mah.get_setting("max_items") or 50
  while #list > max do table.remove(list) end
  mah.kv.set("items", list)
end

local function render_page(ctx, message)
  local out = { "<section class='reading-list'>" }
  if message then out[#out + 1] = "<p role='status'>" .. mah.html_escape(message) .. "</p>" end
  out[#out + 1] = "<form method='post'><label>Title <input name='title' required></label> <button>Add</button></form><ol>"
  for _, item in ipairs(items()) do
    out[#out + 1] = "<li>" .. mah.html_escape(item.title) .. " <small>" .. item.added .. "</small></li>"
  end
  out[#out + 1] = "</ol></section>"
  return table.concat(out)
end

function init()
  mah.page("list", function(ctx)
    if ctx.method == "POST" then
      local title = ctx.params.title
      if type(title) ~= "string" or title == "" then return render_page(ctx, "Give the book a title.") end
      add(title)
      return render_page(ctx, "Added " .. title .. ".")
    end
    return render_page(ctx)
  end)
  mah.menu(mah.get_setting("title") or "Reading list", "list")

  mah.api("GET", "items", function(ctx) ctx.json({ items = items() }) end)
  mah.api("POST", "items", function(ctx)
    local body = mah.json.decode(ctx.body or "")
    if type(body) ~= "table" or type(body.title) ~= "string" or body.title == "" then
      ctx.status(422)
      mah.abort("title is required")
    end
    add(body.title)
    ctx.status(201)
    ctx.json({ items = items() })
  end)

  -- Notes named "Read: <title>" join the list; an empty title is refused.
  mah.on("before_note_create", function(note)
    local title = note.name:match("^Read:%s*(.*)$")
    if title == nil then return end
    if title == "" then mah.abort("a reading note needs a title after \"Read:\"") end
    add(title)
  end)
end
