-- Word counts in a headless Neovim: run by words_test.go against a real
-- quire server on the sample book with a daily goal. The statusline's
-- require("quire").status() shows the chapter's and the book's counts
-- without asking, follows what the writer types, :Quire stats opens the
-- summary, and the code lens above the chapter's title gives its count.
-- Writes "ok <step>" lines and PASS to $QUIRE_RESULT; the first failure
-- writes "FAIL <step>: <why>".
local harness = dofile(vim.fn.fnamemodify(debug.getinfo(1, "S").source:sub(2), ":p:h") .. "/harness.lua")
harness.open(assert(os.getenv("QUIRE_RESULT"), "QUIRE_RESULT"))
local log, check = harness.log, harness.check

local step = "start"

local function main()
  local chapter = assert(os.getenv("QUIRE_CHAPTER"), "QUIRE_CHAPTER")
  local want_status = assert(os.getenv("QUIRE_WANT_STATUS"), "QUIRE_WANT_STATUS")
  local want_typed = assert(os.getenv("QUIRE_WANT_TYPED"), "QUIRE_WANT_TYPED")
  local want_lens = assert(os.getenv("QUIRE_WANT_LENS"), "QUIRE_WANT_LENS")
  local typed = assert(os.getenv("QUIRE_TYPE"), "QUIRE_TYPE")
  local quire = require("quire")

  step = "attach"
  local buf = harness.attach(chapter)
  log("ok " .. step)

  -- Without asking: the statusline function has the counts.
  step = "statusline"
  local got
  check(vim.wait(15000, function()
    got = quire.status()
    return got == want_status
  end, 50), "status() is " .. vim.inspect(got) .. ", not " .. want_status)
  log("ok " .. step)

  -- The writer types a line, as keys: the count follows, unsaved.
  step = "typing"
  vim.api.nvim_feedkeys(vim.api.nvim_replace_termcodes("Go" .. typed .. "<Esc>", true, false, true), "xt", false)
  check(vim.wait(15000, function()
    got = quire.status()
    return got == want_typed
  end, 50), "after typing, status() is " .. vim.inspect(got) .. ", not " .. want_typed)
  log("ok " .. step)

  step = "stats"
  vim.cmd("Quire stats")
  local words = require("quire.words")
  local text
  check(vim.wait(10000, function()
    local b = require("quire.map").buf
    if not b or not vim.api.nvim_buf_is_valid(b) then
      return false
    end
    text = table.concat(vim.api.nvim_buf_get_lines(b, 0, -1, false), "\n")
    return text:find("CHAPTER", 1, true) ~= nil
  end, 20), "no :Quire stats float")
  check(words.last and words.last.status == want_typed, "the float's counts are not the statusline's")
  check(text:find("Thirteen Strokes", 1, true), "the float does not list the chapter: " .. text)
  check(text:find("Today +", 1, true), "the float does not give today's words: " .. text)
  vim.cmd("close")
  log("ok " .. step)

  -- The code lens above the title, as Neovim keeps it.
  step = "code-lens"
  local title
  check(vim.wait(15000, function()
    words.refresh_lenses(buf)
    for _, l in ipairs(vim.lsp.codelens.get(buf) or {}) do
      if l.command and l.command.title then
        title = l.command.title
        if title == want_lens then
          return true
        end
      end
    end
    return false
  end, 200), "the chapter's code lens is " .. vim.inspect(title) .. ", not " .. want_lens)
  log("ok " .. step)
end

harness.run(main, function()
  return step
end)
