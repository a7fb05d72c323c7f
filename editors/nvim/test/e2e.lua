-- End-to-end test, run by nvim_test.go inside a headless Neovim against a
-- real quire server and a scripted model. Every step writes "ok <step>" to
-- $QUIRE_RESULT; the first failure writes "FAIL <step>: <why>" and exits
-- non-zero. Waits are bounded so a hang is a failure, never a stuck test.
local env = function(name)
  local v = os.getenv(name)
  if not v or v == "" then
    error("environment variable " .. name .. " is not set")
  end
  return v
end

-- Without its environment the script cannot even report; leave at once
-- instead of idling until the Go test's timeout.
for _, name in ipairs({ "QUIRE_RESULT", "QUIRE_BOOK", "QUIRE_PLUGIN", "QUIRE_OUTSIDE", "QUIRE_BIN", "QUIRE_HANG_URL", "QUIRE_HANG_FLAG" }) do
  if not os.getenv(name) or os.getenv(name) == "" then
    io.stderr:write("e2e.lua: " .. name .. " is not set\n")
    vim.cmd("cq")
  end
end

local harness = dofile(vim.fn.fnamemodify(debug.getinfo(1, "S").source:sub(2), ":p:h") .. "/harness.lua")
harness.open(env("QUIRE_RESULT"))
local log, check = harness.log, harness.check

local step = "start"
local uv = vim.uv or vim.loop
local t0 = uv.hrtime()
local function ok(name)
  log("ok " .. name)
  log(string.format("time %s %d ms", name, (uv.hrtime() - t0) / 1e6))
end
local function wait(ms, cond, what)
  check(vim.wait(ms, cond, 20), "timed out after " .. ms .. " ms waiting for " .. what)
end
local function buf_text(buf)
  return table.concat(vim.api.nvim_buf_get_lines(buf, 0, -1, false), "\n")
end

local book = env("QUIRE_BOOK")
local plugin = env("QUIRE_PLUGIN")
local outside = env("QUIRE_OUTSIDE")

-- Notifications are collected rather than shown: they are part of what is
-- checked, and an error message shown headless stalls the next redraw.
local notified = {}
vim.notify = function(msg, level)
  table.insert(notified, { msg = msg, level = level })
  log("notify " .. tostring(level) .. " " .. msg:gsub("\n", " "))
end
-- notes_since lists the notifications after the first n, as "level msg".
local function notes_since(n)
  local out = {}
  for i = n + 1, #notified do
    table.insert(out, notified[i])
  end
  return out
end
local function was_notified(pat)
  for _, n in ipairs(notified) do
    if n.msg:find(pat, 1, true) then
      return true
    end
  end
  return false
end

local function main()
  local v = vim.version()
  log(string.format("nvim %d.%d.%d", v.major, v.minor, v.patch))
  local quire = require("quire")
  local util = require("quire.util")
  local chat = require("quire.chat")
  local ask = require("quire.ask")
  local compat = require("quire.compat")

  ---------------------------------------------------------------- units
  step = "utf16"
  check(util.utf16_col("abc", 2) == 2, "ascii")
  check(util.utf16_col("“Sorry", 3) == 1, "curly quote is one UTF-16 unit")
  check(util.utf16_col("—x", 4) == 2, "em dash is one UTF-16 unit")
  check(util.utf16_col("a😀b", 5) == 3, "emoji is two UTF-16 units")
  check(util.byte_col("a😀b", 3) == 5, "byte_col inverts utf16_col")
  if not compat.has("0.11") then
    -- Cross-check with Neovim's own counter on real prose, at every
    -- character boundary.
    for _, line in ipairs(vim.fn.readfile(book .. "/manuscript/01-thirteen-strokes.md")) do
      local i = 0
      while i <= #line do
        local _, u16 = vim.str_utfindex(line, i)
        check(util.utf16_col(line, i) == u16, string.format("utf16_col(%q, %d) = %d, str_utfindex says %d", line, i, util.utf16_col(line, i), u16))
        i = util.char_end(line, i)
        if i == #line then
          local _, last = vim.str_utfindex(line, i)
          check(util.utf16_col(line, i) == last, "end of line")
          break
        end
      end
    end
  end
  ok(step)

  step = "visual-range"
  local scratch = vim.api.nvim_create_buf(true, true)
  vim.api.nvim_set_current_buf(scratch)
  vim.api.nvim_buf_set_lines(scratch, 0, -1, false, { "a😀 “bc” — de", "second line" })
  -- Select "bc" (bytes 10..11 after a, emoji, space and the opening quote).
  local line = "a😀 “bc” — de"
  local b = line:find("bc", 1, true) - 1
  vim.api.nvim_win_set_cursor(0, { 1, b })
  vim.cmd("normal! vl\27")
  local r = util.command_range(scratch, 1, 1)
  check(r.start.line == 0 and r.start.character == 5, "start " .. vim.inspect(r.start))
  check(r["end"].line == 0 and r["end"].character == 7, "end " .. vim.inspect(r["end"]))
  -- Selecting the closing quote itself must reach past it, not into it.
  vim.api.nvim_win_set_cursor(0, { 1, b })
  vim.cmd("normal! v2l\27")
  r = util.command_range(scratch, 1, 1)
  check(r["end"].character == 8, "end after closing quote " .. vim.inspect(r["end"]))
  vim.cmd("normal! ggVj\27")
  r = util.command_range(scratch, 1, 2)
  check(r.start.character == 0 and r["end"].line == 1 and r["end"].character == 11, "linewise " .. vim.inspect(r))
  -- A plain line range (no matching visual marks) takes whole lines.
  r = util.command_range(scratch, 1, 1)
  check(r["end"].line == 0 and r["end"].character == 13, "line range " .. vim.inspect(r))
  ok(step)

  step = "root-detection"
  local idx = book .. "/codex/characters/teodora-quill/index.md"
  check(util.find_root(idx, { "quire.yaml", "codex", "manuscript" }) == book, "root of " .. idx .. " is " .. tostring(util.find_root(idx, { "quire.yaml", "codex", "manuscript" })))
  check(util.find_root(book .. "/manuscript/01-thirteen-strokes.md", { "codex", "manuscript" }) == book, "root by folders")
  check(util.find_root(outside .. "/note.md", { "quire.yaml", "codex", "manuscript" }) == nil, "a file outside a book has no root")
  ok(step)

  step = "chat-render"
  quire.config.chat.show_tool_rows = true
  local lines = chat.entry_lines({
    persona_name = "Continuity Editor",
    question = "Is it consistent?",
    state = "running",
    delta = "Half an ans",
    rows = {
      { tool = "get_character_context", summary = "Teodora Quill", ok = true, ms = 12 },
      { tool = "search_codex", summary = "eyes", ok = false, code = "E_NOT_FOUND", ms = 3 },
    },
    notes = {},
  }, true)
  local text = table.concat(lines, "\n")
  check(text:find("## Continuity Editor (running)", 1, true), "header: " .. text)
  check(text:find("- `get_character_context` Teodora Quill — ok, 12 ms", 1, true), "ok row: " .. text)
  check(text:find("- `search_codex` eyes — E_NOT_FOUND, 3 ms", 1, true), "failed row: " .. text)
  check(text:find("Half an ans", 1, true), "streamed text: " .. text)
  lines = chat.entry_lines({ persona_name = "X", question = "q", state = "failed", rows = { { tool = "t", ok = true, ms = 1 } }, delta = "", notes = {},
    error = util.format_error({ code = -32600, message = "no provider" }) }, false)
  text = table.concat(lines, "\n")
  check(text:find("**Error:** no provider", 1, true) and not text:find("-32600", 1, true), "error: " .. text)
  check(not text:find("`t`", 1, true), "rows hidden when show_tool_rows is false")
  check(util.pretty_json({ a = { 1, 2 }, b = "x" }) == '{\n  "a": [\n    1,\n    2\n  ],\n  "b": "x"\n}', "pretty_json: " .. util.pretty_json({ a = { 1, 2 }, b = "x" }))
  -- Streamed deltas and rows of our own token go to the entry, in order;
  -- those of another token are ignored.
  local lspm = require("quire.lsp")
  quire.config.chat.open_on_ask = false
  local fake = chat.add({ token = "t-unit", persona_name = "Unit", question = "q", state = "running" })
  ask.asks[lspm.token_key("t-unit")] = fake
  ask.on_ask_progress(lspm.token_key("t-unit"), { token = "t-unit", delta = "Hel", round = 1 })
  ask.on_ask_progress(lspm.token_key("t-other"), { token = "t-other", delta = "XX", round = 1 })
  ask.on_ask_progress(lspm.token_key("t-unit"), { token = "t-unit", delta = "lo", round = 1 })
  ask.on_ask_progress(lspm.token_key("t-unit"), { token = "t-unit", row = { round = 1, tool = "search_codex", summary = "q", ok = true, ms = 2 } })
  ask.on_progress(lspm.token_key("t-unit"), { kind = "end", message = "cancelled" })
  check(fake.delta == "Hello" and #fake.rows == 1 and fake.state == "cancelled", "progress routing: " .. vim.inspect(fake))
  chat.render()
  text = table.concat(vim.api.nvim_buf_get_lines(chat.buf, 0, -1, false), "\n")
  check(text:find("Hello", 1, true) and text:find("`search_codex`", 1, true) and text:find("(cancelled)", 1, true), "chat: " .. text)
  ask.on_ask_progress(lspm.token_key("t-unit"), { token = "t-unit", delta = "Fin", round = 2 })
  check(fake.delta == "Fin", "a new round starts the streamed text over: " .. fake.delta)
  check(lspm.token_key(7) ~= lspm.token_key("7"), "number and string tokens must not collide")
  chat.clear()
  ask.asks = {}
  quire.config.chat.open_on_ask = true
  local p, q = ask.split_args("continuity-editor Is it so?", { "continuity-editor" })
  check(p == "continuity-editor" and q == "Is it so?", "split_args persona")
  p, q = ask.split_args("Is it so?", { "continuity-editor" })
  check(p == nil and q == "Is it so?", "split_args question only")
  ok(step)

  ---------------------------------------------------------------- server
  step = "attach"
  quire.setup({
    cmd = { env("QUIRE_BIN"), "serve" },
    settings = {},
    chat = { layout = "float", show_tool_rows = true },
  })
  local chapter = book .. "/manuscript/01-thirteen-strokes.md"
  vim.cmd("edit " .. vim.fn.fnameescape(chapter))
  local cbuf = vim.api.nvim_get_current_buf()
  check(vim.bo[cbuf].filetype == "markdown", "filetype is " .. vim.bo[cbuf].filetype)
  wait(10000, function()
    return #compat.get_clients({ bufnr = cbuf, name = "quire" }) > 0
  end, "the quire client to attach to the chapter")
  local client = compat.get_clients({ bufnr = cbuf, name = "quire" })[1]
  check(client.config.root_dir == book, "client root " .. tostring(client.config.root_dir))
  wait(10000, function()
    return client.initialized ~= false and (client.server_capabilities or client.resolved_capabilities) ~= nil
  end, "initialize")
  ok(step)

  step = "hover"
  local lnum, col = harness.name_at(cbuf, "Teodora Quill")
  check(lnum, "no line mentions Teodora Quill")
  -- The server's answer first, only to know the book is read.
  check(harness.hover_at(cbuf, lnum, col, 20000), "timed out after 20000 ms waiting for a hover on Teodora Quill")
  -- Then what the writer sees: the cursor on the name, K (the plugin's
  -- vim.lsp.buf.hover), and the lines of the float Neovim opens.
  local chapter_win = vim.api.nvim_get_current_win()
  vim.api.nvim_win_set_cursor(chapter_win, { lnum + 1, col })
  local float_text, float_win
  -- Once: a second K while the float is open enters it.
  vim.lsp.buf.hover()
  wait(10000, function()
    for _, w in ipairs(vim.api.nvim_list_wins()) do
      if vim.api.nvim_win_get_config(w).relative ~= "" then
        float_win = w
        float_text = table.concat(vim.api.nvim_buf_get_lines(vim.api.nvim_win_get_buf(w), 0, -1, false), "\n")
        return true
      end
    end
    return false
  end, "a hover float on Teodora Quill")
  check(float_text:find("Teodora Quill", 1, true), "the float does not name Teodora Quill: " .. float_text)
  check(float_text:find("Night clerk of the Harbor Tally", 1, true),
    "the float does not give her summary: " .. float_text)
  -- The card's Markdown is drawn, not shown as source.
  check(not float_text:find("[[", 1, true), "the float shows raw links: " .. float_text)
  -- A link to an entry reads as its name, not its file:// address
  -- wrapping over lines: before 0.10, which shows Markdown as source,
  -- the plugin drops the address; 0.10 and later conceal it.
  if require("quire.compat").raw_links_in_floats then
    check(not float_text:find("file://", 1, true), "the float shows a link's address: " .. float_text)
  else
    check(float_text:find("file://", 1, true) == nil or vim.wo[float_win].conceallevel > 0,
      "the float shows a link's address unconcealed: " .. float_text)
  end
  -- The float closes as the writer moves on.
  for _, w in ipairs(vim.api.nvim_list_wins()) do
    if vim.api.nvim_win_get_config(w).relative ~= "" then
      vim.api.nvim_win_close(w, true)
    end
  end
  vim.api.nvim_set_current_win(chapter_win)
  ok(step)

  step = "omnifunc"
  -- An alias completes through the omnifunc the plugin sets: typing
  -- [[Harbormi and <C-x><C-o> offers "the Harbormistress", which inserts
  -- the entry's name. Neovim's own omnifunc drops it, since the inserted
  -- text does not start with what was typed. Typed for real in Insert
  -- mode; a timer looks at the menu, accepts and leaves Insert mode.
  local complete = require("quire.complete")
  check(vim.bo[cbuf].omnifunc == complete.name, "omnifunc is " .. vim.bo[cbuf].omnifunc)
  vim.api.nvim_buf_set_lines(cbuf, -1, -1, false, { "", "Then [[Harbormi" })
  local last = vim.api.nvim_buf_line_count(cbuf)
  vim.api.nvim_win_set_cursor(0, { last, 0 })
  local menu
  local polls = 0
  local timer = uv.new_timer()
  timer:start(50, 50, vim.schedule_wrap(function()
    polls = polls + 1
    local info = vim.fn.complete_info({ "items" })
    if (info.items and #info.items > 0) or polls > 100 then
      timer:stop()
      timer:close()
      menu = info.items or {}
      -- <C-y> accepts the item, <Esc> ends Insert mode and the feedkeys.
      vim.api.nvim_feedkeys(#menu > 0 and "\25\27" or "\27", "n", false)
    end
  end))
  vim.api.nvim_feedkeys("A\24\15", "nx!", false)
  local got = vim.api.nvim_buf_get_lines(cbuf, last - 1, last, false)[1]
  local labels = {}
  for _, it in ipairs(menu or {}) do
    table.insert(labels, tostring(it.abbr) .. " -> " .. tostring(it.word))
  end
  log("completion menu: " .. table.concat(labels, "; "))
  check(menu and #menu > 0, "[[Harbormi offered nothing")
  check(menu[1].abbr == "the Harbormistress" and menu[1].word == "Séverine Aubrac]]", "menu: " .. table.concat(labels, "; "))
  check(got == "Then [[Séverine Aubrac]]", "completed line: " .. tostring(got))
  -- Back to the chapter as it is on disk, for the steps that follow.
  vim.cmd("edit!")
  check(not vim.bo[cbuf].modified, "the chapter is still modified")
  ok(step)

  step = "ask"
  -- Select "Warden Strand sent me the long way round." on a line that
  -- opens with a curly quote, so byte and UTF-16 columns differ.
  local wline, wl
  for i, l in ipairs(vim.api.nvim_buf_get_lines(cbuf, 0, -1, false)) do
    if l:find("Warden Strand sent me", 1, true) then
      wline, wl = i, l
      break
    end
  end
  check(wline, "no line with Warden Strand")
  local sel = "Warden Strand sent me the long way round."
  local sb = wl:find(sel, 1, true) - 1
  vim.api.nvim_win_set_cursor(0, { wline, sb })
  vim.cmd("normal! v" .. (#sel - 1) .. "l\27")
  vim.cmd("'<,'>QuireAsk continuity-editor Is her eye colour consistent?")
  local entry
  -- The command first fetches the persona list, so the ask starts a moment
  -- later.
  wait(10000, function()
    entry = chat.entries[#chat.entries]
    return entry and entry.question == "Is her eye colour consistent?"
  end, "the ask to appear in the chat")
  wait(30000, function()
    return entry.state ~= "running"
  end, "the ask to finish (state " .. tostring(entry.state) .. ")")
  check(entry.state == "answered", "ask ended " .. tostring(entry.state) .. ": " .. tostring(entry.error))
  check(entry.persona == "continuity-editor", "persona " .. tostring(entry.persona))
  check(#entry.rows >= 1, "no tool row arrived through quire/askProgress")
  check(entry.ended == "answered", "progress end was " .. tostring(entry.ended))
  check(entry.answer:find("SCRIPTED-ANSWER", 1, true), "answer: " .. entry.answer)
  check(#entry.proposals == 1, "proposals: " .. vim.inspect(entry.proposals))
  wait(2000, function()
    local t = buf_text(chat.buf)
    return t:find("SCRIPTED-ANSWER", 1, true) and t:find("`get_character_context`", 1, true)
  end, "the chat to show the answer and a tool row")
  local ctext = buf_text(chat.buf)
  check(ctext:find("`:QuireApply " .. entry.proposals[1] .. "`", 1, true), "apply hint missing: " .. ctext)
  check(ctext:find("codex/characters/teodora-quill/index.md", 1, true), "evidence path missing: " .. ctext)
  check(ctext:find("Is her eye colour consistent?", 1, true), "question missing: " .. ctext)
  check(chat.is_open(), "the chat window did not open")
  check(vim.api.nvim_get_current_buf() == cbuf, "the ask moved the cursor out of the chapter")
  check(ask.conversations[book] and ask.conversations[book]["continuity-editor"], "no conversation kept")
  log("range " .. vim.json.encode(entry.range or {}))
  local want_start = util.utf16_col(wl, sb)
  check(entry.range and entry.range.start.character == want_start and entry.range["end"].character == want_start + #sel
    and entry.range.start.line == wline - 1, "range sent " .. vim.inspect(entry.range) .. ", want start " .. want_start)
  check(want_start ~= sb, "the selection line should have a multibyte character before the selection")
  -- Streaming deltas are optional in the protocol; say whether they came.
  log(string.format("deltas %d, streamed text %q", entry.deltas or 0, entry.delta or ""))
  log("proposal " .. entry.proposals[1])
  ok(step)

  step = "follow-up"
  local conv = ask.conversations[book]["continuity-editor"]
  local entry2 = quire.ask({ persona = "continuity-editor", message = "And her coat?" })
  wait(30000, function()
    return entry2.state ~= "running"
  end, "the follow-up ask")
  check(entry2.state == "answered", "follow-up ended " .. tostring(entry2.state) .. ": " .. tostring(entry2.error))
  check(ask.conversations[book]["continuity-editor"] == conv, "the follow-up started a new conversation")
  ok(step)

  step = "prompts"
  -- With no persona remembered and no arguments, :QuireAsk asks for both.
  local orig_select, orig_input = vim.ui.select, vim.ui.input
  local offered, input_prompt
  vim.ui.select = function(items, _, on_choice)
    offered = items
    for _, it in ipairs(items) do
      if it.id == "first-time-reader" then
        return on_choice(it)
      end
    end
    on_choice(nil)
  end
  vim.ui.input = function(o, on_confirm)
    input_prompt = o.prompt
    on_confirm("Does the opening hook you?")
  end
  ask.persona = nil
  vim.cmd("QuireAsk")
  local entry5
  wait(10000, function()
    entry5 = chat.entries[#chat.entries]
    return entry5 and entry5.question == "Does the opening hook you?"
  end, "the prompted ask to start")
  wait(30000, function()
    return entry5.state ~= "running"
  end, "the prompted ask to finish")
  vim.ui.select, vim.ui.input = orig_select, orig_input
  check(offered and #offered == 6, "personas offered: " .. vim.inspect(offered))
  check(input_prompt and input_prompt ~= "", "no question prompt")
  check(entry5.state == "answered" and entry5.persona == "first-time-reader", "prompted ask: " .. tostring(entry5.state) .. " " .. tostring(entry5.persona) .. " " .. tostring(entry5.error))
  check(entry5.answer:find("SCRIPTED-PROMPTED", 1, true), "prompted answer: " .. entry5.answer)
  check(entry5.range == nil, "an ask without a range sent one")
  check(ask.persona == "first-time-reader", "the picked persona is not remembered")
  check(entry5.persona_name ~= "first-time-reader", "the chat shows the persona id instead of its name")
  ok(step)

  step = "proposals"
  local pid = entry.proposals[1]
  vim.cmd("QuireProposals")
  wait(10000, function()
    local pb = vim.fn.bufnr("quire://proposals")
    return pb ~= -1 and buf_text(pb):find(pid, 1, true) ~= nil
  end, "the proposals buffer")
  local pb = vim.fn.bufnr("quire://proposals")
  local ptext = buf_text(pb)
  check(ptext:find("Teodora Quill", 1, true), "proposals buffer: " .. ptext)
  check(ptext:find("[pending]", 1, true), "the proposal is not shown pending: " .. ptext)
  check(vim.bo[pb].filetype == "diff" or vim.bo[pb].filetype == "markdown", "filetype " .. vim.bo[pb].filetype)
  -- `a` applies the proposal whose block holds the cursor.
  check(vim.fn.maparg("a", "n") ~= "", "no `a` mapping in the proposals buffer")
  local function cursor_on(id)
    local plines = vim.api.nvim_buf_get_lines(pb, 0, -1, false)
    for i, l in ipairs(plines) do
      if l:find(id, 1, true) then
        vim.api.nvim_win_set_cursor(0, { math.min(i + 1, #plines), 0 })
        break
      end
    end
  end
  cursor_on(pid)
  check(require("quire.proposals").id_under_cursor(pb) == pid, "id under the cursor " .. tostring(require("quire.proposals").id_under_cursor(pb)))
  vim.cmd("close")
  ok(step)

  step = "stale"
  -- The writer changed the entry after the proposal was made: applying is
  -- refused, and they read why, once (the server's message, not a second
  -- one of the plugin's).
  vim.cmd("edit " .. vim.fn.fnameescape(idx))
  local ibuf = vim.api.nvim_get_current_buf()
  wait(10000, function()
    return #compat.get_clients({ bufnr = ibuf, name = "quire" }) > 0
  end, "the client to attach to the codex entry")
  check(compat.get_clients({ bufnr = ibuf, name = "quire" })[1].id == client.id, "the codex entry got a second client")
  check(not buf_text(ibuf):find("PROPOSED-EYES", 1, true), "the entry already has the proposed text")
  local original = vim.api.nvim_buf_get_lines(ibuf, 0, -1, false)
  vim.api.nvim_buf_set_lines(ibuf, -1, -1, false, { "", "A line the writer added after the proposal." })
  local n0 = #notified
  local stale_done = false
  quire.apply(pid, function()
    stale_done = true
  end)
  wait(10000, function()
    return stale_done
  end, "the stale apply")
  -- Long enough for a message the plugin would add when the server sent
  -- none.
  vim.wait(700)
  local notes = notes_since(n0)
  check(#notes == 1, "messages about the stale apply (want one): " .. vim.inspect(notes))
  check(notes[1].msg:find("changed since", 1, true) and notes[1].msg:find("codex/characters/teodora-quill/index.md", 1, true),
    "the refusal does not say which file changed: " .. notes[1].msg)
  check(notes[1].level == vim.log.levels.WARN, "the refusal is not a warning: level " .. tostring(notes[1].level))
  check(not buf_text(ibuf):find("PROPOSED-EYES", 1, true), "the stale proposal was applied")
  vim.api.nvim_buf_set_lines(ibuf, 0, -1, false, original)
  ok(step)

  step = "apply"
  -- `a` in the list applies the proposal under the cursor; the edit lands
  -- in the entry's buffer, the list shows it applied without `r`, and the
  -- writer reads one message.
  vim.cmd("QuireProposals")
  wait(10000, function()
    return vim.api.nvim_get_current_buf() == pb and buf_text(pb):find(pid, 1, true) ~= nil
  end, "the proposals list")
  cursor_on(pid)
  n0 = #notified
  vim.cmd("normal a")
  wait(10000, function()
    return buf_text(ibuf):find("PROPOSED-EYES", 1, true) ~= nil
  end, "the proposal to land in the codex buffer")
  wait(5000, function()
    for _, l in ipairs(vim.api.nvim_buf_get_lines(pb, 0, -1, false)) do
      if l:find(pid, 1, true) and l:find("[applied]", 1, true) then
        return true
      end
    end
    return false
  end, "the proposals list to show the proposal applied: " .. buf_text(pb))
  wait(5000, function()
    return buf_text(chat.buf):find("applied", 1, true) ~= nil
  end, "the chat to note the apply")
  check(buf_text(ibuf):find("## History", 1, true), "the edit lost the History section")
  vim.wait(700)
  notes = notes_since(n0)
  check(#notes == 1, "messages about the apply (want one): " .. vim.inspect(notes))
  check(notes[1].msg:find("quire: Applied ", 1, true) == 1 and notes[1].msg:find("codex/characters/teodora-quill/index.md", 1, true)
    and notes[1].msg:find("review and save.", 1, true), "the apply message: " .. notes[1].msg)
  check(not notes[1].msg:find(pid, 1, true), "the apply message shows the proposal's id: " .. notes[1].msg)
  vim.cmd("close")
  ok(step)

  step = "apply-again"
  -- Applying twice must be reported, once, not silently accepted.
  local done, res, err = false, nil, nil
  n0 = #notified
  quire.apply(pid, function(r, e)
    done, res, err = true, r, e
  end)
  wait(10000, function()
    return done
  end, "the second apply")
  check(err ~= nil or (res and not res.applied), "second apply: " .. vim.inspect({ res, err }))
  vim.wait(700)
  notes = notes_since(n0)
  check(#notes == 1 and notes[1].msg:find("already applied", 1, true), "messages about the second apply (want one): " .. vim.inspect(notes))
  log("second apply: " .. (err and util.format_error(err) or vim.inspect(res)))
  ok(step)

  step = "discard"
  vim.cmd("QuireDiscard " .. pid)
  wait(10000, function()
    return was_notified("quire: Discarded the proposal.")
  end, "the discard")
  local listed
  require("quire.proposals").fetch(client, function(list)
    listed = list
  end)
  wait(10000, function()
    return listed ~= nil
  end, "the proposals after the discard")
  for _, p in ipairs(listed) do
    check(p.id ~= pid, "the discarded proposal is still listed")
  end
  ok(step)

  step = "reindex"
  local reindexed
  quire.reindex(function(r, e)
    reindexed = { r = r, e = e }
  end)
  wait(20000, function()
    return reindexed ~= nil
  end, "the reindex")
  check(reindexed.e == nil and reindexed.r.state == "ready" and reindexed.r.entries == 26, "reindex: " .. vim.inspect(reindexed))
  check(was_notified("quire: reindexed 26 codex entries, "), "the reindex was not reported")
  ok(step)

  step = "map"
  -- :QuireMap writes the map to quire's cache folder and opens it with
  -- the writer's opener (here a function that records the path).
  local opened
  quire.config.map = { open = function(path)
    opened = path
    return true
  end }
  vim.cmd("edit " .. vim.fn.fnameescape(chapter))
  vim.cmd("QuireMap")
  wait(20000, function()
    return opened ~= nil
  end, "the book map to open")
  check(vim.fn.filereadable(opened) == 1, "the map is written: " .. opened)
  check(opened:sub(1, #book) ~= book, "the map is not in the book: " .. opened)
  local page = table.concat(vim.fn.readfile(opened), "\n")
  check(page:find("The Thirteenth Bell", 1, true) and page:find("Moss Kettering", 1, true) and page:find('id="timeline"', 1, true),
    "the page holds the book's map")
  wait(2000, function()
    return was_notified("quire: the book map is open in your browser (5 chapters, 23 codex entries mentioned): " .. opened)
  end, "the notice of the opened map")
  -- Without a way to open it, the writer is told where it is.
  quire.config.map = { open = function()
    return false
  end }
  vim.cmd("QuireMap")
  wait(20000, function()
    return was_notified("quire: could not open the book map: your opener (setup's open) did not open it. Open it in your browser: " .. opened)
  end, "the notice of where the map is")
  quire.config.map = {}
  -- :QuireBuild writes the EPUB to quire/<book folder> in the Documents
  -- folder (the test's own, XDG_DOCUMENTS_DIR), never the book, and the
  -- notice says what its count counts, the thousands grouped, and names
  -- the file last.
  local build = require("quire.build")
  build.last = nil
  vim.cmd("QuireBuild epub")
  wait(20000, function()
    return build.last ~= nil
  end, "the build")
  local built = build.last.path
  local docs = vim.env.XDG_DOCUMENTS_DIR
  check(docs and docs ~= "" and built == docs .. "/quire/" .. vim.fn.fnamemodify(book, ":t") .. "/the-thirteenth-bell.epub",
    "the EPUB is in the Documents folder: " .. built)
  check(vim.fn.filereadable(built) == 1, "the EPUB is written: " .. built)
  check(built:sub(1, #book) ~= book, "the EPUB is not in the book: " .. built)
  check(build.last.chapters == 5 and build.last.preset == "reader", "build: " .. vim.inspect(build.last))
  local words = require("quire.util").thousands(build.last.words)
  check(build.last.words >= 1000 and words:find(",", 1, true), "the count is grouped: " .. words)
  local notice = "quire: built EPUB (reader, 5 chapters, " .. words ..
    " words as built: the prose, without chapter titles and scene headings): " .. built
  wait(2000, function()
    return was_notified(notice)
  end, "the notice of the built file")
  -- :QuireBuild! opens the file too: with setup's open, then with the
  -- system's, which without a display says so and names the file.
  local opened_build
  quire.config.open = function(path)
    opened_build = path
    return true
  end
  build.last = nil
  vim.cmd("QuireBuild! epub")
  wait(20000, function()
    return opened_build ~= nil
  end, "the built file to open")
  check(opened_build == built, "the EPUB was opened: " .. tostring(opened_build))
  wait(2000, function()
    return was_notified("quire: opened " .. built)
  end, "the notice of the opened file")
  quire.config.open = nil
  local display, wayland = vim.env.DISPLAY, vim.env.WAYLAND_DISPLAY
  vim.env.DISPLAY, vim.env.WAYLAND_DISPLAY = "", ""
  vim.cmd("QuireBuild! epub")
  local refused = "quire: could not open the file: there is no display to open it on (neither DISPLAY nor WAYLAND_DISPLAY is set," ..
    " as over SSH or in a text console). Open it yourself: " .. built
  wait(20000, function()
    return was_notified(refused)
  end, "the notice that the file cannot be opened")
  vim.env.DISPLAY, vim.env.WAYLAND_DISPLAY = display, wayland
  check(build.complete("m", "QuireBuild epub m")[1] == "md" and build.complete("r", "QuireBuild epub r")[1] == "reader",
    "completion: " .. vim.inspect(build.complete("", "QuireBuild ")))
  check(build.parse({ "pdf" }) == nil, "pdf is no format")
  quire.config.map = {}
  -- :QuireMentions shows the heatmap as a text table in a float.
  local map = require("quire.map")
  map.buf = nil
  vim.cmd("QuireMentions")
  wait(20000, function()
    return map.buf ~= nil
  end, "the mentions float")
  local lines = vim.api.nvim_buf_get_lines(map.buf, 0, -1, false)
  check(lines[1]:match("^NAME%s+TYPE%s+TOTAL%s+1%s+2%s+3%s+4%s+5$"), "header: " .. lines[1])
  local moss
  for _, l in ipairs(lines) do
    if l:find("Moss Kettering", 1, true) then
      moss = l
    end
  end
  check(moss and moss:match("^Moss Kettering%s+character%s+%d+%s+%d+%s+·%s+%d+%s+%d+%s+%d+$"), "Moss Kettering's row: " .. tostring(moss))
  check(buf_text(map.buf):find("3  Slack Water", 1, true), "the chapter key: " .. buf_text(map.buf))
  check(vim.api.nvim_win_get_config(map.win).relative ~= "", "the table is a float")
  vim.cmd("close")
  ok(step)

  step = "error"
  vim.cmd("edit " .. vim.fn.fnameescape(chapter))
  quire.set_settings({ provider = { api_key_env = "QUIRE_TEST_MISSING_KEY" } })
  local entry3 = quire.ask({ persona = "writing-coach", message = "Anything?" })
  wait(10000, function()
    return entry3.state ~= "running"
  end, "the failing ask")
  check(entry3.state == "failed" and entry3.error, "state " .. tostring(entry3.state))
  log("error " .. entry3.error)
  wait(2000, function()
    return buf_text(chat.buf):find("**Error:** " .. entry3.error, 1, true) ~= nil
  end, "the error in the chat")
  ok(step)

  step = "cancel"
  quire.set_settings({ provider = { base_url = env("QUIRE_HANG_URL"), api_key_env = "QUIRE_TEST_KEY", model = "scripted", retries = 0, timeout = "60s" } })
  local entry4 = quire.ask({ persona = "writing-coach", message = "This one hangs." })
  wait(10000, function()
    return entry4.request_id ~= nil and vim.fn.filereadable(env("QUIRE_HANG_FLAG")) == 1
  end, "the hanging model to receive the request")
  check(entry4.state == "running", "state before cancel " .. tostring(entry4.state))
  vim.cmd("QuireCancel")
  wait(8000, function()
    return entry4.state == "cancelled"
  end, "the cancel (state " .. tostring(entry4.state) .. ")")
  check(entry4.ended == "cancelled", "progress end " .. tostring(entry4.ended))
  ok(step)

  step = "peek"
  quire.set_settings({})
  vim.cmd("QuirePeek continuity-editor What about Teo?")
  wait(10000, function()
    local b = vim.fn.bufnr("quire://peek")
    return b ~= -1 and buf_text(b) ~= ""
  end, "the peek buffer")
  local kb = vim.fn.bufnr("quire://peek")
  check(vim.bo[kb].filetype == "json", "peek filetype " .. vim.bo[kb].filetype)
  local decoded = compat.json_decode(buf_text(kb))
  check(type(decoded) == "table" and decoded.messages, "peek is not a request body")
  check(buf_text(kb):find("What about Teo?", 1, true), "peek lacks the question")
  vim.cmd("close")
  ok(step)

  -- The chat as the writer saw it, for the failure report.
  local cf = io.open(env("QUIRE_RESULT") .. ".chat", "w")
  if cf then
    cf:write(buf_text(chat.buf))
    cf:close()
  end

  step = "code-actions"
  -- The server's selection actions run on the client through
  -- config.commands: asks go to the chat, peeks to the peek buffer.
  local cb = vim.fn.bufnr(chapter)
  vim.api.nvim_set_current_buf(cb)
  local res = vim.lsp.buf_request_sync(cb, "textDocument/codeAction", {
    textDocument = { uri = vim.uri_from_bufnr(cb) },
    range = entry.range,
    context = { diagnostics = {} },
  }, 5000)
  local asks, peek_cmd = 0, nil
  for _, r in pairs(res or {}) do
    for _, a in ipairs(r.result or {}) do
      local c = a.command
      if type(c) == "table" and c.command == "quire.ask" then
        asks = asks + 1
      elseif type(c) == "table" and c.command == "quire.peekPrompt" then
        peek_cmd = c
      end
    end
  end
  check(asks >= 6, "ask actions: " .. asks)
  check(peek_cmd, "no peek action")
  local fn = client.commands[peek_cmd.command] or vim.lsp.commands[peek_cmd.command]
  check(fn, "quire.peekPrompt is not handled on the client")
  local kb2 = vim.fn.bufnr("quire://peek")
  if kb2 ~= -1 then
    vim.api.nvim_buf_delete(kb2, { force = true })
  end
  fn(peek_cmd, { client_id = client.id, bufnr = cb })
  wait(10000, function()
    local b = vim.fn.bufnr("quire://peek")
    return b ~= -1 and buf_text(b):find("messages", 1, true) ~= nil
  end, "the peek from the code action")
  vim.cmd("close")
  ok(step)

  step = "create-entry"
  -- The quick fix "Create character entry for Hesper", chosen the way a
  -- writer does (vim.lsp.buf.code_action on the untracked name), opens
  -- the new entry in a window to review and save: no hidden buffer waits
  -- unsaved.
  vim.api.nvim_set_current_buf(cb)
  local hesper
  wait(10000, function()
    for _, d in ipairs(vim.diagnostic.get(cb)) do
      if d.code == "untracked-name" and d.message:find("Hesper", 1, true) then
        hesper = d
        return true
      end
    end
    return false
  end, "the untracked-name hint on Hesper")
  vim.api.nvim_win_set_cursor(0, { hesper.lnum + 1, hesper.col })
  local orig_select2 = vim.ui.select
  local titles = {}
  vim.ui.select = function(items, _, on_choice)
    local pick
    for _, it in ipairs(items) do
      local a = it.action or it[2]
      table.insert(titles, a.title)
      if a.title == "Create character entry for Hesper" then
        pick = it
      end
    end
    on_choice(pick)
  end
  local wins_before = #vim.api.nvim_tabpage_list_wins(0)
  n0 = #notified
  vim.lsp.buf.code_action()
  local hpath = book .. "/codex/characters/hesper.md"
  wait(10000, function()
    local hb = vim.fn.bufnr(hpath)
    return hb ~= -1 and vim.fn.bufwinid(hb) ~= -1
  end, "the new entry in a window (actions offered: " .. table.concat(titles, "; ") .. ")")
  vim.ui.select = orig_select2
  local hb = vim.fn.bufnr(hpath)
  check(vim.api.nvim_get_current_buf() == hb, "the cursor is not in the new entry")
  check(#vim.api.nvim_tabpage_list_wins(0) == wins_before + 1, "the new entry did not get a window of its own")
  check(buf_text(hb):find("name: Hesper", 1, true), "new entry: " .. buf_text(hb))
  check(vim.bo[hb].modified, "the new entry is not waiting to be saved")
  wait(2000, function()
    return was_notified("codex/characters/hesper.md")
  end, "a message naming the new entry")
  -- The writer saves it, and the book has it.
  vim.cmd("write")
  check(not vim.bo[hb].modified, "the new entry was not saved")
  check(table.concat(vim.fn.readfile(hpath), "\n"):find("name: Hesper", 1, true), "the new entry on disk")
  vim.cmd("close")
  ok(step)

  step = "action"
  -- :QuireAction completes the ids the server lists, asking it when it
  -- has listed none yet.
  local comp = vim.fn.getcompletion("QuireAction line", "cmdline")
  check(vim.tbl_contains(comp, "line-edit"), "completion: " .. vim.inspect(comp))
  vim.api.nvim_set_current_buf(cb)
  vim.api.nvim_win_set_cursor(0, { wline, sb })
  vim.cmd("normal! v" .. (#sel - 1) .. "l\27")
  -- Without an id it offers the selection actions, with label and usage.
  local orig_sel = vim.ui.select
  local picked_from, shown
  vim.ui.select = function(items, o, on_choice)
    picked_from = items
    shown = {}
    for _, it in ipairs(items) do
      table.insert(shown, o.format_item(it))
    end
    on_choice(nil)
  end
  vim.cmd("'<,'>QuireAction")
  wait(10000, function()
    return picked_from ~= nil
  end, "the action picker")
  vim.ui.select = orig_sel
  local has_line_edit = false
  for i, a in ipairs(picked_from) do
    check(a.scope == "selection", "a " .. tostring(a.scope) .. " action offered for a selection: " .. tostring(a.id))
    if a.id == "line-edit" then
      has_line_edit = true
      check(shown[i]:find("Writing Coach: Line edit", 1, true) and shown[i]:find(" — ", 1, true), "picker shows " .. shown[i])
    end
  end
  check(has_line_edit, "line-edit not offered: " .. vim.inspect(shown))
  -- At the cursor, the chapter's and the book's actions.
  picked_from = nil
  vim.ui.select = function(items, _, on_choice)
    picked_from = items
    on_choice(nil)
  end
  vim.cmd("QuireAction")
  wait(10000, function()
    return picked_from ~= nil
  end, "the action picker at the cursor")
  vim.ui.select = orig_sel
  local scopes = {}
  for _, a in ipairs(picked_from) do
    check(a.scope == "file" or a.scope == "project", "a " .. tostring(a.scope) .. " action offered at the cursor: " .. tostring(a.id))
    scopes[a.id] = true
  end
  check(scopes["book-timeline"] and not scopes["line-edit"], "offered at the cursor: " .. vim.inspect(vim.tbl_keys(scopes)))
  -- A selection action at the cursor is not offered, and says so.
  vim.cmd("QuireAction line-edit")
  wait(10000, function()
    return was_notified("works on a selection")
  end, "the notice that line-edit needs a selection")
  vim.cmd("QuireAction no-such-action")
  wait(10000, function()
    return was_notified('no advisor action "no-such-action"')
  end, "the notice of an unknown action")
  local before = #chat.entries
  vim.api.nvim_win_set_cursor(0, { wline, sb })
  vim.cmd("normal! v" .. (#sel - 1) .. "l\27")
  vim.cmd("'<,'>QuireAction line-edit")
  local entry6
  wait(10000, function()
    entry6 = #chat.entries > before and chat.entries[#chat.entries] or nil
    return entry6 ~= nil
  end, "the action's ask to appear in the chat")
  wait(30000, function()
    return entry6.state ~= "running"
  end, "the action's ask to finish")
  check(entry6.state == "answered", "action ended " .. tostring(entry6.state) .. ": " .. tostring(entry6.error))
  check(entry6.persona == "writing-coach", "action persona " .. tostring(entry6.persona))
  -- The writer's turn is the action's name, not its page of instructions
  -- (the model still gets those, as nvim_test.go checks).
  check(entry6.question:find("Line edit", 1, true) and not entry6.question:find("Run the advisor action", 1, true),
    "the chat shows the action as: " .. tostring(entry6.question))
  check(entry6.range and entry6.range.start.line == entry.range.start.line
    and entry6.range.start.character == entry.range.start.character
    and entry6.range["end"].character == entry.range["end"].character, "action range " .. vim.inspect(entry6.range))
  wait(2000, function()
    return buf_text(chat.buf):find("SCRIPTED-ACTION", 1, true) ~= nil
  end, "the chat to show the action's answer")
  check(not buf_text(chat.buf):find("Run the advisor action", 1, true), "the chat shows the action's instructions")
  check(vim.tbl_contains(vim.fn.getcompletion("QuireAction ", "cmdline"), "line-edit"), "completion after listing")
  ok(step)

  step = "chat-toggle"
  local was = chat.is_open()
  vim.cmd("QuireChat")
  check(chat.is_open() ~= was, "QuireChat did not toggle")
  vim.cmd("QuireChat")
  check(chat.is_open() == was, "QuireChat did not toggle back")
  ok(step)

  step = "help"
  -- The plugin is on 'runtimepath' as installed, with the tags it ships:
  -- :help finds its pages without :helptags.
  for _, tag in ipairs({ "quire", ":QuireAsk", ":QuireAction", ":QuireApply", "quire-setup", "quire-chat" }) do
    vim.cmd("help " .. tag)
    check(vim.api.nvim_buf_get_name(0):match("quire%.txt$"), ":help " .. tag .. " opened " .. vim.api.nvim_buf_get_name(0))
    vim.cmd("close")
  end
  ok(step)
end

harness.run(main, function()
  return step
end)
