-- Asking the advisor: resolving persona and question, sending quire/ask
-- on a work-done token of our own, and routing the progress of that token
-- into the chat.
local compat = require("quire.compat")
local util = require("quire.util")
local lsp = require("quire.lsp")
local chat = require("quire.chat")

local M = {}

-- token key -> chat entry of an ask in flight (and kept after, so late
-- progress of a finished ask is ignored quietly rather than misfiled).
M.asks = {}
-- client id -> list of {id, name, focus}
M.persona_cache = {}
-- root -> persona -> conversation id. A conversation belongs to one
-- persona, so each persona keeps its own thread per book.
M.conversations = {}
-- The persona used when none is named; set by :QuirePersona, by the first
-- pick, or by settings.persona.
M.persona = nil

local seq = 0
local uv = vim.uv or vim.loop

local notify = util.notify

local function get_client(id)
  return id and vim.lsp.get_client_by_id(id)
end

-- personas_now is the board of every running client, asked for and
-- waited on (briefly) where not cached yet: command-line completion
-- cannot wait for an answer.
function M.personas_now()
  local out = {}
  for _, client in ipairs(lsp.clients()) do
    local list = M.persona_cache[client.id]
    if not list then
      local res = compat.request_sync(client, "quire/personas", vim.empty_dict(), 2000)
      if res and not res.err and type(res.result) == "table" then
        list = res.result
        M.persona_cache[client.id] = list
      end
    end
    vim.list_extend(out, list or {})
  end
  return out
end

function M.personas(client, cb)
  local cached = M.persona_cache[client.id]
  if cached then
    return cb(cached)
  end
  compat.request(client, "quire/personas", vim.empty_dict(), function(err, result)
    if err or type(result) ~= "table" then
      return cb(nil, err and util.format_error(err) or "quire/personas returned nothing")
    end
    M.persona_cache[client.id] = result
    cb(result)
  end)
end

local function persona_name(client, id)
  for _, p in ipairs(M.persona_cache[client.id] or {}) do
    if p.id == id then
      return p.name
    end
  end
  return id
end

-- pick_persona asks the writer to choose a board member.
function M.pick_persona(client, cb)
  M.personas(client, function(list, err)
    if not list then
      return notify("cannot list personas: " .. err, vim.log.levels.ERROR)
    end
    vim.ui.select(list, {
      prompt = "Ask which board member?",
      format_item = function(p)
        return p.name .. " — " .. (p.focus or "")
      end,
    }, function(choice)
      if choice then
        M.persona = choice.id
        cb(choice.id)
      end
    end)
  end)
end

-- split_args takes a command's argument string apart into a persona (when
-- the first word names one) and the question.
function M.split_args(args, ids)
  args = vim.trim(args or "")
  local first, rest = args:match("^(%S+)%s*(.*)$")
  if first then
    for _, id in ipairs(ids) do
      if id == first then
        return first, rest ~= "" and rest or nil
      end
    end
  end
  return nil, args ~= "" and args or nil
end

-- The persona ids are the server's (quire/personas); the plugin keeps no
-- copy that could drift from the board the server ships.
local function ids_of(list)
  local ids = {}
  for _, p in ipairs(list or {}) do
    table.insert(ids, p.id)
  end
  return ids
end

local function where_text(bufnr, params)
  if not params.uri then
    return nil
  end
  local path = vim.uri_to_fname(params.uri)
  local root = lsp.root_of(bufnr)
  path = require("quire.util").relative(path, root) or path
  if params.range then
    local s, e = params.range.start.line + 1, params.range["end"].line + 1
    return string.format("selection in %s, line%s %d%s", path, s == e and "" or "s", s, s == e and "" or ("–" .. e))
  end
  return "in " .. path
end

local function root_key(client)
  return client.config.root_dir or ""
end

-- send runs one ask. params are quire/ask's: persona, message, uri, range
-- and so on; the token and the persona's conversation are added here.
function M.send(client_id, bufnr, params, opts)
  opts = opts or {}
  local client = get_client(client_id)
  if not client then
    return notify("the quire server is not running", vim.log.levels.ERROR)
  end
  params = vim.deepcopy(params)
  params.persona = params.persona or M.persona or require("quire").config.settings.persona
  local root = root_key(client)
  M.conversations[root] = M.conversations[root] or {}
  local convs = M.conversations[root]
  local persona_key = params.persona or ""
  if opts.new_conversation then
    convs[persona_key] = nil
  end
  if params.conversationId == nil then
    params.conversationId = convs[persona_key]
  end
  seq = seq + 1
  -- Unique across clients and restarts, so progress is never misrouted.
  local token = string.format("quire-nvim-%d-%d-%d", vim.fn.getpid(), seq, uv.hrtime() % 1000000)
  params.workDoneToken = token
  local key = lsp.token_key(token)
  local entry = chat.add({
    token = token,
    client_id = client.id,
    persona = params.persona,
    persona_name = params.persona and persona_name(client, params.persona) or "quire",
    -- An advisor action's ask carries the action's name: the writer chose
    -- "Line edit", not the page of instructions sent in its message.
    question = (type(params.action) == "string" and params.action ~= "") and params.action or params.message,
    where = bufnr and where_text(bufnr, params) or nil,
    range = params.range,
    state = "running",
  })
  M.asks[key] = entry
  if require("quire").config.chat.open_on_ask ~= false then
    chat.open(false)
  end
  if not M.persona_cache[client.id] then
    -- Show the persona's name rather than its id once the board is known.
    M.personas(client, function()
      if entry.persona then
        entry.persona_name = persona_name(client, entry.persona)
        chat.changed()
      end
    end)
  end
  local function done(err, result)
    M.finish(entry, err, result, root, persona_key)
    if opts.on_done then
      opts.on_done(entry, err, result)
    end
  end
  local function start(method, body, fallback)
    local ok, request_id = compat.request(client, method, body, function(err, result)
      -- A server without the custom method still has the command.
      if err and err.code == -32601 and fallback then
        return fallback()
      end
      done(err, result)
    end, bufnr)
    if not ok then
      entry.state = "failed"
      entry.error = "the request could not be sent (the server has stopped?)"
      chat.changed()
      return
    end
    entry.request_id = request_id
  end
  start("quire/ask", params, function()
    start("workspace/executeCommand", { command = "quire.ask", arguments = { params } })
  end)
  return entry
end

function M.finish(entry, err, result, root, persona_key)
  if err then
    if err.code == -32800 then
      entry.state = "cancelled"
    else
      entry.state = "failed"
      entry.error = util.format_error(err)
    end
    chat.changed()
    return
  end
  result = result or {}
  entry.state = "answered"
  entry.answer = result.answer or ""
  entry.evidence = result.evidence or {}
  entry.proposals = result.proposals or {}
  entry.warnings = result.warnings or {}
  if result.persona then
    entry.persona = result.persona
    local client = get_client(entry.client_id)
    if client then
      entry.persona_name = persona_name(client, result.persona)
    end
  end
  if result.conversationId then
    M.conversations[root] = M.conversations[root] or {}
    M.conversations[root][persona_key] = result.conversationId
    -- The server resolved the default persona; continue under its id too.
    if result.persona then
      M.conversations[root][result.persona] = result.conversationId
    end
  end
  chat.changed()
end

function M.on_progress(key, value)
  local entry = M.asks[key]
  if not entry or type(value) ~= "table" then
    return
  end
  if value.kind == "report" and value.message then
    entry.status = value.message
  elseif value.kind == "end" then
    entry.ended = value.message
    -- Neovim drops the reply of a request it cancelled, so the end of the
    -- progress is the only word that the ask stopped.
    if value.message == "cancelled" and entry.state ~= "answered" then
      entry.state = "cancelled"
    end
  end
  chat.changed()
end

function M.on_ask_progress(key, p)
  local entry = M.asks[key]
  if not entry then
    return
  end
  if type(p.row) == "table" then
    table.insert(entry.rows, p.row)
  end
  if type(p.delta) == "string" then
    -- Text of an earlier round was a preamble to tool calls; the answer is
    -- the text of the latest round, so a new round starts over.
    if p.round ~= nil and p.round ~= entry.delta_round then
      entry.delta = ""
      entry.delta_round = p.round
    end
    entry.delta = entry.delta .. p.delta
    entry.deltas = (entry.deltas or 0) + 1
  end
  chat.changed()
end

-- running lists the asks still in flight, newest last.
function M.running()
  local out = {}
  for _, e in ipairs(chat.entries) do
    if e.state == "running" or e.state == "cancelling" then
      table.insert(out, e)
    end
  end
  return out
end

-- cancel stops every ask in flight: $/cancelRequest for the request and
-- window/workDoneProgress/cancel for the token, since either alone is
-- enough for the server and neither costs anything.
function M.cancel()
  local list = M.running()
  if #list == 0 then
    notify("no ask is running")
    return 0
  end
  for _, e in ipairs(list) do
    local client = get_client(e.client_id)
    if client then
      if e.request_id then
        compat.cancel_request(client, e.request_id)
      end
      compat.notify(client, "window/workDoneProgress/cancel", { token = e.token })
    end
    e.state = "cancelling"
    local entry = e
    -- If the server never confirms, do not leave the chat saying
    -- "cancelling" forever.
    vim.defer_fn(function()
      if entry.state == "cancelling" then
        entry.state = "cancelled"
        table.insert(entry.notes, "the server did not confirm the cancel")
        chat.changed()
      end
    end, 10000)
  end
  chat.changed()
  return #list
end

-- resolve turns a command's arguments into persona and question, asking
-- for what is missing, then calls cb(client, persona, question).
local function resolve(client, args, need_persona, cb)
  M.personas(client, function(list)
    local persona, question = M.split_args(args, ids_of(list))
    local function with_persona(p)
      if question then
        return cb(p, question)
      end
      vim.ui.input({ prompt = "Ask " .. (p and persona_name(client, p) or "quire") .. ": " }, function(q)
        if q and vim.trim(q) ~= "" then
          cb(p, q)
        end
      end)
    end
    persona = persona or M.persona
    if persona or not need_persona then
      return with_persona(persona)
    end
    M.pick_persona(client, with_persona)
  end)
end

local function place(bufnr, cmd_opts)
  local params = {}
  local name = vim.api.nvim_buf_get_name(bufnr)
  if name ~= "" and vim.bo[bufnr].buftype == "" then
    params.uri = vim.uri_from_bufnr(bufnr)
    if cmd_opts and cmd_opts.range and cmd_opts.range > 0 then
      params.range = util.command_range(bufnr, cmd_opts.line1, cmd_opts.line2)
    end
  end
  return params
end

-- command is :QuireAsk. The range is read at once, before any prompt can
-- move the cursor or change the marks.
-- with_params reads the writer's place from the command, then the persona
-- and question (prompting for what the arguments leave out), and hands
-- the ask's params to fn.
local function with_params(cmd_opts, need_question, fn)
  local bufnr = vim.api.nvim_get_current_buf()
  local client, why = lsp.client_for(bufnr)
  if not client then
    return notify(why, vim.log.levels.ERROR)
  end
  local params = place(bufnr, cmd_opts)
  resolve(client, cmd_opts.args, need_question, function(persona, question)
    params.persona = persona
    params.message = question
    fn(client, bufnr, params)
  end)
end

function M.command(cmd_opts)
  with_params(cmd_opts, true, function(client, bufnr, params)
    M.send(client.id, bufnr, params, { new_conversation = cmd_opts.bang })
  end)
end

function M.peek_with(client_id, params)
  local client = get_client(client_id)
  if not client then
    return notify("the quire server is not running", vim.log.levels.ERROR)
  end
  params = vim.deepcopy(params)
  params.workDoneToken = nil
  local root = root_key(client)
  local persona = params.persona or M.persona
  params.persona = persona
  if params.conversationId == nil and M.conversations[root] then
    params.conversationId = M.conversations[root][persona or ""]
  end
  compat.request(client, "quire/peekPrompt", params, function(err, result)
    if err then
      return notify("peek failed: " .. util.format_error(err), vim.log.levels.ERROR)
    end
    M.show_scratch("quire://peek", "json", util.split_lines(util.pretty_json(result)))
  end)
end

function M.peek_command(cmd_opts)
  with_params(cmd_opts, false, function(client, _, params)
    M.peek_with(client.id, params)
  end)
end

-- show_scratch opens (or reuses) a named scratch buffer in a split.
function M.show_scratch(name, filetype, lines)
  local buf = vim.fn.bufnr(name)
  if buf == -1 or not vim.api.nvim_buf_is_valid(buf) then
    buf = vim.api.nvim_create_buf(false, true)
    vim.api.nvim_buf_set_name(buf, name)
    vim.bo[buf].buftype = "nofile"
    vim.bo[buf].bufhidden = "hide"
    vim.bo[buf].swapfile = false
    vim.api.nvim_buf_set_keymap(buf, "n", "q", "<cmd>close<CR>", { noremap = true, silent = true })
  end
  vim.bo[buf].modifiable = true
  vim.api.nvim_buf_set_lines(buf, 0, -1, false, lines)
  vim.bo[buf].modifiable = false
  vim.bo[buf].filetype = filetype
  local win = vim.fn.bufwinid(buf)
  if win == -1 then
    vim.cmd("botright split")
    vim.api.nvim_win_set_buf(0, buf)
  else
    vim.api.nvim_set_current_win(win)
  end
  return buf
end

function M.persona_command(cmd_opts)
  local client, why = lsp.client_for(0)
  if not client then
    return notify(why, vim.log.levels.ERROR)
  end
  local arg = vim.trim(cmd_opts.args or "")
  if arg ~= "" then
    M.persona = arg
    return notify("persona: " .. arg)
  end
  M.pick_persona(client, function(id)
    notify("persona: " .. persona_name(client, id))
  end)
end

return M
