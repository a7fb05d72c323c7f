-- quire for Neovim: the language client for book projects and the
-- advisor's chat. Nothing starts until setup() runs, or until the
-- writer runs a :Quire command, which sets quire up with the defaults.
local M = {}

local defaults = {
  cmd = { "quire", "serve" },
  -- Extra environment for the server, e.g. { OPENAI_API_KEY = ... } when
  -- the key is not in Neovim's own environment.
  cmd_env = nil,
  -- The provider's API key, handed to the server only in its
  -- environment (QUIRE_EDITOR_API_KEY), never in its settings: a string,
  -- or "cmd:<command>" whose trimmed output is the key
  -- ("cmd:pass show quire"). nil: the server finds the key itself
  -- (api_key_env, the keychain).
  api_key = nil,
  -- How long the api_key command may take, in milliseconds (a password
  -- manager may ask for its passphrase first).
  api_key_timeout = 30000,
  -- false: setup() starts no client by itself (for vim.lsp.enable("quire")
  -- on Neovim 0.11+, which then reads this configuration).
  autostart = true,
  -- Sent as initializationOptions and answered to workspace/configuration:
  -- { provider = { base_url, model, api_key_env, ... }, persona = "<id>" }.
  settings = {},
  root_markers = { "quire.yaml", "codex", "manuscript" },
  filetypes = { "markdown" },
  capabilities = nil,
  on_attach = nil,
  -- :Quire install: { base_url = ".../v{version}", dir = <stdpath("data")/quire> }.
  install = {},
  -- Set 'omnifunc' in book buffers to quire's, which completes aliases
  -- (Neovim's own drops them); false leaves 'omnifunc' alone.
  omnifunc = true,
  -- How :QuireBuild! (and :QuireMap) open a file: nil uses vim.ui.open
  -- (0.10+), else xdg-open or open; a function(path) returning true
  -- replaces them.
  open = nil,
  map = {
    -- How :QuireMap opens the page, when it should differ from open.
    open = nil,
  },
  chat = {
    layout = "float", -- or "split"
    show_tool_rows = true,
    open_on_ask = true,
    width = 80,
    border = "rounded",
  },
}

M.config = vim.deepcopy(defaults)

-- reindex asks the server to read the current buffer's book again;
-- cb(result, err) gets the outcome after the writer has been told.
function M.reindex(cb)
  local client, why = require("quire.lsp").client_for(0)
  if not client then
    vim.notify("quire: " .. why, vim.log.levels.ERROR)
    return
  end
  local params = vim.empty_dict()
  if vim.api.nvim_buf_get_name(0) ~= "" then
    params = { uri = vim.uri_from_bufnr(0) }
  end
  require("quire.compat").request(client, "quire/reindex", params, function(err, result)
    if err then
      vim.notify("quire: reindex failed: " .. require("quire.util").format_error(err), vim.log.levels.ERROR)
    else
      vim.notify(string.format("quire: reindexed %s in %d ms", result.counts or "", result.ms or 0))
    end
    if cb then
      cb(result, err)
    end
  end)
end

-- ensure_setup sets quire up with its defaults when setup() has not
-- run: every :Quire command that needs the client calls it. True when
-- it did.
function M.ensure_setup()
  if M.did_setup then
    return false
  end
  M.setup({})
  return true
end

function M.setup(opts)
  M.did_setup = true
  M.config = vim.tbl_deep_extend("force", vim.deepcopy(defaults), opts or {})
  -- A list given by the user replaces the default list instead of being
  -- merged index by index.
  if opts and opts.cmd then
    M.config.cmd = opts.cmd
  end
  -- A cmd the writer chose is run as it is; the default one falls back
  -- to the binary :Quire install put in place (lsp.server_cmd).
  M.cmd_set = opts ~= nil and opts.cmd ~= nil
  if opts and opts.root_markers then
    M.config.root_markers = opts.root_markers
  end
  if M.config.settings.persona then
    require("quire.ask").persona = M.config.settings.persona
  end
  require("quire.commands").define()
  require("quire.created").install()
  local group = vim.api.nvim_create_augroup("quire", { clear = true })
  if M.config.autostart == false then
    return
  end
  vim.api.nvim_create_autocmd("FileType", {
    group = group,
    pattern = M.config.filetypes,
    callback = function(args)
      require("quire.lsp").attach(args.buf)
    end,
  })
  -- Buffers opened before setup ran (a lazy-loaded plugin) attach now.
  for _, buf in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(buf) and vim.tbl_contains(M.config.filetypes, vim.bo[buf].filetype) then
      require("quire.lsp").attach(buf)
    end
  end
end

-- set_settings replaces the settings and sends them to running servers
-- (workspace/didChangeConfiguration); they apply from the next ask.
function M.set_settings(settings)
  M.config.settings = settings or {}
  require("quire.lsp").push_settings(M.config.settings)
end

-- ask is the Lua form of :QuireAsk. opts: persona, message, bufnr, range
-- (an LSP range, UTF-16), new_conversation, on_done(entry, err, result).
function M.ask(opts)
  opts = opts or {}
  local lsp = require("quire.lsp")
  local bufnr = opts.bufnr or vim.api.nvim_get_current_buf()
  local client, why = lsp.client_for(bufnr)
  if not client then
    vim.notify("quire: " .. why, vim.log.levels.ERROR)
    return nil
  end
  local params = { persona = opts.persona, message = opts.message, range = opts.range }
  if vim.api.nvim_buf_get_name(bufnr) ~= "" then
    params.uri = vim.uri_from_bufnr(bufnr)
  end
  return require("quire.ask").send(client.id, bufnr, params, opts)
end

-- apply is the Lua form of :QuireApply with a callback.
function M.apply(id, cb)
  local client, why = require("quire.lsp").client_for(0)
  if not client then
    vim.notify("quire: " .. why, vim.log.levels.ERROR)
    return
  end
  require("quire.proposals").apply(client, id, cb)
end

-- status is the statusline's line for the current buffer: its book's
-- word counts once the server has counted them ("Ch. 3 · 4,210 words ·
-- today +1,250 of 1,000 ✓ · book 82,400 of 90,000"), else the state the
-- server last reported ("indexing", …); "" outside a book.
function M.status()
  local lsp = require("quire.lsp")
  local buf = vim.api.nvim_get_current_buf()
  local root = lsp.root_of(buf)
  if not root then
    return ""
  end
  local s = lsp.status[root]
  local words = require("quire.words").status(buf)
  if words and (not s or s.state == "ready") then
    return words
  end
  return s and s.state or ""
end

-- state is the state the server last reported for the current buffer's
-- book ("ready", "indexing", …); "" outside a book.
function M.state()
  local lsp = require("quire.lsp")
  local root = lsp.root_of(vim.api.nvim_get_current_buf())
  local s = root and lsp.status[root]
  return s and s.state or ""
end

return M
