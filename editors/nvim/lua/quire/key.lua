-- The provider's API key from setup({ api_key = ... }): a string, or
-- "cmd:<command>" whose output is the key ("cmd:pass show quire",
-- "cmd:op read op://Private/OpenAI/credential"). The key reaches the
-- server only in its environment, as QUIRE_EDITOR_API_KEY (for the
-- provider QUIRE_EDITOR_API_BASE_URL names), set in Neovim's own
-- environment just while the server is spawned: never in its settings,
-- which the server and Neovim may log, and never in the client's
-- configuration (cmd_env), which Neovim logs at its info level. Neither
-- the key nor the command's output is ever shown or logged.
local M = {}

M.KEY_ENV = "QUIRE_EDITOR_API_KEY"
M.BASE_URL_ENV = "QUIRE_EDITOR_API_BASE_URL"

-- What became of the last attempt, for :checkhealth quire; never the
-- key. { source = "string" | "command", program = "pass", ok = bool,
-- why = "..." }.
M.last = nil

-- Keys got from a command, by the api_key string, so the command runs
-- once a session (a password manager may ask for its passphrase).
local from_command = {}
-- Commands that failed, by the api_key string: the writer is told once,
-- not at each buffer that attaches.
local failed = {}

local function cfg()
  return require("quire").config
end

-- program is the first word of a command, to name it without its
-- arguments.
local function program(command)
  return command:match("^%s*(%S+)") or command
end

-- run_command runs command in the shell, with no input, for at most
-- timeout_ms; returns its stdout, or nil and why (never its output).
local function run_command(command, timeout_ms)
  local r = require("quire.util").run_job(command, { timeout = timeout_ms })
  if r.timed_out then
    return nil, string.format("did not finish within %d s", math.floor(timeout_ms / 1000))
  end
  if r.code == nil then
    return nil, "could not be started"
  end
  if r.code ~= 0 then
    return nil, string.format("failed with exit code %d", r.code)
  end
  return r.stdout
end

-- key_of turns a command's output into the key: trimmed, and the first
-- line when there are several (pass keeps the password on the first).
local function key_of(output)
  local s = vim.trim(output or "")
  local first = s:match("^([^\r\n]*)")
  return vim.trim(first or "")
end

-- resolve is the key setup() names, running its command the first time;
-- nil when there is none or the command failed (the writer is told).
function M.resolve()
  local k = cfg().api_key
  if k == nil or k == "" or k == false then
    M.last = nil
    return nil
  end
  if type(k) ~= "string" then
    M.last = { source = "string", ok = false, why = "api_key must be a string (the key, or \"cmd:<command>\")" }
    require("quire.util").notify("api_key in setup() must be a string: the key, or \"cmd:<command>\" that prints it", vim.log.levels.ERROR)
    return nil
  end
  if k:sub(1, 4) ~= "cmd:" then
    M.last = { source = "string", ok = true }
    return k
  end
  local command = vim.trim(k:sub(5))
  local name = program(command)
  if from_command[k] then
    M.last = { source = "command", program = name, ok = true }
    return from_command[k]
  end
  if failed[k] then
    M.last = failed[k]
    return nil
  end
  if command == "" then
    M.last = { source = "command", program = "", ok = false, why = "names no command" }
  else
    local output, why = run_command(command, cfg().api_key_timeout or 30000)
    local key = output and key_of(output)
    if key and key ~= "" then
      from_command[k] = key
      M.last = { source = "command", program = name, ok = true }
      return key
    end
    M.last = { source = "command", program = name, ok = false, why = why or "printed nothing" }
  end
  failed[k] = M.last
  require("quire.util").notify(string.format(
    "the api_key command (%s) %s, so quire starts without your key. Its output is not shown, as it may hold the key: "
      .. "run the command in a terminal to see what is wrong, then restart Neovim.",
    M.last.program ~= "" and M.last.program or "cmd:", M.last.why), vim.log.levels.ERROR)
  return nil
end

-- env is what the server's environment gets for key: the key and, when
-- the writer's settings name a provider, its base URL (without one, the
-- server takes the key for OpenAI's).
function M.env(key)
  if not key then
    return {}
  end
  local settings = cfg().settings or {}
  local base = type(settings.provider) == "table" and settings.provider.base_url or nil
  return { [M.KEY_ENV] = key, [M.BASE_URL_ENV] = (type(base) == "string" and base ~= "") and base or nil }
end

-- forget drops the keys and failures remembered this session, so the
-- command runs again at the next start (a test, or after fixing it).
function M.forget()
  from_command, failed, M.last = {}, {}, nil
end

-- with_key runs fn (which spawns the server) with the key in Neovim's
-- environment, and puts the environment back as it was afterwards,
-- also when fn fails. Returns fn's results.
function M.with_key(fn)
  local env = M.env(M.resolve())
  if not env[M.KEY_ENV] then
    return fn()
  end
  local saved = { [M.KEY_ENV] = vim.env[M.KEY_ENV], [M.BASE_URL_ENV] = vim.env[M.BASE_URL_ENV] }
  vim.env[M.KEY_ENV] = env[M.KEY_ENV]
  -- Unset unless named: a base URL left from elsewhere would send the
  -- key to another provider.
  vim.env[M.BASE_URL_ENV] = env[M.BASE_URL_ENV]
  local res = { pcall(fn) }
  vim.env[M.KEY_ENV] = saved[M.KEY_ENV]
  vim.env[M.BASE_URL_ENV] = saved[M.BASE_URL_ENV]
  if not res[1] then
    error(res[2], 0)
  end
  return unpack(res, 2, table.maxn(res))
end

return M
