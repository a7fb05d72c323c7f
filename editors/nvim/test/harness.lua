-- What the Neovim test scripts (e2e.lua, slips.lua, …) share: the result
-- file they write their steps to ("ok <step>", then PASS, or the first
-- failure as "FAIL <step>: <why>"), check, and the run that leaves
-- Neovim with an exit code the Go test reads.
local M = {}
local result

-- open starts the result file at path.
function M.open(path)
  result = assert(io.open(path, "w"))
end

function M.log(line)
  result:write(line .. "\n")
  result:flush()
end

-- check fails the step with msg, reported at the caller's line.
function M.check(cond, msg)
  if not cond then
    error({ quire = true, msg = msg }, 2)
  end
end

-- hover_at is the card quire shows at line, character (0-based, UTF-16)
-- of buf, waiting up to ms for one; nil when none came.
function M.hover_at(buf, line, character, ms)
  local hover
  vim.wait(ms, function()
    local res = vim.lsp.buf_request_sync(buf, "textDocument/hover", {
      textDocument = { uri = vim.uri_from_bufnr(buf) },
      position = { line = line, character = character },
    }, 3000)
    for _, r in pairs(res or {}) do
      if r.result and r.result.contents then
        local c = r.result.contents
        hover = type(c) == "table" and (c.value or vim.inspect(c)) or tostring(c)
      end
    end
    return hover ~= nil
  end, 20)
  return hover
end

-- attach starts quire (QUIRE_BIN) with settings, opens path and waits
-- for the client to attach to it; it returns the buffer. QUIRE_DEBUG
-- turns Neovim's LSP log up.
function M.attach(path, settings)
  if os.getenv("QUIRE_DEBUG") then
    vim.lsp.set_log_level("debug")
  end
  require("quire").setup({ cmd = { assert(os.getenv("QUIRE_BIN"), "QUIRE_BIN"), "serve" }, settings = settings or {} })
  vim.cmd("edit " .. vim.fn.fnameescape(path))
  local buf = vim.api.nvim_get_current_buf()
  M.check(vim.wait(10000, function()
    local c = require("quire.compat").get_clients({ bufnr = buf, name = "quire" })[1]
    return c ~= nil and c.initialized ~= false and (c.server_capabilities or c.resolved_capabilities) ~= nil
  end, 20), "the quire client did not attach to the chapter")
  return buf
end

-- find is the 0-based line and byte column of the first text in buf, or
-- nil.
function M.find(buf, text)
  for i, l in ipairs(vim.api.nvim_buf_get_lines(buf, 0, -1, false)) do
    local c = l:find(text, 1, true)
    if c then
      return i - 1, c - 1
    end
  end
  return nil
end

-- name_at is the 0-based line and UTF-16 column just inside the first
-- mention of name in buf, or nil.
function M.name_at(buf, name)
  local row, col = M.find(buf, name)
  if row == nil then
    return nil
  end
  local l = vim.api.nvim_buf_get_lines(buf, row, row + 1, false)[1]
  return row, require("quire.util").utf16_col(l, col + 2)
end

-- run runs main; step tells which step a failure happened in.
-- code_action opens Neovim's own code-action menu at the cursor
-- (vim.lsp.buf.code_action, which sends the line's diagnostics and
-- applies the chosen action's edit itself) and picks the first title
-- pick(title) accepts, recording every title shown. The menu is
-- vim.ui.select, which a writer's picker replaces too. 0.7's code_action
-- has no filter or apply option, and its items are {client_id, action}
-- where later ones are {action = ..., ctx = ...}. It returns whether the
-- menu opened within ms, its titles, and the title picked (nil for none).
function M.code_action(pick, ms)
  local orig_select = vim.ui.select
  local titles, picked, shown = {}, nil, false
  vim.ui.select = function(items, _, on_choice)
    shown = true
    local choice
    for _, it in ipairs(items) do
      local a = it.action or it[2]
      table.insert(titles, a.title)
      if not choice and pick(a.title) then
        choice, picked = it, a.title
      end
    end
    on_choice(choice)
  end
  vim.lsp.buf.code_action()
  local opened = vim.wait(ms, function()
    return shown
  end, 10)
  vim.ui.select = orig_select
  return opened, titles, picked
end

function M.run(main, step)
  local okk, err = xpcall(main, function(e)
    if type(e) == "table" and e.quire then
      return e.msg
    end
    return debug.traceback(tostring(e), 2)
  end)
  if okk then
    M.log("PASS")
    result:close()
    vim.cmd("qa!")
  else
    M.log("FAIL " .. step() .. ": " .. tostring(err))
    result:close()
    vim.cmd("cq")
  end
end

return M
