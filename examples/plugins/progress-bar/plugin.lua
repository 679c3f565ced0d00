-- progress-bar: a note block type that shows how far along something is, plus a shortcode
-- that draws the same bar from an entity's metadata. An example for docs/plugins.md.
plugin = {
  name = "progress-bar",
  version = "1.0",
  description = "A progress bar block for notes, and a [plugin:progress-bar:bar] shortcode",
  api_version = 1,
  capabilities = { "render" },
}

-- Everything that reaches the page goes through mah.html_escape: the host inserts a
-- renderer's string as it is.
local function bar(label, done, total)
  total = math.max(1, math.floor(tonumber(total) or 100))
  done = math.max(0, math.min(total, math.floor(tonumber(done) or 0)))
  local percent = math.floor(done * 100 / total)
  return '<div class="progress-bar" role="progressbar" aria-valuemin="0" aria-valuemax="' .. total
    .. '" aria-valuenow="' .. done .. '"><span>' .. mah.html_escape(label) .. '</span> '
    .. '<meter min="0" max="' .. total .. '" value="' .. done .. '"></meter> ' .. percent .. '%</div>'
end

function init()
  mah.block_type({
    type = "progress",
    label = "Progress",
    icon = "▰",
    description = "How far along something is",
    -- Content is what the author sets up; state is what changes while the note is read.
    content_schema = {
      type = "object",
      properties = { label = { type = "string" }, total = { type = "integer", minimum = 1 } },
      required = { "label", "total" },
    },
    state_schema = { type = "object", properties = { done = { type = "integer", minimum = 0 } } },
    default_content = { label = "Progress", total = 10 },
    default_state = { done = 0 },
    render_view = function(ctx)
      return bar(ctx.block.content.label or "", ctx.block.state.done, ctx.block.content.total)
    end,
    -- The note editor shows this HTML and runs its script; window.mahBlock saves through the
    -- block API (saveContent replaces the content, updateState the state) and redraws the note.
    render_edit = function(ctx)
      local id = ctx.block.id
      local content = ctx.block.content
      return '<div data-block="' .. id .. '">'
        .. '<label>Label <input name="label" value="' .. mah.html_escape(content.label or "") .. '"></label> '
        .. '<label>Total <input name="total" type="number" min="1" value="' .. math.floor(tonumber(content.total) or 10) .. '"></label> '
        .. '<label>Done <input name="done" type="number" min="0" value="' .. math.floor(tonumber(ctx.block.state.done) or 0) .. '"></label> '
        .. '<button type="button" name="save">Save</button></div>'
        .. '<script>(function () {'
        .. ' var box = document.querySelector(\'[data-block="' .. id .. '"]\');'
        .. ' box.querySelector(\'[name="save"]\').addEventListener("click", async function () {'
        .. '  var v = function (n) { return box.querySelector(\'[name="\' + n + \'"]\').value; };'
        .. '  await mahBlock.saveContent(' .. id .. ', { label: v("label"), total: Number(v("total")) });'
        .. '  await mahBlock.updateState(' .. id .. ', { done: Number(v("done")) });'
        .. ' });'
        .. '})();</script>'
    end,
  })

  mah.shortcode({
    name = "bar",
    label = "Progress bar",
    description = "Draws a progress bar from two metadata fields of the entity",
    attrs = {
      { name = "done", type = "string", required = true, description = "Metadata key holding the amount done" },
      { name = "total", type = "string", required = true, description = "Metadata key holding the total" },
      { name = "label", type = "string", required = false, default = "", description = "Text before the bar" },
    },
    examples = {
      { title = "Pages read", code = '[plugin:progress-bar:bar done="read" total="pages" label="Read"]', example_data = { read = 120, pages = 300 } },
    },
    render = function(ctx)
      local v = ctx.value or {}
      return bar(ctx.attrs.label or "", v[ctx.attrs.done or ""], v[ctx.attrs.total or ""])
    end,
  })
end
