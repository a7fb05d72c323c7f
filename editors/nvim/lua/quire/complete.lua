-- 'omnifunc' for book buffers. Neovim's own vim.lsp.omnifunc (0.7 to
-- 0.10) keeps only the items whose inserted text starts with what was
-- typed. quire offers an alias under its own label but inserts the
-- entry's name, so a link always names its entry: `[[Harbormi` offers
-- "the Harbormistress", which inserts "Séverine Aubrac]]", and the
-- built-in filter drops it. This one filters on what the item shows
-- (filterText, else label), as the server does, and is otherwise the
-- built-in's asynchronous completion.
local compat = require("quire.compat")
local util = require("quire.util")

local M = {}

-- The value 'omnifunc' takes in book buffers.
M.name = "v:lua.require'quire.complete'.omnifunc"

local function items_of(result)
  if type(result) ~= "table" then
    return {}
  end
  if type(result.items) == "table" then
    return result.items
  end
  return result
end

-- word_match reports whether prefix starts text or one of its words,
-- ignoring case: "harbormi" matches "the Harbormistress".
local function word_match(text, prefix)
  if type(text) ~= "string" then
    return false
  end
  text, prefix = vim.fn.tolower(text), vim.fn.tolower(prefix)
  return vim.startswith(text, prefix) or (" " .. text):find(" " .. prefix, 1, true) ~= nil
end

-- inserted is the text an item puts in the buffer. quire sends plain
-- text, so snippets are not expanded.
local function inserted(item)
  if type(item.textEdit) == "table" and type(item.textEdit.newText) == "string" and item.textEdit.newText ~= "" then
    return item.textEdit.newText
  end
  if type(item.insertText) == "string" and item.insertText ~= "" then
    return item.insertText
  end
  return item.label
end

-- start_byte is the 0-based byte column where the items' replacement
-- starts: the server's textEdit range on this line, else the keyword
-- before the cursor, as Neovim's own omnifunc does.
local function start_byte(items, line, lnum, cursor_col)
  for _, item in ipairs(items) do
    local te = item.textEdit
    local r = type(te) == "table" and (te.range or te.replace) or nil
    if r and r.start and r.start.line == lnum then
      return math.min(util.byte_col(line, r.start.character), cursor_col)
    end
  end
  return vim.fn.match(line:sub(1, cursor_col), "\\k*$")
end

-- complete_items turns the server's items into complete-items: the label
-- shown, the inserted text as the word. equal keeps an alias in the menu
-- while the writer types on, since its word does not start with what
-- they type and Vim would drop it.
function M.complete_items(items, prefix)
  local kept = {}
  for _, item in ipairs(items) do
    if prefix == "" or word_match(item.filterText, prefix) or word_match(item.label, prefix)
      or word_match(inserted(item), prefix) then
      table.insert(kept, item)
    end
  end
  table.sort(kept, function(a, b)
    return (a.sortText or a.label or "") < (b.sortText or b.label or "")
  end)
  local out = {}
  for _, item in ipairs(kept) do
    local doc = item.documentation
    local info = type(doc) == "table" and doc.value or doc
    table.insert(out, {
      word = inserted(item),
      abbr = item.label,
      kind = vim.lsp.protocol.CompletionItemKind[item.kind] or "",
      menu = item.detail or "",
      info = type(info) == "string" and info ~= "" and info or " ",
      icase = 1,
      dup = 1,
      empty = 1,
      equal = 1,
      user_data = { nvim = { lsp = { completion_item = item } } },
    })
  end
  return out
end

-- omnifunc asks the book's server and shows its items when they arrive.
function M.omnifunc(findstart, _)
  if findstart ~= 1 then
    -- Only reached when the first call did not return -2.
    return {}
  end
  local bufnr = vim.api.nvim_get_current_buf()
  local client = compat.get_clients({ bufnr = bufnr, name = require("quire.lsp").name })[1]
  if not client then
    return -3
  end
  local win = vim.api.nvim_get_current_win()
  local cursor = vim.api.nvim_win_get_cursor(win)
  local lnum, cursor_col = cursor[1] - 1, cursor[2]
  local line = vim.api.nvim_get_current_line()
  local params = {
    textDocument = { uri = vim.uri_from_bufnr(bufnr) },
    position = { line = lnum, character = util.utf16_col(line, cursor_col) },
  }
  compat.request(client, "textDocument/completion", params, function(err, result)
    local mode = vim.api.nvim_get_mode().mode
    if err or not result or (mode ~= "i" and mode ~= "ic") then
      return
    end
    -- The writer may have left the line while the server answered.
    if vim.api.nvim_get_current_win() ~= win or vim.api.nvim_win_get_cursor(win)[1] - 1 ~= lnum then
      return
    end
    local items = items_of(result)
    local start = start_byte(items, line, lnum, cursor_col)
    local matches = M.complete_items(items, line:sub(start + 1, cursor_col))
    vim.fn.complete(start + 1, matches)
  end, bufnr)
  -- Completion continues when the answer arrives.
  return -2
end

-- Values of 'omnifunc' that no writer chose: none, Neovim's LSP omnifunc
-- (set on attach from 0.10) and the HTML tags the Markdown ftplugin sets.
local defaults = {
  [""] = true,
  ["v:lua.vim.lsp.omnifunc"] = true,
  ["htmlcomplete#CompleteTags"] = true,
}

-- set makes quire's omnifunc the buffer's unless the writer chose another.
function M.set(bufnr)
  if require("quire").config.omnifunc == false then
    return
  end
  if defaults[vim.bo[bufnr].omnifunc] then
    vim.bo[bufnr].omnifunc = M.name
  end
end

return M
