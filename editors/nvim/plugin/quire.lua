-- :Quire <subcommand> exists as soon as the plugin is on the runtime
-- path, before setup(), so `:Quire install` can be a plugin manager's
-- build step. Other subcommands run the :Quire<Name> commands setup()
-- defines (":Quire ask" is :QuireAsk).
if vim.g.loaded_quire then
  return
end
vim.g.loaded_quire = true

local subcommands = { "install", "ask", "peek", "action", "persona", "cancel", "chat", "proposals", "apply", "discard", "reindex", "map", "mentions" }

vim.api.nvim_create_user_command("Quire", function(o)
  local sub, rest = (o.args or ""):match("^%s*(%S*)%s*(.-)%s*$")
  if sub == "install" then
    require("quire.install").command(rest)
    return
  end
  if sub == "" then
    vim.notify("quire: :Quire needs a subcommand: " .. table.concat(subcommands, ", "), vim.log.levels.ERROR)
    return
  end
  local name = "Quire" .. sub:sub(1, 1):upper() .. sub:sub(2)
  if vim.fn.exists(":" .. name) ~= 2 then
    vim.notify("quire: :Quire " .. sub .. " is unknown, or needs require('quire').setup() first", vim.log.levels.ERROR)
    return
  end
  local range = ""
  if o.range > 0 then
    range = string.format("%d,%d", o.line1, o.line2)
  end
  vim.cmd(range .. name .. (o.bang and "!" or "") .. (rest ~= "" and (" " .. rest) or ""))
end, {
  nargs = "*",
  range = true,
  bang = true,
  complete = function(arglead, cmdline)
    if cmdline:match("^%S+%s+%S+%s") then
      return {}
    end
    return vim.tbl_filter(function(s)
      return s:sub(1, #arglead) == arglead
    end, subcommands)
  end,
  desc = "quire: install, ask, chat, map, … (:Quire install downloads the server)",
})
