-- :QuireBuild [format] [preset]: the manuscript made into a DOCX, an EPUB,
-- or one Markdown or HTML file by the server's quire.build, written to
-- the folder quire build writes to (build: output, else
-- ~/Documents/quire/<book folder>, else quire's cache folder; never the
-- book unless the writer named a folder there). The notice names the
-- file, last; :QuireBuild! opens it too.
local compat = require("quire.compat")
local util = require("quire.util")

local M = {}

M.formats = { "docx", "epub", "md", "html" }
M.presets = { "manuscript", "reader" }

local function has(list, v)
  for _, x in ipairs(list) do
    if x == v then
      return true
    end
  end
  return false
end

-- parse reads the command's words: a format and a preset, in any order;
-- it returns the arguments of quire.build, or nil and what is wrong.
function M.parse(fargs)
  local args = { quiet = true }
  for _, a in ipairs(fargs or {}) do
    local w = a:lower()
    if w == "markdown" then
      w = "md"
    end
    if has(M.formats, w) and not args.format then
      args.format = w
    elseif has(M.presets, w) and not args.preset then
      args.preset = w
    else
      return nil, string.format("%q is not a format (%s) or a preset (%s)", a,
        table.concat(M.formats, ", "), table.concat(M.presets, ", "))
    end
  end
  return args
end

-- complete offers the formats, then the presets.
function M.complete(arglead, cmdline)
  local words = vim.split(cmdline, "%s+", { trimempty = true })
  local out = {}
  for _, w in ipairs(vim.list_extend(vim.deepcopy(M.formats), M.presets)) do
    if w:sub(1, #arglead) == arglead and not has(words, w) then
      table.insert(out, w)
    end
  end
  return out
end

-- message is the notice of a build: what was built, and how many words
-- the file holds (its prose; chapter titles and scene headings are not
-- in the count, which the statusline's "book" count of every word of
-- the chapters has), the file's path last.
function M.message(result)
  return string.format("built %s (%s, %s, %s words as built: the prose, without chapter titles and scene headings): %s",
    (result.format or ""):upper(), result.preset or "", util.count(result.chapters or 0, "chapter"),
    util.thousands(result.words or 0), result.path)
end

-- open opens the built file (:QuireBuild!) with setup's open, else the
-- system's viewer, and tells the writer either way, the path last.
function M.open(path)
  local ok, why = util.open_file(path, require("quire").config.open)
  if ok then
    util.notify("opened " .. path)
  else
    util.notify("could not open the file: " .. why .. ". Open it yourself: " .. path, vim.log.levels.WARN)
  end
  return ok
end

-- command is :QuireBuild.
function M.command(o)
  local args, why = M.parse(o.fargs)
  if not args then
    util.notify(why, vim.log.levels.ERROR)
    return
  end
  local bufnr = vim.api.nvim_get_current_buf()
  local client, err = require("quire.lsp").client_for(bufnr)
  if not client then
    util.notify(err, vim.log.levels.ERROR)
    return
  end
  if vim.api.nvim_buf_get_name(bufnr) ~= "" then
    args.uri = vim.uri_from_bufnr(bufnr)
  end
  compat.request(client, "workspace/executeCommand", { command = "quire.build", arguments = { args } }, function(e, result)
    if e then
      util.notify("the build failed: " .. util.format_error(e), vim.log.levels.ERROR)
      return
    end
    if type(result) ~= "table" or type(result.path) ~= "string" then
      -- The server told the writer what to fix (window/showMessage).
      return
    end
    M.last = result
    for _, w in ipairs(result.warnings or {}) do
      util.notify(w, vim.log.levels.WARN)
    end
    util.notify(M.message(result))
    if o.bang then
      M.open(result.path)
    end
  end, bufnr)
end

return M
