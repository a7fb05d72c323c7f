-- quire's configuration for Neovim 0.11+'s own LSP setup:
--
--   vim.lsp.enable("quire")
--
-- starts quire for Markdown files inside a book, as setup() does, with
-- the plugin's handlers (the chat, progress, the server's messages) and
-- its omnifunc. Options come from require("quire").setup({ autostart =
-- false, ... }) when called first (autostart = false: setup() then
-- starts no client of its own), else the defaults; vim.lsp.config("quire",
-- { ... }) changes any field. The key setup()'s api_key names is handed
-- to the server in its environment while it is spawned, as setup() does.
-- Settings go in settings.quire; they are also the initializationOptions.
local quire = require("quire")
local lsp = require("quire.lsp")
-- The options as they are when Neovim first reads this file; the cmd
-- and on_attach read them when they run.
local c = quire.config

return {
  -- A function, so the key is in the environment only while the server
  -- is spawned (never in the client's cmd_env, which Neovim logs).
  cmd = function(dispatchers, config)
    local cwd = type(config) == "table" and config.root_dir or nil
    return require("quire.key").with_key(function()
      return vim.lsp.rpc.start(lsp.server_cmd(), dispatchers, { cwd = cwd, env = quire.config.cmd_env })
    end)
  end,
  filetypes = c.filetypes,
  root_markers = c.root_markers,
  -- Over root_markers: a file of a series folder goes to the session of
  -- the open book that reads that series (its root, so Neovim reuses
  -- that client), as setup() routes it, not to a server of its own that
  -- would read the series as a book.
  root_dir = function(bufnr, on_dir)
    local root = lsp.book_root(bufnr)
    if root then
      on_dir(root)
    end
  end,
  settings = { quire = lsp.settings_or_empty(c.settings) },
  before_init = function(params, config)
    local s = config.settings and config.settings.quire
    params.initializationOptions = lsp.settings_or_empty(type(s) == "table" and s or nil)
  end,
  handlers = lsp.handlers,
  commands = lsp.commands,
  capabilities = lsp.capabilities(c.capabilities),
  on_attach = function(client, bufnr)
    local user = quire.config.on_attach
    if user then
      user(client, bufnr)
    end
    require("quire.complete").set(bufnr)
    require("quire.dialogue").attach(client, bufnr)
  end,
}
