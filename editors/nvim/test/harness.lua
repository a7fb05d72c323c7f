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
