-- New codex entries made by a workspace edit. Neovim applies an edit that
-- creates a file ("Create character entry for Hesper", a proposed new
-- entry) into a buffer it does not show: the writer sees nothing happen,
-- and the entry waits unsaved in a hidden buffer until :qa complains. So
-- each book file an edit creates is opened in a window, to review and
-- save, and the writer is told.
local util = require("quire.util")

local M = {}

local installed = false

-- created lists the files inside a book that edit creates.
function M.created(edit)
  local out = {}
  if type(edit) ~= "table" or type(edit.documentChanges) ~= "table" then
    return out
  end
  local markers = require("quire").config.root_markers
  for _, change in ipairs(edit.documentChanges) do
    if type(change) == "table" and change.kind == "create" and type(change.uri) == "string" then
      local path = vim.uri_to_fname(change.uri)
      local root = util.find_root(path, markers)
      if root then
        table.insert(out, { path = path, root = root })
      end
    end
  end
  return out
end

-- normal_window is a window that is not floating (the chat may be), to
-- split from.
local function normal_window()
  local cur = vim.api.nvim_get_current_win()
  if vim.api.nvim_win_get_config(cur).relative == "" then
    return cur
  end
  for _, w in ipairs(vim.api.nvim_tabpage_list_wins(0)) do
    if vim.api.nvim_win_get_config(w).relative == "" then
      return w
    end
  end
  return cur
end

-- show opens each created file that no window shows in a split below
-- the writer's window and leaves the cursor in the last one.
function M.show(files)
  local shown = {}
  for _, f in ipairs(files) do
    local buf = vim.fn.bufnr(f.path)
    if buf ~= -1 and vim.api.nvim_buf_is_loaded(buf) then
      local win = vim.fn.bufwinid(buf)
      if win == -1 then
        vim.api.nvim_set_current_win(normal_window())
        vim.cmd("belowright split")
        vim.api.nvim_win_set_buf(0, buf)
      else
        vim.api.nvim_set_current_win(win)
      end
      local rel = util.relative(f.path, f.root) or f.path
      table.insert(shown, rel)
    end
  end
  if #shown > 0 then
    util.notify(string.format("new entry %s is open: review it and save it (:w) to keep it", table.concat(shown, " and ")))
  end
end

-- install wraps vim.lsp.util.apply_workspace_edit, the one function both
-- code actions and workspace/applyEdit apply edits with in every Neovim
-- from 0.7 (the code action path offers no other hook). The edit is
-- applied exactly as before; only afterwards are created files shown.
function M.install()
  if installed then
    return
  end
  installed = true
  local lsputil = vim.lsp.util
  local apply = lsputil.apply_workspace_edit
  lsputil.apply_workspace_edit = function(edit, ...)
    local a, b = apply(edit, ...)
    local ok, files = pcall(M.created, edit)
    if ok and #files > 0 then
      vim.schedule(function()
        M.show(files)
      end)
    end
    return a, b
  end
end

return M
