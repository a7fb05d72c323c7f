-- Advisor actions: the server's named asks (quire/actions). :QuireAction
-- runs one through the code action the server offers for it, so the ask
-- goes through the same client-side quire.ask command as any code action
-- and shows in the chat.
local compat = require("quire.compat")
local util = require("quire.util")
local lsp = require("quire.lsp")

local M = {}

-- The last quire/actions result, for completion.
M.last = nil

local notify = util.notify

-- fetch asks the server for the book's actions; cb(list) or cb(nil, why).
function M.fetch(client, bufnr, cb)
  local params = vim.empty_dict()
  if bufnr and vim.api.nvim_buf_get_name(bufnr) ~= "" then
    params = { uri = vim.uri_from_bufnr(bufnr) }
  end
  local ok = compat.request(client, "quire/actions", params, function(err, result)
    if err then
      return cb(nil, util.format_error(err))
    end
    if type(result) ~= "table" then
      return cb(nil, "quire/actions returned nothing")
    end
    M.last = result
    cb(result)
  end, bufnr)
  if not ok then
    cb(nil, "the request could not be sent (the server has stopped?)")
  end
end

-- applies says whether action a fits where the writer is: selection
-- actions with a selection, file and book actions without one.
function M.applies(a, has_range)
  return (a.scope == "selection") == (has_range and true or false)
end

function M.find(list, id)
  id = vim.trim(id or ""):lower()
  for _, a in ipairs(list or {}) do
    if type(a.id) == "string" and a.id:lower() == id then
      return a
    end
  end
  return nil
end

-- cursor_range is an empty LSP range at the cursor of the current window,
-- which shows bufnr.
local function cursor_range(bufnr)
  local pos = vim.api.nvim_win_get_cursor(0)
  local line = vim.api.nvim_buf_get_lines(bufnr, pos[1] - 1, pos[1], false)[1] or ""
  local p = { line = pos[1] - 1, character = util.utf16_col(line, pos[2]) }
  return { start = p, ["end"] = vim.deepcopy(p) }
end

local function scope_text(scope)
  if scope == "selection" then
    return "a selection"
  elseif scope == "file" then
    return "the chapter"
  end
  return "the whole book"
end

-- why_not explains why the server offered no code action for a.
local function why_not(a, has_range)
  local label = a.label or a.id
  if a.scope == "selection" and not has_range then
    return string.format('"%s" works on a selection: select text and run :\'<,\'>QuireAction %s', label, a.id)
  end
  if a.scope ~= "selection" and has_range then
    return string.format('"%s" works on %s, not a selection: run :QuireAction %s without a range', label, scope_text(a.scope), a.id)
  end
  if a.scope ~= "selection" then
    return string.format('the server did not offer "%s" here (actions on the chapter or the book run from a chapter of the manuscript)', label)
  end
  return string.format('the server did not offer "%s" for this selection', label)
end

-- run requests the code actions at range and runs the one titled with a's
-- label, as Neovim runs a code action's command: the client-side handler
-- when there is one (quire.ask goes to the chat), else on the server.
function M.run(client, bufnr, a, range, has_range)
  local params = {
    textDocument = { uri = vim.uri_from_bufnr(bufnr) },
    range = range,
    context = { diagnostics = {} },
  }
  local ok = compat.request(client, "textDocument/codeAction", params, function(err, result)
    if err then
      return notify("code actions failed: " .. util.format_error(err), vim.log.levels.ERROR)
    end
    local cmd
    for _, ca in ipairs(result or {}) do
      if ca.title == a.label then
        -- A CodeAction carries a Command; a bare Command is one.
        cmd = type(ca.command) == "table" and ca.command or (type(ca.command) == "string" and ca or nil)
        if cmd then
          break
        end
      end
    end
    if not cmd then
      return notify(why_not(a, has_range), vim.log.levels.WARN)
    end
    local ctx = { client_id = client.id, bufnr = bufnr, method = "workspace/executeCommand" }
    local fn = (client.commands or {})[cmd.command] or lsp.commands[cmd.command] or (vim.lsp.commands or {})[cmd.command]
    if fn then
      return fn(cmd, ctx)
    end
    compat.request(client, "workspace/executeCommand", { command = cmd.command, arguments = cmd.arguments }, function(e)
      if e then
        notify(a.label .. " failed: " .. util.format_error(e), vim.log.levels.ERROR)
      end
    end, bufnr)
  end, bufnr)
  if not ok then
    notify("the request could not be sent (the server has stopped?)", vim.log.levels.ERROR)
  end
end

-- command is :[range]QuireAction [id]. The place is read at once, before
-- a prompt can move the cursor or change the marks.
function M.command(cmd_opts)
  local bufnr = vim.api.nvim_get_current_buf()
  local client, why = lsp.client_for(bufnr)
  if not client then
    return notify(why, vim.log.levels.ERROR)
  end
  if vim.api.nvim_buf_get_name(bufnr) == "" or vim.bo[bufnr].buftype ~= "" then
    return notify("advisor actions run on a file of the book: open a chapter", vim.log.levels.ERROR)
  end
  local has_range = cmd_opts.range ~= nil and cmd_opts.range > 0
  local range = has_range and util.command_range(bufnr, cmd_opts.line1, cmd_opts.line2) or cursor_range(bufnr)
  local id = vim.trim(cmd_opts.args or "")
  M.fetch(client, bufnr, function(list, err)
    if not list then
      return notify("cannot list advisor actions: " .. err, vim.log.levels.ERROR)
    end
    if id ~= "" then
      local a = M.find(list, id)
      if not a then
        local ids = {}
        for _, x in ipairs(list) do
          table.insert(ids, x.id)
        end
        return notify(string.format('no advisor action "%s" in this book (there are: %s)', id, table.concat(ids, ", ")),
          vim.log.levels.ERROR)
      end
      return M.run(client, bufnr, a, range, has_range)
    end
    local fit = {}
    for _, a in ipairs(list) do
      if M.applies(a, has_range) then
        table.insert(fit, a)
      end
    end
    if #fit == 0 then
      return notify(has_range and "no advisor action works on a selection"
        or "no advisor action works on the chapter or the book: select text for the selection actions", vim.log.levels.WARN)
    end
    vim.ui.select(fit, {
      prompt = has_range and "Run which action on the selection?" or "Run which action?",
      format_item = function(a)
        local usage = type(a.usage) == "string" and a.usage ~= "" and (" — " .. a.usage) or ""
        return (a.label or a.id) .. usage
      end,
    }, function(choice)
      if choice then
        M.run(client, bufnr, choice, range, has_range)
      end
    end)
  end)
end

-- complete gives the ids of the last quire/actions result; before the
-- server has listed any, it asks and waits briefly, since command-line
-- completion cannot wait for an answer. The ids are the server's: the
-- plugin keeps no copy of the core actions.
function M.complete(arglead)
  if not (M.last and #M.last > 0) then
    local client = lsp.client_for(0)
    if client then
      local params = vim.empty_dict()
      if vim.api.nvim_buf_get_name(0) ~= "" then
        params = { uri = vim.uri_from_bufnr(0) }
      end
      local res = compat.request_sync(client, "quire/actions", params, 2000, 0)
      if res and not res.err and type(res.result) == "table" then
        M.last = res.result
      end
    end
  end
  local ids = {}
  for _, a in ipairs(M.last or {}) do
    if type(a.id) == "string" then
      table.insert(ids, a.id)
    end
  end
  return util.complete(ids, arglead)
end

return M
