-- The chat: one scratch buffer with every ask of the session, shown in a
-- float or a split. The buffer is redrawn from the entries, so streamed
-- text, tool rows and the final answer can arrive in any order.
local util = require("quire.util")

local M = {}

M.entries = {}
M.buf = nil
M.win = nil
local pending = false

local function cfg()
  return require("quire").config.chat
end

local function ensure_buf()
  if M.buf and vim.api.nvim_buf_is_valid(M.buf) then
    return M.buf
  end
  local buf = vim.api.nvim_create_buf(false, true)
  vim.api.nvim_buf_set_name(buf, "quire://chat")
  vim.bo[buf].buftype = "nofile"
  vim.bo[buf].bufhidden = "hide"
  vim.bo[buf].swapfile = false
  vim.bo[buf].filetype = "markdown"
  vim.bo[buf].modifiable = false
  vim.api.nvim_buf_set_keymap(buf, "n", "q", "<cmd>lua require('quire.chat').close()<CR>", { noremap = true, silent = true })
  M.buf = buf
  return buf
end

function M.is_open()
  return M.win ~= nil and vim.api.nvim_win_is_valid(M.win)
end

-- open shows the chat; focus false keeps the cursor where the writer is,
-- which is what an ask wants: the answer arrives while they keep writing.
function M.open(focus)
  local buf = ensure_buf()
  if M.is_open() then
    if focus then
      vim.api.nvim_set_current_win(M.win)
    end
    return M.win
  end
  local c = cfg()
  local cur = vim.api.nvim_get_current_win()
  if c.layout == "split" then
    vim.cmd("botright vsplit")
    M.win = vim.api.nvim_get_current_win()
    vim.api.nvim_win_set_buf(M.win, buf)
    vim.api.nvim_win_set_width(M.win, c.width or 70)
    if not focus then
      vim.api.nvim_set_current_win(cur)
    end
  else
    local cols, lines = vim.o.columns, vim.o.lines
    local width = math.min(c.width or 80, math.max(20, math.floor(cols * 0.45)))
    local height = math.max(5, lines - 6)
    M.win = vim.api.nvim_open_win(buf, focus and true or false, {
      relative = "editor",
      row = 1,
      col = math.max(0, cols - width - 2),
      width = width,
      height = height,
      style = "minimal",
      border = c.border or "rounded",
    })
  end
  vim.wo[M.win].wrap = true
  vim.wo[M.win].linebreak = true
  M.render()
  return M.win
end

function M.close()
  if M.is_open() then
    -- The last window cannot be closed; leave the chat then.
    pcall(vim.api.nvim_win_close, M.win, false)
  end
  M.win = nil
end

function M.toggle()
  if M.is_open() then
    M.close()
  else
    M.open(true)
  end
end

local state_label = {
  running = "running",
  cancelling = "cancelling",
  cancelled = "cancelled",
  failed = "failed",
  answered = nil,
}

local function row_line(row)
  local status = row.ok and "ok" or (row.code and row.code ~= vim.NIL and row.code or "failed")
  local summary = row.summary and row.summary ~= "" and (" " .. row.summary) or ""
  return string.format("- `%s`%s — %s, %d ms", row.tool or "?", summary, status, tonumber(row.ms) or 0)
end

-- entry_lines is the Markdown of one ask, in reading order: who was asked
-- what, the tools the advisor used, the answer, and what it rests on.
function M.entry_lines(e, show_rows)
  local out = {}
  local label = state_label[e.state]
  table.insert(out, "## " .. (e.persona_name or e.persona or "quire") .. (label and (" (" .. label .. ")") or ""))
  table.insert(out, "")
  for _, l in ipairs(util.split_lines(e.question)) do
    table.insert(out, "> " .. l)
  end
  if e.where then
    table.insert(out, "")
    table.insert(out, "_" .. e.where .. "_")
  end
  table.insert(out, "")
  if show_rows and #e.rows > 0 then
    for _, r in ipairs(e.rows) do
      table.insert(out, row_line(r))
    end
    table.insert(out, "")
  end
  local body = e.answer or (e.delta ~= "" and e.delta) or nil
  if body then
    vim.list_extend(out, util.split_lines(body))
    table.insert(out, "")
  elseif e.state == "running" then
    table.insert(out, "_" .. ((e.status and e.status ~= "") and "working…" or "thinking…") .. "_")
    table.insert(out, "")
  end
  if e.error then
    table.insert(out, "**Error:** " .. e.error)
    table.insert(out, "")
  end
  if e.warnings and #e.warnings > 0 then
    for _, w in ipairs(e.warnings) do
      table.insert(out, "_warning: " .. w .. "_")
    end
    table.insert(out, "")
  end
  if e.evidence and #e.evidence > 0 then
    table.insert(out, "**Evidence**")
    local seen = {}
    for _, ev in ipairs(e.evidence) do
      local p = ev.path or ev.uri
      if p and not seen[p] then
        seen[p] = true
        table.insert(out, "- " .. p .. (ev.tool and (" (" .. ev.tool .. ")") or ""))
      end
    end
    table.insert(out, "")
  end
  if e.proposals and #e.proposals > 0 then
    table.insert(out, "**Proposals**")
    for _, id in ipairs(e.proposals) do
      table.insert(out, "- " .. id .. " — apply with `:QuireApply " .. id .. "`, review with `:QuireProposals`")
    end
    table.insert(out, "")
  end
  for _, n in ipairs(e.notes or {}) do
    table.insert(out, "_" .. n .. "_")
  end
  if e.notes and #e.notes > 0 then
    table.insert(out, "")
  end
  return out
end

function M.lines()
  local c = cfg()
  local out = {}
  for i, e in ipairs(M.entries) do
    if i > 1 then
      table.insert(out, "---")
      table.insert(out, "")
    end
    vim.list_extend(out, M.entry_lines(e, c.show_tool_rows ~= false))
  end
  return out
end

function M.render()
  pending = false
  local buf = ensure_buf()
  local lines = M.lines()
  vim.bo[buf].modifiable = true
  vim.api.nvim_buf_set_lines(buf, 0, -1, false, lines)
  vim.bo[buf].modifiable = false
  -- Follow the newest text unless the writer is reading in the chat.
  if M.is_open() and vim.api.nvim_get_current_win() ~= M.win then
    pcall(vim.api.nvim_win_set_cursor, M.win, { math.max(1, #lines), 0 })
  end
end

-- changed coalesces redraws: streamed deltas can arrive by the hundred in
-- one loop iteration.
function M.changed()
  if pending then
    return
  end
  pending = true
  vim.schedule(M.render)
end

function M.add(entry)
  entry.rows = entry.rows or {}
  entry.delta = entry.delta or ""
  entry.notes = entry.notes or {}
  table.insert(M.entries, entry)
  M.changed()
  return entry
end

-- note adds a line under the newest ask that produced proposal id, or
-- under the last ask, so apply results stay next to what they apply.
function M.note(text, proposal_id)
  local target
  for i = #M.entries, 1, -1 do
    local e = M.entries[i]
    if proposal_id and e.proposals and vim.tbl_contains(e.proposals, proposal_id) then
      target = e
      break
    end
  end
  target = target or M.entries[#M.entries]
  if not target then
    return
  end
  table.insert(target.notes, text)
  M.changed()
end

function M.clear()
  M.entries = {}
  M.changed()
end

return M
