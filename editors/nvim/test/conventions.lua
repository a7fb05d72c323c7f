-- Neovim conventions, run by conventions_test.go in a headless Neovim
-- started with -u NORC (plugin/quire.lua loads as for a writer) against
-- a real quire. $QUIRE_MODE picks the part:
--   nosetup  :Quire <sub> and :Quire<Name> work without setup()
--   health   :checkhealth quire on a broken setup, before and after setup()
--   key      api_key = "cmd:…" reaches the model; a failing command
--            tells the writer without its output
--   models   :Quire models against a fake Ollama, with a client and without
--   enable   lsp/quire.lua with vim.lsp.enable("quire") (Neovim 0.11+)
-- Writes "ok <step>" lines and PASS to $QUIRE_RESULT; the first failure
-- writes "FAIL <step>: <why>".
local harness = dofile(vim.fn.fnamemodify(debug.getinfo(1, "S").source:sub(2), ":p:h") .. "/harness.lua")
harness.open(assert(os.getenv("QUIRE_RESULT"), "QUIRE_RESULT"))
local log, check = harness.log, harness.check

local function env(name)
  local v = os.getenv(name)
  check(v ~= nil and v ~= "", "environment variable " .. name .. " is not set")
  return v
end

local step = "start"
local function ok(name)
  log("ok " .. name)
end
local function wait(ms, cond, what)
  check(vim.wait(ms, cond, 20), "timed out after " .. ms .. " ms waiting for " .. what)
end

-- Notifications are collected: they are what the writer is told.
local notified = {}
vim.notify = function(msg, level)
  table.insert(notified, { msg = msg, level = level })
  log("notify " .. tostring(level) .. " " .. tostring(msg):gsub("\n", " "))
end
local function notified_with(text, from)
  for i = (from or 0) + 1, #notified do
    if notified[i].msg:find(text, 1, true) then
      return notified[i]
    end
  end
  return nil
end

local function client_of(buf)
  return require("quire.compat").get_clients({ bufnr = buf, name = "quire" })[1]
end

local function wait_client(buf)
  wait(20000, function()
    local c = client_of(buf)
    return c ~= nil and c.initialized ~= false and (c.server_capabilities or c.resolved_capabilities) ~= nil
  end, "the quire client to attach to " .. vim.api.nvim_buf_get_name(buf))
  return client_of(buf)
end

local function open_chapter()
  vim.cmd("edit " .. vim.fn.fnameescape(env("QUIRE_CHAPTER")))
  return vim.api.nvim_get_current_buf()
end

-- checkhealth runs :checkhealth quire (or cmd) and returns the report's
-- text, leaving the writer's tab as it was.
local function checkhealth(cmd)
  vim.cmd(cmd or "checkhealth quire")
  local buf = vim.api.nvim_get_current_buf()
  check(vim.bo[buf].filetype == "checkhealth" or vim.api.nvim_buf_get_name(buf):match("health") ~= nil,
    "checkhealth did not open its report")
  local text = table.concat(vim.api.nvim_buf_get_lines(buf, 0, -1, false), "\n")
  log("checkhealth report:\n" .. text)
  vim.cmd("bwipeout!")
  if #vim.api.nvim_list_tabpages() > 1 then
    vim.cmd("tabclose")
  end
  return text
end

local function has_all(text, what, parts)
  for _, p in ipairs(parts) do
    check(text:find(p, 1, true) ~= nil, what .. " does not say " .. vim.inspect(p))
  end
end

local modes = {}

function modes.nosetup()
  local quire = require("quire")
  step = "commands-before-setup"
  check(not quire.did_setup, "setup() ran already")
  for _, name in ipairs({ "Quire", "QuireAsk", "QuireChat", "QuireReindex", "QuirePersona", "QuireProposals",
    "QuireApply", "QuireModels", "QuireHealth" }) do
    check(vim.fn.exists(":" .. name) == 2, ":" .. name .. " exists before setup()")
  end
  local subs = vim.fn.getcompletion("Quire ", "cmdline")
  for _, s in ipairs({ "install", "ask", "chat", "reindex", "models", "health", "doctor" }) do
    check(vim.tbl_contains(subs, s), ":Quire completes " .. s .. ": " .. vim.inspect(subs))
  end
  ok(step)

  step = "unknown-subcommand"
  local n = #notified
  vim.cmd("Quire frobnicate")
  check(notified_with("no quire command", n), "an unknown subcommand is named as such")
  check(not quire.did_setup, "an unknown subcommand sets nothing up")
  ok(step)

  step = "reindex-without-setup"
  local buf = open_chapter()
  check(client_of(buf) == nil, "no client before a command")
  n = #notified
  vim.cmd("Quire reindex")
  check(quire.did_setup, ":Quire reindex set quire up with its defaults")
  wait(30000, function()
    return notified_with("reindexed", n) ~= nil
  end, "the reindex to be reported")
  check(not notified_with("needs require", n) and not notified_with("no quire server", n),
    "no complaint about setup: " .. vim.inspect(notified))
  check(client_of(buf) ~= nil, "the chapter has its client")
  ok(step)

  step = "persona"
  vim.cmd("Quire persona writing-coach")
  check(require("quire.ask").persona == "writing-coach", "persona set: " .. tostring(require("quire.ask").persona))
  ok(step)

  step = "chat"
  local wins = #vim.api.nvim_list_wins()
  vim.cmd("Quire chat")
  check(#vim.api.nvim_list_wins() == wins + 1, ":Quire chat opened the chat")
  vim.cmd("QuireChat")
  check(#vim.api.nvim_list_wins() == wins, ":QuireChat closed it")
  ok(step)
end

function modes.health()
  local quire = require("quire")
  step = "health-before-setup"
  local buf = open_chapter()
  local text = checkhealth()
  has_all(text, "the report before setup()", {
    "setup() has not run",
    "quire binary: ",
    "no quire client serves",
    "from quire doctor, run on " .. env("QUIRE_BOOK"),
    -- The model's server does not answer, with what to do.
    "model: nothing answers at " .. env("QUIRE_CLOSED_URL"),
    "correct provider.base_url",
    -- No key, and where to put it.
    "key: none: QUIRE_TEST_NO_SUCH_KEY is not set",
    "set QUIRE_TEST_NO_SUCH_KEY",
    -- The untrusted book and its series.
    "trust: not trusted",
    "series: ",
    "quire trust " .. env("QUIRE_BOOK"),
  })
  check(not quire.did_setup, ":checkhealth quire set nothing up")
  ok(step)

  step = "health-with-client"
  check(vim.api.nvim_get_current_buf() == buf, "back in the chapter")
  -- The server asks whether to trust the book; headless, Neovim's
  -- prompt would wait for ever. The writer answers "not now".
  local asked
  vim.lsp.handlers["window/showMessageRequest"] = function(_, params)
    asked = params and params.message
    return vim.NIL
  end
  quire.setup({ cmd = { env("QUIRE_BIN"), "serve" } })
  local client = wait_client(buf)
  text = checkhealth("Quire health")
  has_all(text, "the report with a client", {
    "setup() has run",
    string.format("a quire client (id %d) serves", client.id),
    "the running server's report (quire/doctor)",
    "model: nothing answers at " .. env("QUIRE_CLOSED_URL"),
    "key: none: QUIRE_TEST_NO_SUCH_KEY is not set",
    "trust: not trusted",
    "series: ",
    "quire trust " .. env("QUIRE_BOOK"),
  })
  ok(step)

  step = "health-missing-binary"
  quire.setup({ cmd = { env("QUIRE_BOOK") .. "/no-such-quire", "serve" } })
  vim.cmd("enew")
  text = checkhealth()
  has_all(text, "the report without a binary", { "the quire binary was not found", ":Quire install" })
  ok(step)
end

function modes.key()
  local quire = require("quire")
  local key = require("quire.key")
  if os.getenv("QUIRE_DEBUG") then
    vim.lsp.set_log_level("debug")
  else
    -- Neovim logs the server's spawn parameters from its info level: the
    -- key must not be among them.
    vim.lsp.set_log_level("info")
  end
  -- Where Neovim logs (the cache folder on 0.7, the state folder later).
  log("lsplog " .. vim.lsp.get_log_path())
  local base = env("QUIRE_MODEL_URL")
  local settings = { provider = { base_url = base, model = "scripted", retries = 0 } }

  step = "key-command-fails"
  quire.config.settings = settings
  quire.config.api_key = "cmd:echo leaked-secret-output; echo leaked-on-stderr >&2; exit 3"
  local n = #notified
  check(key.resolve() == nil, "a failing command gives no key")
  local note = notified_with("api_key command (echo) failed with exit code 3", n)
  check(note ~= nil, "the writer is told the command failed: " .. vim.inspect(notified))
  check(note.msg:find("run the command in a terminal", 1, true), "and what to do: " .. note.msg)
  for _, nt in ipairs(notified) do
    check(not nt.msg:find("leaked", 1, true), "the command's output is never shown: " .. nt.msg)
  end
  n = #notified
  check(key.resolve() == nil and #notified == n, "a failed command is reported once")
  key.forget()
  quire.config.api_key = "cmd:sleep 5"
  quire.config.api_key_timeout = 300
  check(key.resolve() == nil, "a command past its time gives no key")
  check(notified_with("(sleep) did not finish", n), "the writer is told it took too long")
  key.forget()
  quire.config.api_key = "cmd:true"
  n = #notified
  check(key.resolve() == nil and notified_with("(true) printed nothing", n), "an empty output is no key")
  ok(step)

  step = "key-string"
  key.forget()
  quire.config.api_key = "plain-string-key"
  local e = key.env(key.resolve())
  check(e.QUIRE_EDITOR_API_KEY == "plain-string-key", "a plain key goes to the server as it is")
  check(e.QUIRE_EDITOR_API_BASE_URL == base, "for the provider setup() names: " .. vim.inspect(e.QUIRE_EDITOR_API_BASE_URL))
  quire.config.settings = {}
  check(key.env("k").QUIRE_EDITOR_API_BASE_URL == nil, "no provider named: no base URL (the server takes OpenAI's)")
  ok(step)

  step = "key-reaches-model"
  key.forget()
  vim.env.QUIRE_EDITOR_API_KEY = nil
  quire.setup({
    cmd = { env("QUIRE_BIN"), "serve" },
    -- pass prints the password on the first line, then more.
    api_key = "cmd:printf 'sk-from-command\\nuser: writer\\n'; echo noise >&2",
    settings = settings,
  })
  local buf = open_chapter()
  local client = wait_client(buf)
  check(vim.env.QUIRE_EDITOR_API_KEY == nil and vim.env.QUIRE_EDITOR_API_BASE_URL == nil,
    "Neovim's own environment is as it was after the server started")
  check(not vim.inspect(client.config):find("sk-from-command", 1, true), "the key is not in the client's configuration")
  local done, answer, failure
  quire.ask({ persona = "continuity-editor", message = "Is it raining?", bufnr = buf,
    on_done = function(entry, err)
      done, failure = true, err
      answer = entry and (entry.answer or entry.text)
    end })
  wait(30000, function()
    return done
  end, "the answer")
  check(failure == nil, "the ask failed: " .. vim.inspect(failure))
  log("answer " .. tostring(answer))
  ok(step)
end

-- choose makes vim.ui.select pick the item whose model is model, and
-- records what it offered.
local offered
local function choose(model)
  offered = nil
  vim.ui.select = function(items, opts, on_choice)
    offered = {}
    for _, it in ipairs(items) do
      table.insert(offered, opts.format_item and opts.format_item(it) or tostring(it))
    end
    for i, it in ipairs(items) do
      if it.model == model then
        on_choice(it, i)
        return
      end
    end
    on_choice(nil, nil)
  end
end

local function read(path)
  local f = io.open(path)
  if not f then
    return ""
  end
  local s = f:read("*a")
  f:close()
  return s
end

function modes.models()
  local quire = require("quire")
  local config_file = env("QUIRE_USER_CONFIG")
  quire.setup({ cmd = { env("QUIRE_BIN"), "serve" } })
  local buf = open_chapter()
  wait_client(buf)

  step = "models-none"
  choose("none")
  local n = #notified
  vim.cmd("Quire models")
  wait(10000, function()
    return notified_with("no model server answers", n) ~= nil
  end, "the message that no model runs")
  check(notified_with("ollama serve", n), "it says how to start one")
  check(offered == nil, "nothing to choose from")
  ok(step)

  step = "models-choose"
  local flag = assert(io.open(env("QUIRE_MODELS_FLAG"), "w"))
  flag:write("on")
  flag:close()
  choose("qwen2.5:14b")
  n = #notified
  vim.cmd("Quire models")
  wait(10000, function()
    return notified_with("quire now asks qwen2.5:14b", n) ~= nil
  end, "the server's word that it asks the model")
  check(offered and #offered == 2, "both models offered: " .. vim.inspect(offered))
  check(offered[1]:find("Ollama", 1, true), "with their server: " .. offered[1])
  local text = read(config_file)
  check(text:find("qwen2.5:14b", 1, true) and text:find(env("QUIRE_OLLAMA_URL") .. "/v1", 1, true),
    "config.yaml names the model: " .. text)
  ok(step)

  step = "models-without-client"
  for _, c in ipairs(require("quire.lsp").clients()) do
    c.stop()
  end
  wait(10000, function()
    return #require("quire.lsp").clients() == 0
  end, "the client to stop")
  vim.cmd("enew")
  choose("llama3.2:latest")
  n = #notified
  vim.cmd("Quire models")
  wait(10000, function()
    return notified_with("llama3.2:latest", n) ~= nil
  end, "quire models --use to answer")
  check(offered and #offered == 2, "both models offered: " .. vim.inspect(offered))
  text = read(config_file)
  check(text:find("llama3.2:latest", 1, true), "config.yaml names the model: " .. text)
  ok(step)
end

function modes.enable()
  step = "enable"
  check(vim.fn.has("nvim-0.11") == 1, "vim.lsp.enable needs Neovim 0.11")
  local quire = require("quire")
  quire.setup({
    autostart = false,
    api_key = "cmd:printf sk-from-enable",
    settings = { provider = { base_url = env("QUIRE_MODEL_URL"), model = "scripted", retries = 0 } },
  })
  check(#vim.api.nvim_get_autocmds({ group = "quire", event = "FileType" }) == 0,
    "setup({ autostart = false }) starts nothing by itself")
  local conf = vim.lsp.config["quire"]
  check(type(conf) == "table" and type(conf.cmd) == "function" and vim.deep_equal(conf.root_markers, quire.config.root_markers),
    "lsp/quire.lua is the configuration: " .. vim.inspect(conf))
  vim.lsp.enable("quire")
  local buf = open_chapter()
  local client = wait_client(buf)
  check(#require("quire.lsp").clients() == 1, "one quire client, not setup()'s as well")
  check(client.config.root_dir == env("QUIRE_BOOK"), "root is the book: " .. tostring(client.config.root_dir))
  check(vim.env.QUIRE_EDITOR_API_KEY == nil, "Neovim's environment is as it was")
  check(vim.bo[buf].omnifunc:find("quire", 1, true), "quire's omnifunc: " .. vim.bo[buf].omnifunc)
  local l, c = harness.name_at(buf, env("QUIRE_NAME"))
  check(l ~= nil, "a name in the chapter")
  local card = harness.hover_at(buf, l, c, 15000)
  check(card and card:find(env("QUIRE_NAME"), 1, true), "hover shows the card: " .. tostring(card))
  ok(step)

  step = "enable-ask"
  local done, failure
  quire.ask({ persona = "continuity-editor", message = "Is it raining?", bufnr = buf,
    on_done = function(_, err)
      done, failure = true, err
    end })
  wait(30000, function()
    return done
  end, "the answer")
  check(failure == nil, "the ask failed: " .. vim.inspect(failure))
  ok(step)
end

local mode = env("QUIRE_MODE")
harness.run(function()
  local v = vim.version()
  log(string.format("nvim %d.%d.%d", v.major, v.minor, v.patch))
  check(modes[mode], "no mode " .. mode)
  modes[mode]()
end, function()
  return step
end)
