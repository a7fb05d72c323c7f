-- The plugin's commands, defined once: :Quire <subcommand> and the
-- :Quire<Name> commands. plugin/quire.lua defines them as soon as the
-- plugin is on the runtime path, so none needs setup() first: a command
-- that needs the language client runs setup() with its defaults when
-- the writer has not called it (require("quire").ensure_setup()).
local M = {}

local function quire()
  return require("quire")
end

local function persona_complete(arglead)
  -- The personas the server lists (quire/personas).
  local ids = {}
  for _, p in ipairs(require("quire.ask").personas_now()) do
    table.insert(ids, p.id)
  end
  return require("quire.util").complete(ids, arglead)
end

local function proposals_complete(...)
  return require("quire.proposals").complete(...)
end

-- Each subcommand: run(o) gets the user command's table (args, range,
-- line1, line2, bang); setup = false for those that must not start
-- quire (install, the health report); opts are the :Quire<Name>
-- command's attributes; alias = false for those without one.
M.list = {
  { name = "install", setup = false, alias = false, run = function(o)
    require("quire.install").command(o.args)
  end },
  { name = "ask", run = function(o)
    require("quire.ask").command(o)
  end, opts = { nargs = "*", range = true, bang = true, complete = persona_complete,
    desc = "Ask a quire advisor about the selection or the document" } },
  { name = "peek", run = function(o)
    require("quire.ask").peek_command(o)
  end, opts = { nargs = "*", range = true, complete = persona_complete,
    desc = "Show the request quire would send to the model" } },
  { name = "action", run = function(o)
    require("quire.actions").command(o)
  end, opts = { nargs = "?", range = true, complete = function(arglead)
    return require("quire.actions").complete(arglead)
  end, desc = "Run a quire advisor action on the selection or the chapter" } },
  { name = "persona", run = function(o)
    require("quire.ask").persona_command(o)
  end, opts = { nargs = "?", complete = persona_complete, desc = "Choose the default quire advisor" } },
  { name = "cancel", run = function()
    require("quire.ask").cancel()
  end, opts = { desc = "Cancel the running quire ask" } },
  { name = "chat", run = function()
    require("quire.chat").toggle()
  end, opts = { desc = "Toggle the quire chat" } },
  { name = "proposals", run = function(o)
    require("quire.proposals").list_command(o)
  end, opts = { desc = "List quire's codex proposals" } },
  { name = "apply", run = function(o)
    require("quire.proposals").apply_command(o)
  end, opts = { nargs = "?", complete = proposals_complete, desc = "Apply a quire proposal" } },
  { name = "discard", run = function(o)
    require("quire.proposals").discard_command(o)
  end, opts = { nargs = "?", complete = proposals_complete, desc = "Discard a quire proposal" } },
  { name = "reindex", run = function()
    quire().reindex()
  end, opts = { desc = "Read the whole book again and rebuild quire's index" } },
  { name = "map", run = function()
    require("quire.map").map_command()
  end, opts = { desc = "Open the book map (who appears where, the timeline, the links) in the browser" } },
  { name = "build", run = function(o)
    require("quire.build").command(o)
  end, opts = { nargs = "*", bang = true, complete = function(arglead, cmdline)
    return require("quire.build").complete(arglead, cmdline)
  end, desc = "Build the manuscript: a DOCX, an EPUB, or one Markdown or HTML file (! opens it)" } },
  { name = "mentions", run = function()
    require("quire.map").mentions_command()
  end, opts = { desc = "Show which codex entries each chapter mentions, as a table" } },
  { name = "stats", run = function()
    require("quire.words").command()
  end, opts = { desc = "Show word counts, today's words and what is left to reach the book's goals" } },
  { name = "lines", run = function(o)
    require("quire.dialogue").lines_command(o)
  end, opts = { nargs = "?", desc = "List the lines of the character under the cursor (or named) in the quickfix list" } },
  { name = "hints", run = function()
    require("quire.dialogue").hints_command()
  end, opts = { desc = "Turn the speaker hints before lines of dialogue on or off (Neovim 0.10+)" } },
  { name = "models", run = function()
    require("quire.models").command()
  end, opts = { desc = "Choose a model running on this computer (Ollama, LM Studio, …) for quire" } },
  { name = "snapshots", run = function(o)
    require("quire.snapshots").snapshots_command(o)
  end, opts = { nargs = "?", desc = "Compare the chapter with a snapshot quire kept, in a diff split" } },
  { name = "snapshot", run = function(o)
    require("quire.snapshots").snapshot_command(o)
  end, opts = { nargs = "*", bang = true, desc = "Keep the chapter (with !, the book) as it is saved, under a name" } },
  { name = "restore", run = function(o)
    require("quire.snapshots").restore_command(o)
  end, opts = { nargs = "?", desc = "Put a snapshot of the chapter back, as one edit" } },
  -- The health report: the plugin's side and the server's (quire
  -- doctor). It reports whether setup() ran, so it does not run it.
  { name = "health", setup = false, run = function()
    require("quire.health").origin = vim.api.nvim_get_current_buf()
    vim.cmd("checkhealth quire")
  end, opts = { desc = "Check quire: the binary, the client, the book, the model and its key" } },
  { name = "doctor", setup = false, alias = false, run = function()
    require("quire.health").origin = vim.api.nvim_get_current_buf()
    vim.cmd("checkhealth quire")
  end },
}

M.by_name = {}
for _, c in ipairs(M.list) do
  M.by_name[c.name] = c
end

function M.names()
  local out = {}
  for _, c in ipairs(M.list) do
    table.insert(out, c.name)
  end
  return out
end

-- run_sub runs subcommand c with the user command's table o, setting
-- quire up with its defaults first when it needs the client.
local function run_sub(c, o)
  if c.setup ~= false and quire().ensure_setup() then
    -- Just set up: the current buffer's server is starting. Wait for it
    -- (a few seconds at most) so the command finds it.
    local buf = vim.api.nvim_get_current_buf()
    if require("quire.lsp").root_of(buf) then
      vim.wait(15000, function()
        local cl = require("quire.compat").get_clients({ bufnr = buf, name = "quire" })[1]
        return cl ~= nil and cl.initialized ~= false and (cl.server_capabilities or cl.resolved_capabilities) ~= nil
      end, 20)
    end
  end
  c.run(o)
end

-- alias is the :Quire<Name> command of a subcommand ("QuireAsk").
function M.alias(name)
  return "Quire" .. name:sub(1, 1):upper() .. name:sub(2)
end

local function quire_command(o)
  local sub, rest = (o.args or ""):match("^%s*(%S*)%s*(.-)%s*$")
  if sub == "" then
    require("quire.util").notify(":Quire needs a subcommand: " .. table.concat(M.names(), ", "), vim.log.levels.ERROR)
    return
  end
  local c = M.by_name[sub]
  if not c then
    require("quire.util").notify(":Quire " .. sub .. " is no quire command; the commands are: " .. table.concat(M.names(), ", "),
      vim.log.levels.ERROR)
    return
  end
  run_sub(c, { args = rest, fargs = vim.split(rest, "%s+", { trimempty = true }), range = o.range, line1 = o.line1,
    line2 = o.line2, bang = o.bang })
end

local function quire_complete(arglead, cmdline)
  local sub, rest = cmdline:match("^%s*%S+%s+(%S+)%s(.*)$")
  if sub then
    local c = M.by_name[sub]
    local complete = c and c.opts and c.opts.complete
    if type(complete) == "function" and not rest:match("%s") then
      return complete(arglead, cmdline)
    end
    return {}
  end
  return require("quire.util").complete(M.names(), arglead)
end

-- define creates :Quire and every :Quire<Name>; defining them again
-- (setup() runs it too) replaces them with the same.
function M.define()
  vim.api.nvim_create_user_command("Quire", quire_command, {
    nargs = "*",
    range = true,
    bang = true,
    complete = quire_complete,
    desc = "quire: install, ask, chat, models, health, … (:Quire install downloads the server)",
  })
  for _, c in ipairs(M.list) do
    if c.alias ~= false then
      local opts = {}
      for k, v in pairs(c.opts or {}) do
        opts[k] = v
      end
      vim.api.nvim_create_user_command(M.alias(c.name), function(o)
        run_sub(c, o)
      end, opts)
    end
  end
end

return M
