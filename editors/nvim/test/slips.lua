-- The writer's continuity slips, typed in a headless Neovim: run by
-- slips_test.go against a real quire server on the slip book
-- (editors/editortest/slips.go). The chapter opens clean; each line of
-- the fixture is typed in Insert mode through the typeahead (feedkeys),
-- and after each one the diagnostics Neovim holds for the buffer must be
-- exactly the slips typed so far, at their words. Decoys must draw no
-- diagnostic at all. Then the writer applies the fixture's fix through
-- the code-action menu. Writes "ok <step>", "time <slip> <ms>",
-- "offered <title>" and "after <line>" lines and PASS to $QUIRE_RESULT;
-- the first failure writes "FAIL <step>: <why>".
local harness = dofile(vim.fn.fnamemodify(debug.getinfo(1, "S").source:sub(2), ":p:h") .. "/harness.lua")
harness.open(assert(os.getenv("QUIRE_RESULT"), "QUIRE_RESULT"))
local log, check = harness.log, harness.check

local step = "start"
local uv = vim.uv or vim.loop

local function read_json(path)
  local f = assert(io.open(path, "r"))
  local data = f:read("*a")
  f:close()
  return vim.fn.json_decode(data)
end

-- describe lists diagnostics for a failure message.
local function describe(ds)
  local out = {}
  for _, d in ipairs(ds) do
    table.insert(out, string.format("%s %d:%d-%d:%d %q", tostring(d.code), d.lnum, d.col, d.end_lnum, d.end_col, d.message))
  end
  return table.concat(out, "; ")
end

-- matches tells whether the buffer's diagnostics are exactly want (slips,
-- by code and byte range), and why not.
local function matches(buf, want)
  local ds = vim.diagnostic.get(buf)
  if #ds ~= #want then
    return false, string.format("%d diagnostics, want %d: %s", #ds, #want, describe(ds))
  end
  for _, w in ipairs(want) do
    local found = false
    for _, d in ipairs(ds) do
      if d.code == w.code and d.lnum == w.line and d.col == w.byteCol and d.end_lnum == w.line and d.end_col == w.byteEnd then
        found = true
      end
    end
    if not found then
      return false, string.format("no %s at %d:%d-%d (%q): %s", w.code, w.line, w.byteCol, w.byteEnd, w.words, describe(ds))
    end
  end
  return true
end

local function main()
  local v = vim.version()
  log(string.format("nvim %d.%d.%d", v.major, v.minor, v.patch))
  local fx = read_json(assert(os.getenv("QUIRE_SLIPS")))

  step = "attach"
  -- Which version of the chapter the diagnostics shown are of: the
  -- version each publication names, so a wait ends on the diagnostics of
  -- the text as typed, not on older ones still on their way.
  local uri = vim.uri_from_fname(fx.chapter)
  local published = -1
  local publish = vim.lsp.handlers["textDocument/publishDiagnostics"]
  vim.lsp.handlers["textDocument/publishDiagnostics"] = function(err, res, ctx, config)
    publish(err, res, ctx, config)
    if res and res.uri == uri then
      published = res.version or 0
    end
  end

  local buf = harness.attach(fx.chapter)
  log("ok " .. step)

  -- shows waits until the diagnostics of the buffer's version (what,
  -- for the failure's words) are published and are exactly want; it
  -- returns whether they came, and what was last seen.
  local function shows(version, want, what)
    local last
    local ok = vim.wait(10000, function()
      if published < version then
        last = string.format("diagnostics of version %d shown, %s is version %d", published, what, version)
        return false
      end
      local good, w = matches(buf, want)
      last = w
      return good
    end, 5)
    return ok, last
  end


  -- The clean chapter: the server publishes for it once it has opened;
  -- nothing may be shown.
  step = "clean"
  check(vim.wait(5000, function()
    return published >= 0
  end, 20), "no diagnostics published for the opened chapter")
  local ok_clean, why = matches(buf, {})
  check(ok_clean, "the clean chapter shows diagnostics: " .. tostring(why))
  log("ok " .. step)

  -- Typing: each line opens below the one before its place, in Insert
  -- mode, keys as typed; Neovim sends the changes as the writer's.
  step = "type"
  local gap_ms = tonumber(os.getenv("QUIRE_TYPING_GAP_MS") or "20")
  local want = {}
  for _, ty in ipairs(fx.typed) do
    vim.api.nvim_win_set_cursor(0, { ty.line, 0 })
    -- One character at a time with a moment between, as a (fast) writer
    -- types. Typeahead executed at once ('x') ends Insert mode when it
    -- runs out, so every character after the first is appended anew.
    local typed_at
    for i, ch in ipairs(vim.fn.split(ty.text, "\\zs")) do
      -- Escaped: a curly quote's UTF-8 holds the byte Neovim's
      -- typeahead uses for special keys (0x80).
      vim.api.nvim_feedkeys((i == 1 and "o" or "a") .. ch, "xt", true)
      -- The last key's time: the wait after it may run long on a busy
      -- machine, and the diagnostics may come meanwhile.
      typed_at = uv.hrtime()
      vim.wait(gap_ms, function()
        return false
      end, gap_ms)
    end
    -- Neovim sends its change tick as the document's version.
    local version = vim.api.nvim_buf_get_changedtick(buf)
    local slip
    for _, s in ipairs(fx.slips) do
      if s.line == ty.line then
        slip = s
      end
    end
    if slip then
      table.insert(want, slip)
    end
    local seen, last = shows(version, want, "the text typed")
    local ms = (uv.hrtime() - typed_at) / 1e6
    check(seen, string.format("after typing line %d %q: %s", ty.line, ty.text, tostring(last)))
    if slip then
      log(string.format("time %s %d ms", slip.code, ms))
    else
      log(string.format("time line-%d %d ms", ty.line, ms))
    end
  end
  local text = table.concat(vim.api.nvim_buf_get_lines(buf, 0, -1, false), "\n") .. "\n"
  check(text == fx.final, "the buffer after typing:\n" .. text)
  log("ok " .. step)

  -- Settled: a second on, still one diagnostic per slip, none on a decoy,
  -- and each at its words with its code's message.
  step = "settled"
  vim.wait(1000, function()
    return false
  end, 50)
  local good, w = matches(buf, fx.slips)
  check(good, "a second after typing: " .. tostring(w))
  local lines = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    check(d.source == "quire" and d.message ~= "", "diagnostic without source or message: " .. describe({ d }))
    log(string.format("seen %s %d:%d %q at %q", d.code, d.lnum, d.col, d.message, lines[d.lnum + 1]:sub(d.col + 1, d.end_col)))
    for _, decoy in ipairs(fx.decoys) do
      check(not (d.lnum == decoy.line and d.col < decoy.byteEnd and d.end_col > decoy.byteCol),
        string.format("a diagnostic on the decoy %q (%s): %s", decoy.words, decoy.why, describe({ d })))
    end
  end
  log("ok " .. step)

  -- The fix: at the name-spelling slip the writer opens Neovim's own
  -- code-action menu (harness.code_action), sees the fixes offered and
  -- picks fix.title.
  step = "fix"
  local fix = fx.fix
  local at
  for _, s in ipairs(fx.slips) do
    if s.code == fix.code and s.line == fix.line then
      at = s
    end
  end
  check(at, "no slip " .. fix.code .. " on line " .. fix.line .. " in the fixture")
  vim.api.nvim_win_set_cursor(0, { fix.line + 1, at.byteCol })
  local before = vim.api.nvim_buf_get_changedtick(buf)
  local menu, titles, picked = harness.code_action(function(title)
    return title == fix.title
  end, 10000)
  check(menu, "the code-action menu did not open at " .. at.words)
  for _, t in ipairs(titles) do
    log("offered " .. t)
  end
  local offered = table.concat(titles, "; ")
  for _, want in ipairs(fix.offered) do
    check(vim.tbl_contains(titles, want), string.format("%q not offered at %q; the menu: %s", want, at.words, offered))
  end
  check(picked, string.format("%q not in the menu: %s", fix.title, offered))
  -- The edit is applied by Neovim, then sent to the server as the
  -- writer's change; once the diagnostics of that version are in, the
  -- fixed slip's is gone and every other slip's is still there.
  local line
  local edited = vim.wait(10000, function()
    line = vim.api.nvim_buf_get_lines(buf, fix.line, fix.line + 1, false)[1]
    return line == fix.after
  end, 10)
  log("after " .. tostring(line))
  check(edited, string.format("line %d after %q: %q, want %q", fix.line, fix.title, tostring(line), fix.after))
  local version = vim.api.nvim_buf_get_changedtick(buf)
  check(version > before, "the buffer did not change")
  local rest = {}
  for _, s in ipairs(fx.slips) do
    if s ~= at then
      table.insert(rest, s)
    end
  end
  local cleared, last = shows(version, rest, "the fixed text")
  check(cleared, "after " .. fix.title .. ": " .. tostring(last))
  -- Nothing but the slip's words changed.
  local want_lines = vim.split(fx.final, "\n", { plain = true })
  want_lines[fix.line + 1] = fix.after
  local want_text = table.concat(want_lines, "\n")
  local text_now = table.concat(vim.api.nvim_buf_get_lines(buf, 0, -1, false), "\n") .. "\n"
  check(text_now == want_text, "the buffer after the fix:\n" .. text_now)
  log("ok " .. step)
end

harness.run(main, function()
  return step
end)
