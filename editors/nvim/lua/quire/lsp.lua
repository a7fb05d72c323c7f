-- The language client: one per book root, started for Markdown buffers
-- inside a book, with the handlers that feed the chat.
local compat = require("quire.compat")
local util = require("quire.util")
-- vim.uv is the 0.10+ name; vim.loop still works there but is deprecated.
local uv = vim.uv or vim.loop

local M = {}


M.name = "quire"
-- root_dir -> client id, for Neovim 0.7, where vim.lsp.start (which reuses
-- a client by name and root) does not exist yet.
M.roots = {}
-- Last quire/status notification per root, for a statusline.
M.status = {}
-- Series folder (real path, as quire/status gives it) -> id of the client
-- of a book that reads it. A series folder is no book, though it looks
-- like one (it has a codex/): its files go to that book's session, which
-- answers there from the book's canon, rather than to a new server that
-- would read the series as a book of its own.
M.series = {}

local function cfg()
  return require("quire").config
end

-- token_key makes a progress token usable as a table key: the server
-- echoes string tokens as strings and numbers as numbers.
function M.token_key(tok)
  return type(tok) .. ":" .. tostring(tok)
end

local function progress_handler(err, result, ctx, config)
  if result and result.token ~= nil then
    require("quire.ask").on_progress(M.token_key(result.token), result.value)
  end
  local default = vim.lsp.handlers["$/progress"]
  if default then
    -- The built-in handler only feeds the statusline; a bug there must not
    -- cut off the chat, which is already updated.
    local ok, res = pcall(default, err, result, ctx, config)
    if ok then
      return res
    end
  end
end

local function ask_progress_handler(_, result, _)
  if type(result) ~= "table" or result.token == nil then
    return
  end
  require("quire.ask").on_ask_progress(M.token_key(result.token), result)
end

local function status_handler(_, result, ctx)
  if type(result) == "table" and result.root then
    local old = M.status[result.root]
    M.status[result.root] = result
    M.note_series(old and old.series, result.series, ctx and ctx.client_id)
    -- Firing a User event nobody listens to prints "No matching
    -- autocommands" on some versions.
    if vim.fn.exists("#User#QuireStatus") == 1 then
      pcall(vim.api.nvim_exec_autocmds, "User", { pattern = "QuireStatus", modeline = false })
    end
  end
end

local message_levels = {
  [1] = vim.log.levels.ERROR,
  [2] = vim.log.levels.WARN,
  [3] = vim.log.levels.INFO,
  [4] = vim.log.levels.DEBUG,
}

-- The server tells the writer of outcomes (applied, refused, renamed,
-- an answer it could not open) with window/showMessage. Neovim's handler
-- writes them past vim.notify as "LSP[quire][Info] ...", where a
-- notification plugin never sees them; shown with vim.notify they read
-- like the plugin's own messages.
local function show_message_handler(_, result, ctx)
  if type(result) ~= "table" or type(result.message) ~= "string" then
    return vim.NIL
  end
  util.notify(result.message, message_levels[result.type] or vim.log.levels.INFO)
  return vim.NIL
end

-- plain_links keeps a link's text and drops its file:// address, for a
-- float that would show the address as it is (compat.raw_links_in_floats):
-- "[Ilse Dorn](file:///home/…/ilse-dorn.md)" reads "Ilse Dorn". Going to
-- the entry stays one gd away.
local function plain_links(s)
  return (s:gsub("%[([^%]\n]*)%]%(file://[^%)%s]*%)", "%1"))
end
M.plain_links = plain_links

local function hover_handler(err, result, ctx, config)
  if result and type(result.contents) == "table" and type(result.contents.value) == "string" then
    result.contents.value = plain_links(result.contents.value)
  end
  return vim.lsp.handlers["textDocument/hover"](err, result, ctx, config)
end

M.handlers = {
  ["window/showMessage"] = show_message_handler,
  ["$/progress"] = progress_handler,
  ["quire/askProgress"] = ask_progress_handler,
  ["quire/status"] = status_handler,
}
if require("quire.compat").raw_links_in_floats then
  M.handlers["textDocument/hover"] = hover_handler
end

-- Code actions run their command on the client first when it has one, so
-- the advisor's "Ask <persona> about this" shows in the chat instead of
-- running unseen on the server.
M.commands = {
  ["quire.ask"] = function(command, ctx)
    local args = (command.arguments or {})[1] or {}
    require("quire.ask").send(ctx.client_id, ctx.bufnr, args)
  end,
  ["quire.peekPrompt"] = function(command, ctx)
    local args = (command.arguments or {})[1] or {}
    require("quire.ask").peek_with(ctx.client_id, args)
  end,
}

local function settings_or_empty(s)
  if s == nil or next(s) == nil then
    return vim.empty_dict()
  end
  return s
end
M.settings_or_empty = settings_or_empty

-- capabilities are Neovim's (with the writer's additions) without change
-- annotations. quire marks a proposal's edit as needing confirmation for
-- clients that would otherwise apply it unseen; here the writer has
-- already chosen it (`a`, :QuireApply), and Neovim 0.12 would ask "Apply
-- all changes?" a second time and then add its own "Applied changes"
-- message to the server's.
function M.capabilities(user)
  local caps = vim.tbl_deep_extend("force", vim.lsp.protocol.make_client_capabilities(), user or {})
  local we = type(caps.workspace) == "table" and caps.workspace.workspaceEdit or nil
  if type(we) == "table" then
    -- null rather than nil: 0.11+ merges these over its defaults, where
    -- nil would leave the default in place.
    we.changeAnnotationSupport = vim.NIL
  end
  return caps
end

-- server_cmd is the command that starts quire: the writer's `cmd` when
-- they set one; else `quire` on PATH; else the binary `:Quire install`
-- put under stdpath("data"); else `quire`, whose failure to start Neovim
-- reports (and lsp.attach explains).
function M.server_cmd()
  local c = cfg()
  if require("quire").cmd_set or vim.fn.executable(c.cmd[1]) == 1 then
    return c.cmd
  end
  local installed = require("quire.install").installed(c.install)
  if installed then
    local cmd = vim.deepcopy(c.cmd)
    cmd[1] = installed
    return cmd
  end
  return c.cmd
end

function M.client_config(root)
  local c = cfg()
  return {
    name = M.name,
    cmd = M.server_cmd(),
    cmd_env = c.cmd_env,
    root_dir = root,
    init_options = settings_or_empty(c.settings),
    -- Answers workspace/configuration (section "quire") with the same
    -- settings, through Neovim's built-in handler.
    settings = { quire = settings_or_empty(c.settings) },
    handlers = M.handlers,
    commands = M.commands,
    capabilities = M.capabilities(c.capabilities),
    on_attach = function(client, bufnr)
      if c.on_attach then
        c.on_attach(client, bufnr)
      end
      -- After the writer's on_attach, which may set Neovim's omnifunc.
      require("quire.complete").set(bufnr)
      require("quire.words").attach(client, bufnr)
      require("quire.dialogue").attach(client, bufnr)
    end,
  }
end

local function live(id)
  local client = id and vim.lsp.get_client_by_id(id)
  return client ~= nil and not compat.is_stopped(client)
end

-- note_series follows a book's series folder from its status: the first
-- live session whose book reads a folder keeps it, as the server, given
-- several books of a series, answers from the first.
function M.note_series(old, now, client_id)
  if old and old ~= now and M.series[old] == client_id then
    M.series[old] = nil
  end
  if type(now) == "string" and now ~= "" and client_id and not live(M.series[now]) then
    M.series[now] = client_id
  end
end

-- series_client is the client of a book whose series folder holds the
-- buffer's file (its real path: the server names the folder by its real
-- path), or nil. A folder whose name only begins as the series' does
-- (the-series-old) is not inside it.
function M.series_client(bufnr)
  local name = vim.api.nvim_buf_get_name(bufnr)
  if name == "" or next(M.series) == nil then
    return nil
  end
  name = vim.fn.fnamemodify(name, ":p")
  local real = uv.fs_realpath(name)
  if not real then
    -- A file not written yet: its folder's real path.
    local dir = uv.fs_realpath(vim.fn.fnamemodify(name, ":h"))
    real = dir and (dir .. "/" .. vim.fn.fnamemodify(name, ":t"))
  end
  if not real then
    return nil
  end
  for folder, id in pairs(M.series) do
    if util.relative(real, folder) and live(id) then
      return id
    end
  end
  return nil
end

-- ask_series asks each running quire session which series folders its
-- books read, for a buffer that would otherwise start a new session: the
-- quire/status notifications may not have come yet (go to definition
-- right after the book loaded).
local function ask_series()
  for _, client in ipairs(compat.get_clients({ name = M.name })) do
    local res = compat.request_sync(client, "quire/status", vim.empty_dict(), 1000)
    local books = res and type(res.result) == "table" and res.result.books
    for _, b in ipairs(type(books) == "table" and books or {}) do
      if type(b) == "table" then
        M.note_series(nil, b.series, client.id)
      end
    end
  end
end

-- session_of is the live quire client started for root, if any.
local function session_of(root)
  for _, client in ipairs(compat.get_clients({ name = M.name })) do
    if client.config and client.config.root_dir == root and not compat.is_stopped(client) then
      return client
    end
  end
  return nil
end

function M.root_of(bufnr)
  local name = vim.api.nvim_buf_get_name(bufnr)
  if name == "" then
    return nil
  end
  return util.find_root(name, cfg().root_markers)
end

-- series_for is the client of an open book whose series folder holds
-- the buffer, or nil; root is the book found upward from the buffer.
local function series_for(bufnr, root)
  local series = M.series_client(bufnr)
  if not series and root and not session_of(root) then
    -- About to start a session for a folder that may be a series: a
    -- series holds a codex/, so it looks like a book.
    ask_series()
    series = M.series_client(bufnr)
  end
  return series
end

-- book_root is the root_dir of the session a buffer belongs to, for
-- lsp/quire.lua (vim.lsp.enable): the root of the open book whose series
-- folder holds it, so that Neovim reuses that book's client as attach()
-- does; else the book found upward from it; else nil (no quire).
function M.book_root(bufnr)
  if not vim.api.nvim_buf_is_valid(bufnr) or vim.bo[bufnr].buftype ~= "" then
    return nil
  end
  local root = M.root_of(bufnr)
  local series = series_for(bufnr, root)
  local client = series and vim.lsp.get_client_by_id(series)
  if client and client.config and client.config.root_dir then
    return client.config.root_dir
  end
  return root
end

-- attach starts or reuses the client of the buffer's book. Buffers outside
-- a book are left alone, so plain Markdown notes get no quire client.
function M.attach(bufnr)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  if not vim.api.nvim_buf_is_valid(bufnr) or vim.bo[bufnr].buftype ~= "" then
    return nil
  end
  local root = M.root_of(bufnr)
  local series = series_for(bufnr, root)
  if series then
    vim.lsp.buf_attach_client(bufnr, series)
    return series
  end
  if not root then
    return nil
  end
  if vim.lsp.start then
    -- 0.8's vim.lsp.start attaches the current buffer and knows no bufnr
    -- option (0.9 added it), so make bufnr current for the call.
    local id
    vim.api.nvim_buf_call(bufnr, function()
      -- The key, when setup() names one, is in the environment only while
      -- the server is spawned (quire.key).
      id = require("quire.key").with_key(function()
        return vim.lsp.start(M.client_config(root), { bufnr = bufnr })
      end)
    end)
    return id
  end
  local id = M.roots[root]
  local client = id and vim.lsp.get_client_by_id(id)
  if not client or compat.is_stopped(client) then
    id = require("quire.key").with_key(function()
      return vim.lsp.start_client(M.client_config(root))
    end)
    if not id then
      return nil
    end
    M.roots[root] = id
  end
  vim.lsp.buf_attach_client(bufnr, id)
  return id
end

-- client_for is the quire client of bufnr or, for a buffer outside any
-- book (the chat, a scratch note), the only running quire client.
function M.client_for(bufnr)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  local mine = compat.get_clients({ bufnr = bufnr, name = M.name })
  if mine[1] then
    return mine[1]
  end
  local all = compat.get_clients({ name = M.name })
  if #all == 1 then
    return all[1]
  end
  return nil, (#all == 0 and "no quire server is running: open a Markdown file inside a book (a folder with quire.yaml, codex/ or manuscript/)"
    or "several books are open: run this from a buffer of the book you mean")
end

function M.clients()
  return compat.get_clients({ name = M.name })
end

-- set_settings sends new settings to every running client; they apply from
-- the next ask on.
function M.push_settings(settings)
  for _, client in ipairs(M.clients()) do
    -- workspace/configuration reads client.settings from 0.10 on and
    -- client.config.settings before.
    local section = { quire = settings_or_empty(settings) }
    client.config.settings = section
    if client.settings ~= nil then
      client.settings = section
    end
    compat.notify(client, "workspace/didChangeConfiguration", { settings = { quire = settings_or_empty(settings) } })
  end
end

return M
