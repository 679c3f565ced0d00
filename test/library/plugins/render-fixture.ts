// F5 `render-fixture` of library-plugins.md §32.0: block types, display types and shortcodes.
export const RENDER_FIXTURE = `plugin = { name = "render-fixture", api_version = 1, capabilities = { "render" } }

function init()
  mah.block_type({
    type = "tally", label = "Tally", icon = "🧮", description = "Counts clicks",
    content_schema = { type = "object", properties = { title = { type = "string" } }, required = { "title" } },
    state_schema = { type = "object", properties = { n = { type = "number" } } },
    default_content = { title = "Untitled tally" }, default_state = { n = 0 },
    render_view = function(ctx)
      return '<div class="tally"><b>' .. mah.html_escape(ctx.block.content.title or "") .. '</b> '
        .. tostring(ctx.block.state.n or 0) .. '</div>'
    end,
    render_edit = function(ctx)
      return '<input data-block="' .. ctx.block.id .. '" value="' .. mah.html_escape(ctx.block.content.title or "") .. '">'
    end,
  })
  mah.block_type({ type = "fenced", label = "Fenced", filters = { category_ids = { 987654 } },
    render_view = function() return "fenced" end, render_edit = function() return "fenced" end })
  mah.display_type({ type = "swatch", label = "Swatch", render = function(ctx)
    local v = ctx.value or {}
    return '<span title="' .. mah.html_escape(v.name or "") .. '">' .. mah.html_escape(v.hex or "") .. '</span>'
      .. '<i>' .. ctx.entity_type .. ':' .. ctx.entity_id .. '</i>'
  end })
  mah.display_type({ type = "bad", label = "Bad", render = function() return 42 end })
  mah.shortcode({ name = "hello", label = "Hello", description = "Greets someone",
    render = function(ctx) return "<b>Hi " .. mah.html_escape(ctx.attrs.who or "?") .. "</b>" end })
  mah.shortcode({ name = "num", label = "Number", render = function() return 7 end })
end`;
