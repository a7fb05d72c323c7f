-- :QuireMap and :QuireMentions: the book map (the server's quire.bookMap
-- command). :QuireMap opens the map's page in the browser; :QuireMentions
-- shows its heatmap as a text table in a float.
local compat = require("quire.compat")
local util = require("quire.util")

local M = {}

-- run executes quire.bookMap for the book of bufnr; cb(result) gets the
-- answer, failures are told to the writer.
local function run(bufnr, args, cb)
  local client, why = require("quire.lsp").client_for(bufnr)
  if not client then
    util.notify(why, vim.log.levels.ERROR)
    return
  end
  if vim.api.nvim_buf_get_name(bufnr) ~= "" then
    args.uri = vim.uri_from_bufnr(bufnr)
  end
  compat.request(client, "workspace/executeCommand", { command = "quire.bookMap", arguments = { args } }, function(err, result)
    if err then
      util.notify("the book map failed: " .. util.format_error(err), vim.log.levels.ERROR)
      return
    end
    if type(result) ~= "table" or type(result.path) ~= "string" then
      -- The server told the writer why (window/showMessage).
      return
    end
    cb(result)
  end, bufnr)
end

-- open_page hands path to the browser: the writer's own opener (setup's
-- map.open, else setup's open: a function(path) returning true when it
-- opened it), else the system's (util.open_file). It returns true, or
-- false and why not.
function M.open_page(path)
  local config = require("quire").config
  return util.open_file(path, (config.map or {}).open or config.open)
end

-- map_command is :QuireMap: write the map, open it in the browser.
function M.map_command()
  run(vim.api.nvim_get_current_buf(), { quiet = true }, function(result)
    local ok, why = M.open_page(result.path)
    if ok then
      util.notify(string.format("the book map is open in your browser (%s): %s", result.counts or "", result.path))
    else
      util.notify("could not open the book map: " .. why .. ". Open it in your browser: " .. result.path, vim.log.levels.WARN)
    end
    M.last = result
  end)
end

local function pad(s, width, right)
  local gap = string.rep(" ", math.max(0, width - vim.fn.strdisplaywidth(s)))
  if right then
    return gap .. s
  end
  return s .. gap
end

-- table_lines lays out the heatmap (a MentionTable) as text: a row per
-- entry, a column per chapter, "·" where a chapter does not mention it.
function M.table_lines(t)
  local chapters = t.chapters or {}
  local rows = t.rows or {}
  if #rows == 0 then
    return { "No chapter mentions a codex entry yet." }
  end
  local name_w, type_w = #"NAME", #"TYPE"
  for _, r in ipairs(rows) do
    name_w = math.max(name_w, vim.fn.strdisplaywidth(r.name))
    type_w = math.max(type_w, vim.fn.strdisplaywidth(r.type or ""))
  end
  name_w = math.min(name_w, 32)
  local col_w = {}
  for i, c in ipairs(chapters) do
    col_w[i] = vim.fn.strdisplaywidth(c)
    for _, r in ipairs(rows) do
      col_w[i] = math.max(col_w[i], #tostring((r.counts or {})[i] or 0))
    end
  end
  local function line(name, typ, total, cells)
    local parts = { pad(name, name_w), pad(typ, type_w), pad(total, 5, true) }
    for i, cell in ipairs(cells) do
      table.insert(parts, pad(cell, col_w[i], true))
    end
    return (table.concat(parts, "  "):gsub("%s+$", ""))
  end
  local lines = { line("NAME", "TYPE", "TOTAL", chapters) }
  for _, r in ipairs(rows) do
    local cells = {}
    for i = 1, #chapters do
      local n = (r.counts or {})[i] or 0
      cells[i] = n == 0 and "·" or tostring(n)
    end
    local name = r.name
    if vim.fn.strdisplaywidth(name) > name_w then
      name = vim.fn.strcharpart(name, 0, name_w - 1) .. "…"
    end
    table.insert(lines, line(name, r.type or "", tostring(r.total or 0), cells))
  end
  if (t.mentioned or #rows) > #rows then
    table.insert(lines, "")
    table.insert(lines, string.format("The %s mentioned most, of %s; :QuireMap shows the rest summed by type.", util.count(#rows, "entry", "entries"), util.count(t.mentioned, "entry", "entries")))
  end
  table.insert(lines, "")
  for i, c in ipairs(chapters) do
    table.insert(lines, string.format("%s  %s", pad(c, 4, true), (t.titles or {})[i] or ""))
  end
  return lines
end

-- show_table opens lines in a float; q or <Esc> closes it.
function M.show_table(lines)
  local buf = vim.api.nvim_create_buf(false, true)
  vim.api.nvim_buf_set_lines(buf, 0, -1, false, lines)
  vim.bo[buf].modifiable = false
  vim.bo[buf].bufhidden = "wipe"
  local width = 20
  for _, l in ipairs(lines) do
    width = math.max(width, vim.fn.strdisplaywidth(l))
  end
  width = math.min(width, vim.o.columns - 4)
  local height = math.min(#lines, math.max(3, vim.o.lines - 6))
  M.win = vim.api.nvim_open_win(buf, true, {
    relative = "editor",
    row = 1,
    col = math.max(0, math.floor((vim.o.columns - width) / 2) - 1),
    width = width,
    height = height,
    style = "minimal",
    border = (require("quire").config.chat or {}).border or "rounded",
  })
  vim.wo[M.win].wrap = false
  for _, key in ipairs({ "q", "<Esc>" }) do
    vim.api.nvim_buf_set_keymap(buf, "n", key, "<cmd>close<cr>", { noremap = true, silent = true })
  end
  M.buf = buf
  return buf
end

-- mentions_command is :QuireMentions: the heatmap as text in a float.
function M.mentions_command()
  run(vim.api.nvim_get_current_buf(), { quiet = true, table = true }, function(result)
    M.last = result
    M.show_table(M.table_lines(result.table or {}))
  end)
end

return M
