-- What the Neovim test scripts (e2e.lua, slips.lua) share: the result
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

-- name_at is the 0-based line and UTF-16 column just inside the first
-- mention of name in buf, or nil.
function M.name_at(buf, name)
  local util = require("quire.util")
  for i, l in ipairs(vim.api.nvim_buf_get_lines(buf, 0, -1, false)) do
    local c = l:find(name, 1, true)
    if c then
      return i - 1, util.utf16_col(l, c + 1)
    end
  end
  return nil
end

-- run runs main; step tells which step a failure happened in.
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
