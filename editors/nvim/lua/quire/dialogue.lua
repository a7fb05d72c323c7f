-- Dialogue in Neovim: the server's semantic tokens colour each line of
-- dialogue (@lsp.type.dialogue) and each character's name
-- (@lsp.type.character), italic where quire is unsure (@lsp.mod.uncertain);
-- Neovim 0.10+ draws them by itself, and this module gives the groups
-- default links a colour scheme may override. Speaker hints are the
-- server's inlay hints (0.10+), off until settings.dialogue.speakerHints
-- or :Quire hints turns them on. :Quire lines lists a character's lines in
-- the quickfix list.
local compat = require("quire.compat")

local M = {}

-- highlights links the groups to the colour scheme's own, unless the
-- scheme or the writer set them (default = true). A Neovim before 0.9
-- draws no semantic tokens and refuses a group name with "@" in it
-- (W18, printed as an error on opening a chapter): there it sets none.
function M.highlights()
  if vim.fn.has("nvim-0.9") == 0 then
    return
  end
  vim.api.nvim_set_hl(0, "@lsp.type.dialogue", { link = "String", default = true })
  vim.api.nvim_set_hl(0, "@lsp.type.character", { link = "Identifier", default = true })
  vim.api.nvim_set_hl(0, "@lsp.mod.uncertain", { italic = true, default = true })
end

local group
local function ensure_highlights()
  if group then
    return
  end
  M.highlights()
  group = vim.api.nvim_create_augroup("quire_dialogue", { clear = true })
  vim.api.nvim_create_autocmd("ColorScheme", { group = group, callback = M.highlights })
end

-- hints_supported says this Neovim draws inlay hints (0.10+).
function M.hints_supported()
  return vim.lsp.inlay_hint ~= nil and type(vim.lsp.inlay_hint.enable) == "function" and vim.fn.has("nvim-0.10") == 1
end

local function show_hints(bufnr, on)
  if not M.hints_supported() then
    return false
  end
  return pcall(vim.lsp.inlay_hint.enable, on, { bufnr = bufnr })
end

local function settings_hints()
  local s = require("quire").config.settings or {}
  return type(s.dialogue) == "table" and s.dialogue.speakerHints == true
end

-- attach runs for each book buffer the client attaches to.
function M.attach(_, bufnr)
  ensure_highlights()
  if settings_hints() then
    show_hints(bufnr, true)
  end
end

-- hints_command turns the speaker hints on or off (the server's
-- quire.toggleSpeakerHints, which every buffer's hints then follow).
function M.hints_command()
  local client, why = require("quire.lsp").client_for(0)
  if not client then
    vim.notify("quire: " .. why, vim.log.levels.ERROR)
    return
  end
  local buf = vim.api.nvim_get_current_buf()
  compat.request(client, "workspace/executeCommand", { command = "quire.toggleSpeakerHints" }, function(err, result)
    if err then
      vim.notify("quire: " .. (err.message or tostring(err)), vim.log.levels.ERROR)
      return
    end
    local on = type(result) == "table" and result.on == true
    for _, b in ipairs(vim.api.nvim_list_bufs()) do
      if vim.api.nvim_buf_is_loaded(b) and compat.get_clients({ bufnr = b, name = "quire" })[1] then
        show_hints(b, on)
      end
    end
    if not M.hints_supported() then
      vim.notify("quire: speaker hints need Neovim 0.10 or newer; hover a line of dialogue to see who speaks it.", vim.log.levels.WARN)
    end
  end, buf)
end

-- lines_command lists, in the quickfix list, every line the character
-- named or speaking under the cursor speaks; with an argument, the
-- character of that name.
function M.lines_command(o)
  local client, why = require("quire.lsp").client_for(0)
  if not client then
    vim.notify("quire: " .. why, vim.log.levels.ERROR)
    return
  end
  local buf = vim.api.nvim_get_current_buf()
  local params = { uri = vim.uri_from_bufnr(buf) }
  if o and o.args and o.args ~= "" then
    params.name = o.args
  else
    params.position = vim.lsp.util.make_position_params(0, client.offset_encoding or "utf-16").position
  end
  compat.request(client, "quire/linesOf", params, function(err, result)
    if err then
      vim.notify("quire: " .. (err.message or tostring(err)), vim.log.levels.WARN)
      return
    end
    local items = {}
    for _, loc in ipairs(result or {}) do
      local fname = vim.uri_to_fname(loc.uri)
      local lnum = loc.range.start.line + 1
      local text = ""
      local lines = vim.fn.readfile(fname, "", lnum)
      if #lines >= lnum then
        text = vim.trim(lines[lnum])
      end
      table.insert(items, { filename = fname, lnum = lnum, col = loc.range.start.character + 1, text = text })
    end
    if #items == 0 then
      vim.notify("quire: this character speaks no line quire has found.", vim.log.levels.INFO)
      return
    end
    vim.fn.setqflist({}, " ", { title = "quire: lines", items = items })
    vim.cmd("copen")
  end, buf)
end

return M
