-- :QuireSnapshots, :QuireSnapshot and :QuireRestore: the chapter's
-- versions quire keeps outside the book (the server's quire.snapshot*
-- commands). :QuireSnapshots picks one and opens it beside the chapter
-- as a diff split, read-only: ]c and [c move between the changes, and
-- :diffget (do) in the chapter takes a paragraph back, to save as any
-- edit. :QuireRestore puts a whole version back as one edit.
local compat = require("quire.compat")
local util = require("quire.util")

local M = {}

-- call runs a quire.snapshot* command for the book of bufnr.
local function call(bufnr, command, args, cb)
  local client, why = require("quire.lsp").client_for(bufnr)
  if not client then
    util.notify(why, vim.log.levels.ERROR)
    return
  end
  if args.uri == nil and vim.api.nvim_buf_get_name(bufnr) ~= "" then
    args.uri = vim.uri_from_bufnr(bufnr)
  end
  compat.request(client, "workspace/executeCommand", { command = command, arguments = { args } }, function(err, result)
    if err then
      util.notify("snapshots: " .. util.format_error(err), vim.log.levels.ERROR)
      return
    end
    if result ~= nil and result ~= vim.NIL then
      cb(result)
    end
  end, bufnr)
end
M.call = call

-- pick lists the chapter's versions (and the deleted chapters') and
-- hands the chosen one to cb.
local function pick(bufnr, prompt, cb)
  call(bufnr, "quire.snapshotList", {}, function(result)
    local items = {}
    for _, v in ipairs(result.versions or {}) do
      if not v.deleted and not v.damaged then
        table.insert(items, v)
      end
    end
    for _, v in ipairs(result.deleted or {}) do
      table.insert(items, v)
    end
    if #items == 0 then
      util.notify("quire has kept no snapshot of this chapter yet: one is kept each time it is saved.")
      return
    end
    vim.ui.select(items, {
      prompt = prompt,
      format_item = function(v)
        local where = (v.chapter ~= result.chapter) and (" · " .. v.chapter .. " (deleted)") or ""
        return v.id .. "  " .. v.label .. where
      end,
    }, function(v)
      if v then
        cb(v)
      end
    end)
  end)
end

-- open_diff shows version v beside the window win as a read-only
-- buffer, both windows in diff mode.
function M.open_diff(bufnr, v, cb)
  call(bufnr, "quire.snapshotText", { id = v.id }, function(result)
    local win = vim.fn.bufwinid(bufnr)
    if win ~= -1 then
      vim.api.nvim_set_current_win(win)
    end
    local name = "quire-snapshot://" .. v.id .. "/" .. v.chapter
    local existing = vim.fn.bufnr(name)
    if existing ~= -1 then
      vim.api.nvim_buf_delete(existing, { force = true })
    end
    vim.cmd("diffthis")
    vim.cmd("vertical leftabove new")
    local snap = vim.api.nvim_get_current_buf()
    vim.api.nvim_buf_set_name(snap, name)
    local lines = vim.split(result.text or "", "\n", { plain = true })
    if lines[#lines] == "" then
      table.remove(lines)
    end
    vim.api.nvim_buf_set_lines(snap, 0, -1, false, lines)
    vim.bo[snap].buftype = "nofile"
    vim.bo[snap].bufhidden = "wipe"
    vim.bo[snap].swapfile = false
    vim.bo[snap].filetype = "markdown"
    vim.bo[snap].modifiable = false
    vim.bo[snap].readonly = true
    vim.cmd("diffthis")
    vim.b[snap].quire_snapshot = v
    util.notify(string.format("snapshot %s of %s, on the left (read-only): ]c and [c move between the changes; do in the chapter takes one back.", v.id, v.chapter))
    if cb then
      cb(snap)
    end
  end)
end

-- snapshots_command is :QuireSnapshots [ID].
function M.snapshots_command(o)
  local bufnr = vim.api.nvim_get_current_buf()
  local id = vim.trim(o and o.args or "")
  if id ~= "" then
    call(bufnr, "quire.snapshotText", { id = id }, function(result)
      M.open_diff(bufnr, result.version)
    end)
    return
  end
  pick(bufnr, "Compare the chapter with:", function(v)
    M.open_diff(bufnr, v)
  end)
end

-- snapshot_command is :QuireSnapshot[!] [name]: keep the chapter as it
-- is saved under a name; with !, the whole book.
function M.snapshot_command(o)
  local args = { name = vim.trim(o and o.args or ""), book = o and o.bang or false }
  call(vim.api.nvim_get_current_buf(), "quire.snapshotSave", args, function() end)
end

-- restore_command is :QuireRestore [ID]: put a version back, as one
-- edit of the chapter (u undoes it).
function M.restore_command(o)
  local bufnr = vim.api.nvim_get_current_buf()
  local function restore(id)
    call(bufnr, "quire.snapshotRestore", { id = id }, function() end)
  end
  local id = vim.trim(o and o.args or "")
  if id == "" and vim.b[bufnr].quire_snapshot then
    id = vim.b[bufnr].quire_snapshot.id
  end
  if id ~= "" then
    restore(id)
    return
  end
  pick(bufnr, "Restore the chapter as of:", function(v)
    restore(v.id)
  end)
end

return M
