-- Proposals: codex changes the advisor suggested. Listing shows what
-- applying would change; applying goes through the server, which sends a
-- versioned workspace/applyEdit that Neovim's own handler applies to the
-- buffers (nothing is written to disk until the writer saves).
local compat = require("quire.compat")
local util = require("quire.util")
local lsp = require("quire.lsp")
local chat = require("quire.chat")

local M = {}

local notify = util.notify

function M.fetch(client, cb)
  local params = vim.empty_dict()
  compat.request(client, "quire/proposals", params, function(err, result)
    if err then
      return cb(nil, util.format_error(err))
    end
    cb((result or {}).proposals or {})
  end)
end

-- pending drops applied proposals when the server says which they are
-- (older servers send no status: then all are offered).
local function pending(list)
  local out = {}
  for _, p in ipairs(list) do
    if p.status == nil or p.status == "pending" then
      table.insert(out, p)
    end
  end
  return out
end

local function has_diff(p)
  return type(p.diff) == "string" and p.diff ~= ""
end

-- lines renders the list. When any proposal has a diff the buffer gets
-- filetype diff, so headers and summaries start with "#", which diff
-- highlighting leaves plain and which no hunk line starts with.
function M.lines(list)
  local out, ids = {}, {}
  local any_diff = false
  for _, p in ipairs(list) do
    any_diff = any_diff or has_diff(p)
  end
  if #list == 0 then
    return { "# No proposals yet. Ask an advisor; proposals it makes are listed here." }, ids, any_diff
  end
  for _, p in ipairs(list) do
    local status = p.status and (" [" .. p.status .. "]") or ""
    table.insert(out, string.format("# %s  %s %s  (%s)%s", p.id, p.kind or "?", p.name or "?", p.path or "?", status))
    ids[#out] = p.id
    for _, l in ipairs(util.split_lines(p.changeSummary)) do
      table.insert(out, "# " .. l)
    end
    for _, w in ipairs(p.warnings or {}) do
      table.insert(out, "# warning: " .. w)
    end
    if has_diff(p) then
      for _, l in ipairs(util.split_lines(p.diff)) do
        table.insert(out, l)
      end
    else
      -- Without a diff, show the proposed Markdown itself.
      table.insert(out, "#")
      for _, l in ipairs(util.split_lines(p.markdown)) do
        table.insert(out, (any_diff and "# " or "") .. l)
      end
      if p.soulMarkdown and p.soulPath then
        table.insert(out, "#")
        table.insert(out, "# " .. p.soulPath .. ":")
        for _, l in ipairs(util.split_lines(p.soulMarkdown)) do
          table.insert(out, (any_diff and "# " or "") .. l)
        end
      end
    end
    table.insert(out, "")
  end
  return out, ids, any_diff
end

function M.id_under_cursor(buf)
  local ids = vim.b[buf].quire_proposal_ids or {}
  local row = vim.api.nvim_win_get_cursor(0)[1]
  for r = row, 1, -1 do
    local id = ids[tostring(r)]
    if id then
      return id
    end
  end
  return nil
end

local list_name = "quire://proposals"

-- fill writes list into the proposals buffer buf, with the ids by row for
-- `a` and `d`; with a diff in any proposal the buffer is a diff.
local function fill(buf, client, list)
  local lines, ids, any_diff = M.lines(list)
  vim.bo[buf].modifiable = true
  vim.api.nvim_buf_set_lines(buf, 0, -1, false, lines)
  vim.bo[buf].modifiable = false
  vim.bo[buf].filetype = any_diff and "diff" or "markdown"
  -- String keys: a Lua table with holes would not survive the trip
  -- through a buffer variable.
  local byrow = {}
  for r, id in pairs(ids) do
    byrow[tostring(r)] = id
  end
  vim.b[buf].quire_proposal_ids = byrow
  vim.b[buf].quire_client_id = client.id
end

function M.list_command()
  local client, why = lsp.client_for(0)
  if not client then
    return notify(why, vim.log.levels.ERROR)
  end
  M.fetch(client, function(list, err)
    if not list then
      return notify("cannot list proposals: " .. err, vim.log.levels.ERROR)
    end
    local buf = require("quire.ask").show_scratch(list_name, "markdown", {})
    fill(buf, client, list)
    vim.api.nvim_buf_set_keymap(buf, "n", "a", "<cmd>lua require('quire.proposals').apply_under_cursor()<CR>", { noremap = true, silent = true })
    vim.api.nvim_buf_set_keymap(buf, "n", "d", "<cmd>lua require('quire.proposals').discard_under_cursor()<CR>", { noremap = true, silent = true })
    vim.api.nvim_buf_set_keymap(buf, "n", "r", "<cmd>QuireProposals<CR>", { noremap = true, silent = true })
  end)
end

-- refresh redraws the proposals list, when there is one, after an apply
-- or a discard, so it shows [applied] without `r`. It stays where it is:
-- no window opens or takes the cursor.
function M.refresh(client)
  local buf = vim.fn.bufnr(list_name)
  if buf == -1 or not vim.api.nvim_buf_is_loaded(buf) then
    return
  end
  M.fetch(client, function(list)
    if list and vim.api.nvim_buf_is_valid(buf) then
      fill(buf, client, list)
    end
  end)
end

-- on_cursor runs action(client, id) on the proposal under the cursor of
-- the proposals buffer.
local function on_cursor(action)
  local buf = vim.api.nvim_get_current_buf()
  local id = M.id_under_cursor(buf)
  if not id then
    return notify("no proposal under the cursor", vim.log.levels.WARN)
  end
  local client = vim.lsp.get_client_by_id(vim.b[buf].quire_client_id or -1) or lsp.client_for(0)
  if not client then
    return notify("the quire server is not running", vim.log.levels.ERROR)
  end
  action(client, id)
end

function M.apply_under_cursor()
  on_cursor(M.apply)
end

function M.discard_under_cursor()
  on_cursor(M.discard)
end

-- told is the server's own wording of an outcome, or fallback from an
-- older server that sends none.
local function told(result, fallback)
  local m = result and result.message
  if type(m) == "string" and m ~= "" then
    return m
  end
  return fallback
end

-- outcome reports what became of proposal id: a line in the chat, next to
-- the ask that made it, and a message. The server answers the plugin's
-- requests without a message of its own (it sends those to editors that
-- apply through its code actions), and its wording names the files.
local function outcome(id, note, msg, level)
  chat.note(note, id)
  notify(msg, level)
end

-- apply asks the server to apply proposal id; cb(result, err) gets the
-- outcome after the writer has been told.
function M.apply(client, id, cb)
  compat.request(client, "quire/applyProposal", { id = id }, function(err, result)
    if err then
      local why = util.format_error(err)
      outcome(id, why, why, vim.log.levels.WARN)
    elseif result and result.applied then
      outcome(id, "applied", told(result, "Applied the proposal: review the changed buffers and save them."))
    else
      local reason = result and result.failureReason
      reason = reason and reason ~= vim.NIL and (": " .. tostring(reason)) or ""
      outcome(id, "refused by the editor" .. reason,
        told(result, "The editor did not apply the proposal" .. reason .. "."), vim.log.levels.WARN)
    end
    M.refresh(client)
    if cb then
      cb(result, err)
    end
  end)
end

-- discard asks the server to drop proposal id; cb(result, err) as apply.
function M.discard(client, id, cb)
  compat.request(client, "quire/discardProposal", { id = id }, function(err, result)
    if err then
      local why = util.format_error(err)
      outcome(id, "not discarded: " .. why, "The proposal was not discarded: " .. why, vim.log.levels.WARN)
    else
      outcome(id, "discarded", "Discarded the proposal.")
    end
    M.refresh(client)
    if cb then
      cb(result, err)
    end
  end)
end

-- choose runs action on the proposal named in the command, or on one the
-- writer picks from the pending ones.
local function choose(cmd_opts, verb, action)
  local client, why = lsp.client_for(0)
  if not client then
    return notify(why, vim.log.levels.ERROR)
  end
  local id = vim.trim(cmd_opts.args or "")
  if id ~= "" then
    return action(client, id)
  end
  M.fetch(client, function(list, err)
    if not list then
      return notify("cannot list proposals: " .. err, vim.log.levels.ERROR)
    end
    list = pending(list)
    if #list == 0 then
      return notify("no pending proposals")
    end
    vim.ui.select(list, {
      prompt = verb .. " which proposal?",
      format_item = function(p)
        return string.format("%s  %s %s — %s", p.id, p.kind or "", p.name or "", (p.changeSummary or ""):gsub("\n", " "))
      end,
    }, function(choice)
      if choice then
        action(client, choice.id)
      end
    end)
  end)
end

function M.apply_command(cmd_opts)
  choose(cmd_opts, "Apply", M.apply)
end

function M.discard_command(cmd_opts)
  choose(cmd_opts, "Discard", M.discard)
end


-- complete offers the ids the chat has seen, newest first, so :QuireApply
-- <Tab> works without a round trip.
function M.complete(arglead)
  local out, seen = {}, {}
  for i = #chat.entries, 1, -1 do
    for _, id in ipairs(chat.entries[i].proposals or {}) do
      if not seen[id] and id:sub(1, #arglead) == arglead then
        seen[id] = true
        table.insert(out, id)
      end
    end
  end
  return out
end

return M
