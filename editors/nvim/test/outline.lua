-- The outline in a headless Neovim: run by outline_test.go against a
-- real quire server on the sample book, with a scripted model. The
-- chapter's document symbols are the chapter holding its scenes (what
-- :lua vim.lsp.buf.document_symbol() lists); the developmental editor is
-- asked for a scene's synopsis through the code action, and the writer
-- applies the proposal through another: the note lands in the buffer.
-- Then the scene's prose changes and quire says the synopsis is stale,
-- and the quick fix marks it current. Writes "ok <step>" lines and PASS
-- to $QUIRE_RESULT; the first failure writes "FAIL <step>: <why>".
local harness = dofile(vim.fn.fnamemodify(debug.getinfo(1, "S").source:sub(2), ":p:h") .. "/harness.lua")
harness.open(assert(os.getenv("QUIRE_RESULT"), "QUIRE_RESULT"))
local log, check = harness.log, harness.check

local step = "start"

local notified = {}
local notify = vim.notify
vim.notify = function(msg, level, opts)
  table.insert(notified, { msg = msg, level = level })
  return notify(msg, level, opts)
end

local function text(buf)
  return table.concat(vim.api.nvim_buf_get_lines(buf, 0, -1, false), "\n")
end

-- act runs the one code action at row of buf whose title starts with
-- prefix, as a writer picks it: through vim.lsp.buf.code_action on
-- Neovim 0.8 and newer; on 0.7, whose code_action takes no filter, the
-- action is asked for and run as that function would run it.
local function act(buf, row, prefix)
  vim.api.nvim_win_set_cursor(0, { row + 1, 0 })
  local titles = {}
  if vim.fn.has("nvim-0.8") == 1 then
    vim.lsp.buf.code_action({
      filter = function(a)
        table.insert(titles, a.title)
        return a.title:sub(1, #prefix) == prefix
      end,
      apply = true,
    })
    return titles
  end
  local params = vim.lsp.util.make_range_params()
  params.context = { diagnostics = vim.lsp.diagnostic.get_line_diagnostics(buf) }
  local res = vim.lsp.buf_request_sync(buf, "textDocument/codeAction", params, 5000)
  for id, r in pairs(res or {}) do
    for _, a in ipairs(r.result or {}) do
      table.insert(titles, a.title)
      if a.title:sub(1, #prefix) == prefix then
        local client = vim.lsp.get_client_by_id(id)
        if a.edit then
          vim.lsp.util.apply_workspace_edit(a.edit, client.offset_encoding)
        end
        local c = type(a.command) == "table" and a.command or a
        if c.command then
          local fn = client.commands[c.command] or vim.lsp.commands[c.command]
          if fn then
            fn(c, { client_id = id, bufnr = buf })
          else
            client.request("workspace/executeCommand", { command = c.command, arguments = c.arguments }, function() end, buf)
          end
        end
        return titles
      end
    end
  end
  return titles
end

local function diagnostic(buf, code)
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    if d.code == code then
      return d
    end
  end
end

local function main()
  local chapter = assert(os.getenv("QUIRE_CHAPTER"), "QUIRE_CHAPTER")

  step = "attach"
  local buf = harness.attach(chapter)
  log("ok " .. step)

  step = "symbols"
  local syms
  check(vim.wait(15000, function()
    local res = vim.lsp.buf_request_sync(buf, "textDocument/documentSymbol", { textDocument = { uri = vim.uri_from_bufnr(buf) } }, 3000)
    for _, r in pairs(res or {}) do
      if r.result and #r.result > 0 then
        syms = r.result
      end
    end
    return syms ~= nil
  end, 50), "no document symbols")
  check(#syms == 1 and syms[1].name == "Thirteen Strokes", "the outline's root: " .. vim.inspect(syms))
  check(syms[1].detail:find("Teo · day 1", 1, true), "the chapter's detail: " .. tostring(syms[1].detail))
  local scenes = syms[1].children or {}
  check(#scenes == 2 and scenes[1].name == "The Night Count" and scenes[2].name == "The Causeway at Dawn", "the scenes: " .. vim.inspect(scenes))
  check(scenes[2].detail:find("words", 1, true), "a scene's detail: " .. tostring(scenes[2].detail))
  -- What the writer sees: the list :lua vim.lsp.buf.document_symbol()
  -- opens, a location list (Neovim 0.8 on) or the quickfix list (0.7).
  local win = vim.api.nvim_get_current_win()
  vim.lsp.buf.document_symbol()
  local items
  check(vim.wait(10000, function()
    items = vim.fn.getloclist(win)
    if #items < 3 then
      items = vim.fn.getqflist()
    end
    return #items >= 3
  end, 50), "the list of symbols: " .. vim.inspect(vim.fn.getloclist(win)) .. vim.inspect(vim.fn.getqflist()))
  local listed = {}
  for _, it in ipairs(items) do
    table.insert(listed, it.text)
  end
  check(table.concat(listed, "|"):find("The Causeway at Dawn", 1, true), "the location list: " .. vim.inspect(listed))
  vim.cmd("lclose")
  vim.cmd("cclose")
  vim.api.nvim_set_current_win(win)
  vim.api.nvim_set_current_buf(buf)
  log("ok " .. step)

  step = "propose"
  local row = harness.find(buf, "## The Causeway at Dawn")
  check(row, "no scene heading")
  local n0 = #notified
  local titles = act(buf, row, "Ask the Developmental Editor for a synopsis of The Causeway at Dawn")
  check(vim.wait(20000, function()
    for i = n0 + 1, #notified do
      if notified[i].msg:find("proposes a synopsis", 1, true) then
        return true
      end
    end
    return false
  end, 50), "no proposal message; the actions were " .. vim.inspect(titles) .. "; messages " .. vim.inspect(notified))
  check(not text(buf):find("synopsis:", 1, true), "the synopsis was written before the writer applied it")
  log("ok " .. step)

  step = "apply"
  titles = act(buf, row, "Apply proposal: update the synopsis of The Causeway at Dawn")
  check(vim.wait(15000, function()
    return text(buf):find("synopsis: The causeway opens at dawn", 1, true) ~= nil
  end, 50), "the synopsis did not land in the buffer; actions " .. vim.inspect(titles) .. "\n" .. text(buf):sub(1, 2000))
  local srow = harness.find(buf, "synopsis: The causeway opens at dawn")
  check(srow == row + 3, "the note is not right after the heading: line " .. tostring(srow) .. ", heading " .. row)
  check(text(buf):find("synopsis%-hash: %x+"), "no hash kept beside the synopsis")
  log("ok " .. step)

  step = "stale"
  local prow = harness.find(buf, "Séverine Aubrac did not shout.")
  check(prow, "no prose line in the scene")
  local line = vim.api.nvim_buf_get_lines(buf, prow, prow + 1, false)[1]
  vim.api.nvim_buf_set_lines(buf, prow, prow + 1, false, { (line:gsub("did not shout", "never shouted", 1)) })
  local d
  check(vim.wait(15000, function()
    d = diagnostic(buf, "stale-synopsis")
    return d ~= nil
  end, 50), "no stale-synopsis diagnostic: " .. vim.inspect(vim.diagnostic.get(buf)))
  check(d.lnum == srow, "the stale note is on line " .. d.lnum .. ", the synopsis on " .. srow)
  check(d.message:find("written before the scene", 1, true), "the message: " .. d.message)
  log("ok " .. step)

  step = "current"
  titles = act(buf, row, "Mark the synopsis of The Causeway at Dawn")
  check(vim.wait(15000, function()
    return diagnostic(buf, "stale-synopsis") == nil
  end, 50), "the synopsis is still stale after the quick fix; actions " .. vim.inspect(titles))
  log("ok " .. step)
end

harness.run(main, function()
  return step
end)
