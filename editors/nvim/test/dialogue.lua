-- Dialogue in a headless Neovim 0.10+: run by dialogue_test.go against a
-- real quire server on the sample book. The semantic tokens colour a line
-- of dialogue and a character's name (the highlight groups read back at
-- their places, and the links they resolve to), the uncertain modifier
-- marks a line whose speaker quire guesses, the speaker hints sit before
-- the lines no tag names, hover says who speaks a line (and, for a
-- line a pronoun decided, whom quire took the pronoun to be), :QuireLines
-- fills the quickfix list, a character chosen from the code-action menu
-- settles a guessed line, and an edit of a tag changes its line's
-- speaker and not a later line's, and a name dropped from the codex on
-- disk stops being coloured. Writes "ok <step>" lines and PASS to
-- $QUIRE_RESULT; the first failure writes "FAIL <step>: <why>".
local harness = dofile(vim.fn.fnamemodify(debug.getinfo(1, "S").source:sub(2), ":p:h") .. "/harness.lua")
harness.open(assert(os.getenv("QUIRE_RESULT"), "QUIRE_RESULT"))
local log, check = harness.log, harness.check

local step = "start"

-- groups_at are the semantic-token highlight groups at row, col (0-based,
-- bytes) of buf.
local function groups_at(buf, row, col)
  -- Neovim highlights the tokens of the lines on screen as it draws them.
  vim.api.nvim_win_set_cursor(0, { row + 1, col })
  vim.cmd("normal! zz")
  vim.cmd("redraw")
  local out = {}
  for _, t in ipairs(vim.inspect_pos(buf, row, col, { semantic_tokens = true, syntax = false, treesitter = false, extmarks = false }).semantic_tokens) do
    table.insert(out, t.opts.hl_group)
  end
  return out
end

local function has(list, prefix)
  for _, g in ipairs(list) do
    if g:sub(1, #prefix) == prefix then
      return true
    end
  end
  return false
end

local function main()
  local chapter = assert(os.getenv("QUIRE_CHAPTER"), "QUIRE_CHAPTER")

  step = "attach"
  local buf = harness.attach(chapter, { dialogue = { speakerHints = true } })
  log("ok " .. step)

  -- “Thirteen,” said Moss. — an explicit line, and a name.
  step = "colours"
  local row, col = harness.find(buf, "“Thirteen,” said Moss.")
  check(row, "no line holds “Thirteen,” said Moss.")
  local name_col = col + #"“Thirteen,” said "
  local at_line, at_name
  check(vim.wait(20000, function()
    at_line, at_name = groups_at(buf, row, col + 4), groups_at(buf, row, name_col + 1)
    return has(at_line, "@lsp.type.dialogue") and has(at_name, "@lsp.type.character")
  end, 50), "the groups at the line are " .. vim.inspect(at_line) .. " and at Moss " .. vim.inspect(at_name))
  check(not has(at_line, "@lsp.mod.uncertain"), "an explicit line is marked uncertain: " .. vim.inspect(at_line))
  local link = vim.api.nvim_get_hl(0, { name = "@lsp.type.dialogue" }).link
  check(link == "String", "@lsp.type.dialogue links to " .. tostring(link) .. ", not String")
  link = vim.api.nvim_get_hl(0, { name = "@lsp.type.character" }).link
  check(link == "Identifier", "@lsp.type.character links to " .. tostring(link) .. ", not Identifier")
  local narration = groups_at(buf, row, name_col - 3)
  check(not has(narration, "@lsp.type.dialogue"), "the tag is coloured as dialogue: " .. vim.inspect(narration))
  log("ok " .. step)

  -- “Someone has to carry paper.” — turn-taking, a guess.
  step = "uncertain"
  local urow, ucol = harness.find(buf, "“Someone has to carry paper.”")
  check(urow, "no line holds “Someone has to carry paper.”")
  local groups = groups_at(buf, urow, ucol + 4)
  check(has(groups, "@lsp.type.dialogue") and has(groups, "@lsp.mod.uncertain"), "a guessed line's groups are " .. vim.inspect(groups))
  log("ok " .. step)

  step = "hints"
  local label
  check(vim.wait(15000, function()
    for _, h in ipairs(vim.lsp.inlay_hint.get({ bufnr = buf }) or {}) do
      local ih = h.inlay_hint
      if ih.position.line == urow then
        label = type(ih.label) == "string" and ih.label or (ih.label[1] and ih.label[1].value)
        return true
      end
    end
    return false
  end, 50), "no speaker hint before the guessed line")
  check(label == "Teodora Quill?", "the hint says " .. vim.inspect(label))
  log("ok " .. step)

  step = "hover"
  local hover = harness.hover_at(buf, row, require("quire.util").utf16_col(vim.api.nvim_buf_get_lines(buf, row, row + 1, false)[1], col + 5), 10000)
  check(hover and hover:find("**Moss Kettering** speaks.", 1, true), "the hover on the line is " .. vim.inspect(hover))
  log("ok " .. step)

  -- “The long way round is the only way you know.” She held out her
  -- hand…: a guess by the narration's "She", whom quire takes for the
  -- character the chapter follows; hover says so.
  step = "clue"
  local crow, ccol = harness.find(buf, "“The long way round")
  check(crow, "no line holds “The long way round")
  local why = harness.hover_at(buf, crow, require("quire.util").utf16_col(vim.api.nvim_buf_get_lines(buf, crow, crow + 1, false)[1], ccol + 5), 10000)
  check(why and why:find("*Uncertain:* **Teodora Quill**, perhaps.", 1, true) and why:find("whose pronoun is the character this chapter follows.", 1, true),
    "the hover on a line the narration's pronoun decided is " .. vim.inspect(why))
  log("ok " .. step)

  step = "lines"
  vim.api.nvim_win_set_cursor(0, { row + 1, name_col + 1 })
  vim.cmd("QuireLines")
  local items
  check(vim.wait(10000, function()
    items = vim.fn.getqflist()
    return #items > 0
  end, 50), "the quickfix list stayed empty")
  local found = false
  for _, it in ipairs(items) do
    if it.lnum == row + 1 then
      found = true
    end
  end
  check(found, "the quickfix list lacks the line of “Thirteen,”: " .. vim.inspect(items))
  log("ok " .. step)

  -- The guessed line settled from the code-action menu: the writer opens
  -- Neovim's own menu (harness.code_action), chooses the character quire
  -- offers first, and Neovim writes the speaker line the action carries;
  -- the hover then says that character speaks, by the writer's say.
  step = "settle"
  -- :QuireLines left the cursor in the quickfix window.
  vim.cmd("cclose")
  vim.api.nvim_set_current_buf(buf)
  vim.api.nvim_win_set_cursor(0, { urow + 1, ucol + 4 })
  local opened, titles, picked = harness.code_action(function(title)
    return title:match(" speaks this line$") ~= nil
  end, 10000)
  check(opened, "the code-action menu did not open on the guessed line")
  check(picked, "no speaker offered on the guessed line; the menu: " .. table.concat(titles, "; "))
  local chosen = picked:gsub(" speaks this line$", "")
  log("offered " .. table.concat(titles, "; "))
  local line
  check(vim.wait(10000, function()
    line = vim.api.nvim_buf_get_lines(buf, urow, urow + 1, false)[1]
    return line:find("<!-- speaker: " .. chosen .. " -->", 1, true) ~= nil
  end, 10), "the line after choosing " .. chosen .. ": " .. vim.inspect(line))
  local settled
  check(vim.wait(10000, function()
    settled = harness.hover_at(buf, urow, require("quire.util").utf16_col(line, ucol + 4), 3000)
    return settled ~= nil and settled:find("**" .. chosen .. "** speaks.", 1, true) ~= nil
  end, 100), "after choosing " .. chosen .. " the hover on the line is " .. vim.inspect(settled))
  log("ok " .. step)

  -- The writer gives the line to another: typed into one conversation,
  -- the edit changes its speaker, and a line of a later conversation
  -- keeps its own (the server attributes again only what the edit
  -- reached).
  step = "edit"
  vim.api.nvim_buf_set_text(buf, row, name_col, row, name_col + #"Moss", { "Madame Aubrac" })
  local lrow, lcol = harness.find(buf, "“Someone took the Lens,” Moss whispered")
  check(lrow, "no line holds “Someone took the Lens,” Moss whispered")
  local edited
  check(vim.wait(10000, function()
    edited = harness.hover_at(buf, row, require("quire.util").utf16_col(vim.api.nvim_buf_get_lines(buf, row, row + 1, false)[1], col + 5), 3000)
    return edited ~= nil and edited:find("**Séverine Aubrac** speaks.", 1, true) ~= nil
  end, 100), "after the edit the hover on the line is " .. vim.inspect(edited))
  local later = harness.hover_at(buf, lrow, require("quire.util").utf16_col(vim.api.nvim_buf_get_lines(buf, lrow, lrow + 1, false)[1], lcol + 5), 10000)
  check(later and later:find("**Moss Kettering** speaks.", 1, true), "the hover on a later line is " .. vim.inspect(later))
  log("ok " .. step)

  -- The codex changes on disk, the chapter does not: the server asks
  -- Neovim to draw the chapter's colours again, and "Warden" in Moss's
  -- line stops being coloured as a name once the alias that made it one
  -- is gone from Ebba Strand's entry.
  step = "codex"
  local wrow, wcol = harness.find(buf, "Warden Strand sent me")
  check(wrow, "no line holds Warden Strand sent me")
  local before
  check(vim.wait(10000, function()
    before = groups_at(buf, wrow, wcol + 1)
    return has(before, "@lsp.type.character")
  end, 50), "Warden Strand is not coloured as a name: " .. vim.inspect(before))
  local entry = vim.fn.fnamemodify(chapter, ":h:h") .. "/codex/characters/ebba-strand.md"
  local text = vim.fn.readfile(entry)
  for i, l in ipairs(text) do
    text[i] = (l:gsub("Warden Strand, ", ""))
  end
  check(vim.fn.writefile(text, entry) == 0, "could not write " .. entry)
  local after
  check(vim.wait(15000, function()
    after = groups_at(buf, wrow, wcol + 1)
    return not has(after, "@lsp.type.character")
  end, 50), "with the alias gone, Warden is still coloured as a name: " .. vim.inspect(after))
  log("ok " .. step)
end

harness.run(main, function()
  return step
end)
