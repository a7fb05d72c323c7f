-- :checkhealth quire (also :Quire health). Two parts: the plugin's side
-- (setup(), the quire binary, the key setup() names, the client of the
-- buffer the writer was in) and the server's health report for that
-- buffer's book: quire/doctor when a client serves it, else `quire
-- doctor --json` run on the book. Every line that is not ok says what to
-- do. Nothing here shows a key or the output of the api_key command.
local M = {}

-- report returns the health function named new (start, ok, warn, error,
-- info): vim.health's from 0.9, its report_* names on 0.8, the
-- health#report_* functions of Vimscript on 0.7.
local function report(new)
  local vh = rawget(vim, "health") or (vim.fn.has("nvim-0.8") == 1 and vim.health) or nil
  if type(vh) == "table" then
    if type(vh[new]) == "function" then
      return vh[new]
    end
    if type(vh["report_" .. new]) == "function" then
      return vh["report_" .. new]
    end
  end
  return function(msg, advice)
    if advice ~= nil then
      vim.fn["health#report_" .. new](msg, advice)
    else
      vim.fn["health#report_" .. new](msg)
    end
  end
end

local h = {
  start = report("start"),
  ok = report("ok"),
  warn = report("warn"),
  error = report("error"),
  info = report("info"),
}

-- origin is the buffer :Quire health was run from; :checkhealth opens
-- its own buffer first, so without it the writer's buffer is found in
-- the tab page or window checkhealth left.
M.origin = nil

local function is_health(buf)
  return vim.bo[buf].filetype == "checkhealth" or vim.api.nvim_buf_get_name(buf):match("^health://") ~= nil
end

local function writer_buffer()
  local b = M.origin
  M.origin = nil
  if b and vim.api.nvim_buf_is_valid(b) then
    return b
  end
  local cur = vim.api.nvim_get_current_buf()
  if not is_health(cur) then
    return cur
  end
  local tab = vim.fn.tabpagenr("#")
  if tab > 0 then
    local list = vim.fn.tabpagebuflist(tab)
    local buf = type(list) == "table" and list[vim.fn.tabpagewinnr(tab)] or nil
    if buf and vim.api.nvim_buf_is_valid(buf) and not is_health(buf) then
      return buf
    end
  end
  local alt = vim.fn.bufnr("#")
  if alt > 0 and vim.api.nvim_buf_is_valid(alt) and not is_health(alt) then
    return alt
  end
  return nil
end

local function bufname(buf)
  local n = buf and vim.api.nvim_buf_get_name(buf) or ""
  return n ~= "" and vim.fn.fnamemodify(n, ":~:.") or "[No Name]"
end

-- binary reports the quire the plugin starts; returns its path or nil.
local function check_binary()
  local lsp = require("quire.lsp")
  local cmd = lsp.server_cmd()
  local bin = cmd[1]
  if vim.fn.executable(bin) ~= 1 then
    h.error(string.format("the quire binary was not found: %q is not a program Neovim can run", bin), {
      "Run :Quire install to download it,",
      "or put quire on your PATH,",
      "or give its full path: require('quire').setup({ cmd = { '/path/to/quire', 'serve' } }).",
    })
    return nil
  end
  local path = vim.fn.exepath(bin)
  local r = require("quire.util").run_job({ bin, "--version" }, { timeout = 5000 })
  local version = vim.trim((r.stdout or ""):match("^[^\n]*") or "")
  if r.code ~= 0 or version == "" then
    h.error(string.format("the quire binary %s does not run (quire --version failed)", path ~= "" and path or bin), {
      "Run :Quire install to put a working quire in place, or point cmd in setup() at one.",
    })
    return nil
  end
  h.ok(string.format("quire binary: %s (%s)", path ~= "" and path or bin, version))
  local want = require("quire.install").version
  local have = version:match("^quire%s+v?(%d+%.%d+%.%d+)")
  if have and want and have ~= want then
    h.warn(string.format("this plugin goes with quire %s, and the binary is %s", want, have), {
      "Run :Quire install for quire " .. want .. ", or update the plugin to match your quire.",
    })
  end
  return bin
end

local function check_key()
  local c = require("quire").config
  local k = c.api_key
  if k == nil or k == "" or k == false then
    h.info("api_key: none in setup(); the server looks for the key itself (its key line is below)")
    return
  end
  local key = require("quire.key")
  local got = key.resolve()
  local last = key.last or {}
  if got then
    if last.source == "command" then
      h.ok(string.format("api_key: the command (%s) gave a key; quire hands it to the server in its environment only", last.program))
    else
      h.ok("api_key: a key given in setup(); quire hands it to the server in its environment only")
    end
    return
  end
  h.error(string.format("api_key: the command (%s) %s, so quire runs without your key", last.program or "?", last.why or "failed"), {
    "Run the command in a terminal to see what is wrong (its output is not shown here, as it may hold the key),",
    "then fix it in setup({ api_key = \"cmd:...\" }) and restart Neovim.",
  })
end

-- server_report is the health report of buf's book as the server makes
-- it, and where it came from; nil and why when there is none.
local function server_report(buf, client, bin)
  local compat = require("quire.compat")
  if client then
    local params = vim.empty_dict()
    if buf and vim.api.nvim_buf_get_name(buf) ~= "" then
      params = { uri = vim.uri_from_bufnr(buf) }
    end
    local res, why = compat.request_sync(client, "quire/doctor", params, 15000, buf)
    if res and res.result and type(res.result.checks) == "table" then
      return res.result, "the running server's report (quire/doctor)"
    end
    local err = res and res.err and require("quire.util").format_error(res.err) or why or "no answer"
    h.warn("the running server gave no health report: " .. tostring(err) .. "; asking quire doctor instead", {
      "If the server is still starting, run :checkhealth quire again in a moment.",
    })
  end
  if not bin then
    return nil, "no quire binary to ask"
  end
  local root = buf and require("quire.lsp").root_of(buf)
  local argv = { bin, "doctor", "--json" }
  if root then
    table.insert(argv, "--project")
    table.insert(argv, root)
  end
  local c = require("quire").config
  local env = vim.tbl_extend("force", {}, c.cmd_env or {}, require("quire.key").env(require("quire.key").resolve()))
  local r = require("quire.util").run_job(argv, { env = env, cwd = root or vim.fn.getcwd(), timeout = 20000 })
  if r.timed_out then
    return nil, "quire doctor did not finish within 20 s"
  end
  local ok, rep = pcall(require("quire.compat").json_decode, r.stdout or "")
  if not ok or type(rep) ~= "table" or type(rep.checks) ~= "table" then
    return nil, string.format("quire doctor failed (exit code %s) without a report", tostring(r.code))
  end
  local from = "quire doctor, run on " .. (root or vim.fn.getcwd())
  local settings = c.settings or {}
  if type(settings.provider) == "table" and next(settings.provider) then
    from = from .. "; it reads the settings files, not the provider setup() names, which the server applies once it runs"
  end
  return rep, from
end

function M.check()
  local quire = require("quire")
  local compat = require("quire.compat")
  local buf = writer_buffer()

  h.start("quire: plugin")
  local okv, v = pcall(vim.version)
  h.ok("Neovim " .. (okv and type(v) == "table" and string.format("%d.%d.%d", v.major, v.minor, v.patch) or "?"))
  if quire.did_setup then
    h.ok("setup() has run")
  else
    h.warn("setup() has not run: book files get no quire until a :Quire command starts it with the defaults", {
      "Add require('quire').setup({}) to your config (with your settings) so quire starts as you open a chapter.",
    })
  end
  local bin = check_binary()
  check_key()

  local client = buf and compat.get_clients({ bufnr = buf, name = "quire" })[1]
  local root = buf and require("quire.lsp").root_of(buf)
  if client then
    h.ok(string.format("a quire client (id %d) serves %s, for the book %s", client.id, bufname(buf),
      tostring(client.config and client.config.root_dir or root)))
  elseif not buf then
    h.info("no buffer to check: run :checkhealth quire from a chapter of your book")
  elseif not root then
    h.warn(string.format("%s is not inside a book (a folder with %s), so no quire client serves it", bufname(buf),
      table.concat(quire.config.root_markers, ", ")), {
      "Open a chapter of your book, then run :checkhealth quire again.",
    })
  elseif not quire.did_setup then
    h.warn(string.format("no quire client serves %s: setup() has not run", bufname(buf)), {
      "Call require('quire').setup({}) in your config, or run :Quire reindex to start quire with its defaults.",
    })
  else
    h.error(string.format("no quire client serves %s, in the book %s", bufname(buf), root), {
      "Check the binary line above; :LspLog (or :lua vim.cmd.edit(vim.lsp.get_log_path())) shows why a start failed.",
      "quire serves the filetypes " .. table.concat(quire.config.filetypes, ", ") .. ": this buffer's is "
        .. (vim.bo[buf].filetype ~= "" and vim.bo[buf].filetype or "none") .. ".",
    })
  end

  h.start("quire: book, model and key (quire doctor)")
  local rep, from = server_report(buf, client, bin)
  if not rep then
    h.error("no health report: " .. tostring(from), { "Make the binary above work first (:Quire install)." })
    return
  end
  h.info("from " .. from)
  for _, c in ipairs(rep.checks) do
    local line = string.format("%s: %s", c.name or "?", c.detail or "")
    local fix = (c.fix and c.fix ~= "" and c.fix ~= vim.NIL) and { c.fix } or nil
    if c.status == "ok" then
      h.ok(line)
    elseif c.status == "warning" then
      h.warn(line, fix)
    else
      h.error(line, fix or { "See quire doctor in a terminal for more." })
    end
  end
end

return M
