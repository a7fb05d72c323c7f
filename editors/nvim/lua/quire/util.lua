local M = {}

-- vim.uv is the 0.10+ name; vim.loop still works there but is deprecated.
local uv = vim.uv or vim.loop

-- Byte length of the UTF-8 sequence whose first byte is b. Continuation
-- and invalid bytes count as one, as Neovim shows them as <xx>.
local function seq_len(b)
  if not b or b < 0xC0 then
    return 1
  elseif b < 0xE0 then
    return 2
  elseif b < 0xF0 then
    return 3
  end
  return 4
end

-- utf16_col is the UTF-16 offset of the 0-based byte offset byte_col in
-- line. LSP counts characters in UTF-16 code units, so a curly quote (3
-- bytes) is 1 and an emoji (4 bytes) is 2. Written in Lua rather than with
-- vim.str_utfindex because that function changed its signature in 0.11.
function M.utf16_col(line, byte_col)
  local stop = math.min(byte_col, #line)
  local n, i = 0, 1
  while i <= stop do
    local len = seq_len(line:byte(i))
    n = n + (len == 4 and 2 or 1)
    i = i + len
  end
  return n
end

-- byte_col is the inverse: the 0-based byte offset of the UTF-16 offset
-- col in line, clamped to the line.
function M.byte_col(line, col)
  local n, i = 0, 1
  while i <= #line and n < col do
    local len = seq_len(line:byte(i))
    n = n + (len == 4 and 2 or 1)
    i = i + len
  end
  return math.min(i - 1, #line)
end

-- char_end is the 0-based byte offset just past the character that starts
-- at 0-based byte offset byte_col.
function M.char_end(line, byte_col)
  if byte_col >= #line then
    return #line
  end
  return math.min(byte_col + seq_len(line:byte(byte_col + 1)), #line)
end

local function get_line(bufnr, row)
  return vim.api.nvim_buf_get_lines(bufnr, row, row + 1, false)[1] or ""
end

-- range_from_bytes converts a selection in Neovim terms into an LSP range.
-- s and e are {row, col}, 0-based rows and 0-based byte columns, e being
-- the first byte of the last selected character (inclusive, as the '>
-- mark is); mode is "v", "V" or "\22" (blockwise, taken as charwise).
function M.range_from_bytes(bufnr, s, e, mode)
  local srow, scol, erow, ecol = s[1], s[2], e[1], e[2]
  if srow > erow or (srow == erow and scol > ecol) then
    srow, scol, erow, ecol = erow, ecol, srow, scol
  end
  local sline, eline = get_line(bufnr, srow), get_line(bufnr, erow)
  local start_char, end_char
  if mode == "V" then
    start_char = 0
    end_char = M.utf16_col(eline, #eline)
  else
    start_char = M.utf16_col(sline, math.min(scol, #sline))
    -- 'selection' exclusive already puts '> past the last character.
    local stop = ecol
    if vim.o.selection ~= "exclusive" then
      stop = M.char_end(eline, math.min(ecol, #eline))
    end
    end_char = M.utf16_col(eline, math.min(stop, #eline))
  end
  return {
    start = { line = srow, character = start_char },
    ["end"] = { line = erow, character = end_char },
  }
end

-- command_range is the LSP range of a command's range: the last visual
-- selection when the command was given '<,'> (its marks fall on line1 and
-- line2), else whole lines line1..line2 (1-based).
function M.command_range(bufnr, line1, line2)
  local s = vim.api.nvim_buf_get_mark(bufnr, "<")
  local e = vim.api.nvim_buf_get_mark(bufnr, ">")
  if s[1] == line1 and e[1] == line2 and s[1] > 0 then
    return M.range_from_bytes(bufnr, { s[1] - 1, s[2] }, { e[1] - 1, e[2] }, vim.fn.visualmode())
  end
  return M.range_from_bytes(bufnr, { line1 - 1, 0 }, { line2 - 1, 0 }, "V")
end

local function exists(path)
  return uv.fs_stat(path) ~= nil
end

-- find_root walks up from path (a file or a folder) and returns the
-- nearest folder holding one of markers, as the server does when it picks
-- a book for a file.
function M.find_root(path, markers)
  if not path or path == "" then
    return nil
  end
  path = vim.fn.fnamemodify(path, ":p")
  local dir = path
  local st = uv.fs_stat(dir)
  if not st or st.type ~= "directory" then
    dir = vim.fn.fnamemodify(path, ":h")
  end
  dir = dir:gsub("/+$", "")
  -- "" stands for the filesystem root, so that dir .. "/" .. m is a path.
  while true do
    for _, m in ipairs(markers) do
      if exists(dir .. "/" .. m) then
        return dir == "" and "/" or dir
      end
    end
    if dir == "" then
      return nil
    end
    local parent = vim.fn.fnamemodify(dir, ":h")
    if parent == "/" then
      parent = ""
    end
    if parent == dir then
      return nil
    end
    dir = parent
  end
end

function M.split_lines(s)
  if s == nil or s == vim.NIL then
    return {}
  end
  return vim.split(tostring(s), "\n", { plain = true })
end

-- vim.islist (0.10) replaced vim.tbl_islist, which warns when called there.
local islist = vim.islist or vim.tbl_islist

local function is_list(t)
  if getmetatable(t) == getmetatable(vim.empty_dict()) and next(t) == nil then
    return false
  end
  return islist(t)
end

local encode = (vim.json and vim.json.encode) or vim.fn.json_encode

-- pretty_json indents a decoded JSON value; Neovim 0.7 has no pretty
-- printer and the peek prompt is unreadable on one line. Object keys are
-- sorted since decoding lost their order anyway.
function M.pretty_json(v, indent)
  indent = indent or ""
  local inner = indent .. "  "
  if v == vim.NIL or v == nil then
    return "null"
  end
  if type(v) ~= "table" then
    return encode(v)
  end
  if next(v) == nil then
    return is_list(v) and "[]" or "{}"
  end
  local parts = {}
  if is_list(v) then
    for _, x in ipairs(v) do
      table.insert(parts, inner .. M.pretty_json(x, inner))
    end
    return "[\n" .. table.concat(parts, ",\n") .. "\n" .. indent .. "]"
  end
  local keys = vim.tbl_keys(v)
  table.sort(keys, function(a, b)
    return tostring(a) < tostring(b)
  end)
  for _, k in ipairs(keys) do
    table.insert(parts, inner .. encode(tostring(k)) .. ": " .. M.pretty_json(v[k], inner))
  end
  return "{\n" .. table.concat(parts, ",\n") .. "\n" .. indent .. "}"
end

-- format_error turns an RPC error into a sentence for the writer: the
-- server's message says what went wrong and what to do; its JSON-RPC code
-- means nothing to a writer.
function M.format_error(err)
  if type(err) ~= "table" then
    return tostring(err)
  end
  if type(err.message) == "string" and err.message ~= "" then
    return err.message
  end
  if err.code then
    return string.format("the server failed (error %d)", err.code)
  end
  return vim.inspect(err)
end

-- notify tells the writer something, as quire.
function M.notify(msg, level)
  vim.notify("quire: " .. msg, level or vim.log.levels.INFO)
end

-- count is n and its noun, agreeing ("1 chapter", "61 chapters");
-- plural defaults to noun .. "s".
function M.count(n, noun, plural)
  return M.thousands(n) .. " " .. (n == 1 and noun or (plural or noun .. "s"))
end

-- thousands is n with its thousands grouped, as quire writes counts
-- everywhere ("121,804").
function M.thousands(n)
  local s = tostring(math.floor(math.abs(n)))
  local out = s:reverse():gsub("(%d%d%d)", "%1,"):reverse():gsub("^,", "")
  return (n < 0 and "-" or "") .. out
end

-- no_display is why nothing can be shown on this machine's desktop, or
-- nil: on Linux and the BSDs, neither DISPLAY nor WAYLAND_DISPLAY set
-- (over SSH, in a text console), where xdg-open would fail or start a
-- text browser in the terminal.
function M.no_display()
  if vim.fn.has("mac") == 1 or vim.fn.has("win32") == 1 then
    return nil
  end
  local env = vim.env or {}
  if (env.DISPLAY or "") == "" and (env.WAYLAND_DISPLAY or "") == "" then
    return "there is no display to open it on (neither DISPLAY nor WAYLAND_DISPLAY is set, as over SSH or in a text console)"
  end
  return nil
end

-- open_file hands path to the system's viewer: opener (a function(path)
-- returning true when it opened it) when given, else vim.ui.open
-- (Neovim 0.10+), else xdg-open or open. It returns true, or false and
-- why not, for the writer to read.
function M.open_file(path, opener)
  if type(opener) == "function" then
    if opener(path) then
      return true
    end
    return false, "your opener (setup's open) did not open it"
  end
  local why = M.no_display()
  if why then
    return false, why
  end
  if vim.ui.open then
    local _, err = vim.ui.open(path)
    if err then
      return false, tostring(err)
    end
    return true
  end
  for _, bin in ipairs({ "xdg-open", "open" }) do
    if vim.fn.executable(bin) == 1 then
      if vim.fn.jobstart({ bin, path }, { detach = true }) > 0 then
        return true
      end
      return false, bin .. " did not start"
    end
  end
  return false, "neither xdg-open nor open is installed"
end

-- complete is the candidates that start with arglead, sorted, each once.
function M.complete(candidates, arglead)
  local out, seen = {}, {}
  for _, c in ipairs(candidates) do
    if not seen[c] and c:sub(1, #arglead) == arglead then
      seen[c] = true
      table.insert(out, c)
    end
  end
  table.sort(out)
  return out
end

-- norm_path is path in the one spelling relative() compares: forward
-- slashes, no trailing slash, and on Windows (win true) lower case, since
-- its file system ignores case and VS Code, Neovim and the server spell
-- drive letters differently (c:\ and C:\).
function M.norm_path(path, win)
  path = path:gsub("\\", "/")
  if #path > 1 and path:sub(-1) == "/" and not path:match("^%a:/$") then
    path = path:sub(1, -2)
  end
  if win then
    path = path:lower()
  end
  return path
end

-- relative is path relative to root (slash-separated) when path lies
-- inside root, else nil. win defaults to this system being Windows.
function M.relative(path, root, win)
  if not path or not root then
    return nil
  end
  if win == nil then
    win = vim.fn.has("win32") == 1
  end
  local p, r = M.norm_path(path, win), M.norm_path(root, win)
  if r:sub(-1) ~= "/" then
    r = r .. "/"
  end
  if #p > #r and p:sub(1, #r) == r then
    -- The original's spelling, not the lowered one.
    return (path:gsub("\\", "/")):sub(#r + 1)
  end
  return nil
end

-- run_job runs cmd (a list, or a string for the shell) with no input,
-- for at most opts.timeout ms (default 10 s), in opts.cwd with opts.env
-- added to Neovim's environment. Returns { code, stdout, timed_out };
-- code is nil when it could not start. stderr is read and dropped: the
-- callers either do not show it or must not (it may hold a key).
function M.run_job(cmd, opts)
  opts = opts or {}
  local out, done, code = {}, false, nil
  local jopts = {
    stdout_buffered = true,
    stderr_buffered = true,
    on_stdout = function(_, data)
      out = data or {}
    end,
    on_stderr = function() end,
    on_exit = function(_, c)
      code, done = c, true
    end,
  }
  if opts.cwd then
    jopts.cwd = opts.cwd
  end
  if opts.env and next(opts.env) then
    jopts.env = opts.env
  end
  local ok, id = pcall(vim.fn.jobstart, cmd, jopts)
  if not ok or type(id) ~= "number" or id <= 0 then
    return { code = nil, stdout = "" }
  end
  pcall(vim.fn.chanclose, id, "stdin")
  local timeout = opts.timeout or 10000
  local res = vim.fn.jobwait({ id }, timeout)[1]
  if res == -1 then
    pcall(vim.fn.jobstop, id)
    return { code = nil, stdout = "", timed_out = true }
  end
  -- The exit and the output callbacks come just after jobwait returns.
  vim.wait(2000, function()
    return done
  end, 10)
  return { code = code or res, stdout = table.concat(out, "\n") }
end

return M
