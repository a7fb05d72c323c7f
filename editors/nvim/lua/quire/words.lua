-- Word counts in Neovim: the line require("quire").status() gives a
-- statusline, :Quire stats, and the code lens above a chapter's title.
-- Every figure is the server's (quire/stats), counted by quire's one
-- rule, so it is the one `quire stats` and every other editor shows.
local compat = require("quire.compat")
local util = require("quire.util")

local M = {
  -- by_buf is the last quire/stats answer for each buffer.
  by_buf = {},
  -- gen counts each buffer's scheduled refreshes: only the last runs.
  gen = {},
  -- delay lets typing settle before the counts are asked again (ms).
  delay = 400,
}

local function params_of(bufnr)
  if vim.api.nvim_buf_get_name(bufnr) ~= "" then
    return { uri = vim.uri_from_bufnr(bufnr) }
  end
  return vim.empty_dict()
end

-- request asks the server of bufnr's book for its counts; cb(err, result).
local function request(bufnr, cb)
  local client, why = require("quire.lsp").client_for(bufnr)
  if not client then
    cb(why)
    return
  end
  compat.request(client, "quire/stats", params_of(bufnr), function(err, result)
    cb(err, result)
  end, bufnr)
end

local function fire()
  pcall(vim.cmd, "redrawstatus")
  -- Firing a User event nobody listens to prints "No matching
  -- autocommands" on some versions.
  if vim.fn.exists("#User#QuireWords") == 1 then
    pcall(vim.api.nvim_exec_autocmds, "User", { pattern = "QuireWords", modeline = false })
  end
end

-- refresh asks the counts of bufnr now; cb(result), when given, gets them.
function M.refresh(bufnr, cb)
  request(bufnr, function(err, result)
    if err or type(result) ~= "table" then
      return
    end
    M.by_buf[bufnr] = result
    fire()
    if cb then
      cb(result)
    end
  end)
end

-- schedule refreshes bufnr's counts once the writer pauses.
function M.schedule(bufnr)
  M.gen[bufnr] = (M.gen[bufnr] or 0) + 1
  local gen = M.gen[bufnr]
  vim.defer_fn(function()
    if M.gen[bufnr] == gen and vim.api.nvim_buf_is_valid(bufnr) then
      M.refresh(bufnr)
    end
  end, M.delay)
end

-- refresh_lenses asks for the code lenses of bufnr again: Neovim shows
-- them only when asked (0.12 keeps them fresh once enabled).
function M.refresh_lenses(bufnr)
  local cl = vim.lsp.codelens
  if not cl or not vim.api.nvim_buf_is_valid(bufnr) then
    return
  end
  if cl.enable then
    pcall(cl.enable, true, { bufnr = bufnr })
    return
  end
  vim.api.nvim_buf_call(bufnr, function()
    pcall(cl.refresh)
  end)
end

-- attach follows bufnr's edits with its counts and lenses; the client's
-- on_attach calls it.
function M.attach(client, bufnr)
  local caps = client.server_capabilities or client.resolved_capabilities or {}
  local group = vim.api.nvim_create_augroup("quire_words_" .. bufnr, { clear = true })
  vim.api.nvim_create_autocmd({ "TextChanged", "TextChangedI", "InsertLeave", "BufWritePost", "BufEnter" }, {
    group = group,
    buffer = bufnr,
    callback = function()
      M.schedule(bufnr)
    end,
  })
  if caps.codeLensProvider or caps.code_lens then
    vim.api.nvim_create_autocmd({ "BufEnter", "InsertLeave", "BufWritePost", "CursorHold" }, {
      group = group,
      buffer = bufnr,
      callback = function()
        M.refresh_lenses(bufnr)
      end,
    })
    M.refresh_lenses(bufnr)
  end
  vim.api.nvim_create_autocmd("BufWipeout", {
    group = group,
    buffer = bufnr,
    callback = function()
      M.by_buf[bufnr], M.gen[bufnr] = nil, nil
    end,
  })
  M.schedule(bufnr)
end

-- status is the statusline's line for bufnr, nil before the first count.
function M.status(bufnr)
  local s = M.by_buf[bufnr]
  return s and s.status or nil
end

local function pad(s, width, right)
  local gap = string.rep(" ", math.max(0, width - vim.fn.strdisplaywidth(s)))
  if right then
    return gap .. s
  end
  return s .. gap
end

local thousands = util.thousands

-- lines lays a quire/stats answer out as text: the summary, each chapter
-- against its target, and the last 30 days.
function M.lines(st)
  local out = util.split_lines(st.message or "")
  table.insert(out, "")
  local title_w = #"CHAPTER"
  for _, c in ipairs(st.chapters or {}) do
    title_w = math.min(40, math.max(title_w, vim.fn.strdisplaywidth(c.title or "")))
  end
  table.insert(out, table.concat({ pad("#", 3, true), pad("CHAPTER", title_w), pad("WORDS", 8, true), "TARGET" }, "  "))
  for _, c in ipairs(st.chapters or {}) do
    local target = ""
    if (c.target or 0) > 0 then
      target = thousands(c.target) .. ((c.words or 0) >= c.target and " ✓" or "")
    end
    local title = c.title or c.path
    if vim.fn.strdisplaywidth(title) > title_w then
      title = vim.fn.strcharpart(title, 0, title_w - 1) .. "…"
    end
    table.insert(out, (table.concat({ pad(tostring(c.position or ""), 3, true), pad(title, title_w),
      pad(thousands(c.words or 0), 8, true), target }, "  "):gsub("%s+$", "")))
  end
  if #(st.days or {}) > 0 then
    table.insert(out, "")
    table.insert(out, "Last 30 days (words added, net change, book at day's end):")
    for _, d in ipairs(st.days) do
      table.insert(out, string.format("  %s  %8s  %8s  %8s", d.date, "+" .. thousands(d.gross or 0),
        ((d.net or 0) >= 0 and "+" or "") .. thousands(d.net or 0), thousands(d.last or 0)))
    end
  end
  return out
end

-- command is :Quire stats: the counts and goals in a float.
function M.command()
  local bufnr = vim.api.nvim_get_current_buf()
  request(bufnr, function(err, result)
    if err or type(result) ~= "table" then
      util.notify("word counts failed: " .. (type(err) == "string" and err or util.format_error(err)), vim.log.levels.ERROR)
      return
    end
    M.by_buf[bufnr] = result
    M.last = result
    fire()
    require("quire.map").show_table(M.lines(result))
  end)
end

return M
