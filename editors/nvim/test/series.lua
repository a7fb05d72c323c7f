-- A book of a series in a headless Neovim: run by series_test.go against
-- a real quire server on a trusted book whose quire.yaml names a series
-- folder beside it. Hovering a name the series alone defines shows
-- "Series canon", go to definition opens the series file, and there a
-- [[link]] and a name show the card of the book's canon, from the
-- book's own client. With QUIRE_ENABLE=1 the client is Neovim 0.11+'s
-- vim.lsp.enable("quire") (lsp/quire.lua) rather than setup(). Writes
-- "ok <step>" lines and PASS to $QUIRE_RESULT; the first failure writes
-- "FAIL <step>: <why>".
local harness = dofile(vim.fn.fnamemodify(debug.getinfo(1, "S").source:sub(2), ":p:h") .. "/harness.lua")
harness.open(assert(os.getenv("QUIRE_RESULT"), "QUIRE_RESULT"))
local log, check = harness.log, harness.check

local step = "start"

local function hover_at(buf, line, character)
  return harness.hover_at(buf, line, character, 15000)
end

local function main()
  local chapter = assert(os.getenv("QUIRE_CHAPTER"), "QUIRE_CHAPTER")
  local series_file = assert(os.getenv("QUIRE_SERIES_FILE"), "QUIRE_SERIES_FILE")

  step = "attach"
  local buf
  if os.getenv("QUIRE_ENABLE") == "1" then
    check(vim.fn.has("nvim-0.11") == 1, "vim.lsp.enable needs Neovim 0.11")
    require("quire").setup({ autostart = false, cmd = { assert(os.getenv("QUIRE_BIN"), "QUIRE_BIN"), "serve" } })
    vim.lsp.enable("quire")
    vim.cmd("edit " .. vim.fn.fnameescape(chapter))
    buf = vim.api.nvim_get_current_buf()
    check(vim.wait(10000, function()
      local c = vim.lsp.get_clients({ bufnr = buf, name = "quire" })[1]
      return c ~= nil and c.initialized ~= false and c.server_capabilities ~= nil
    end, 20), "vim.lsp.enable started no quire client for the chapter")
  else
    buf = harness.attach(chapter)
  end
  local book_client = require("quire.compat").get_clients({ bufnr = buf, name = "quire" })[1]
  log("ok " .. step)

  -- The name the series alone defines, in the chapter's prose.
  local lnum, col
  for i, l in ipairs(vim.api.nvim_buf_get_lines(buf, 0, -1, false)) do
    local c = l:find("Ilse Dorn", 1, true)
    if c then
      lnum, col = i - 1, c - 1 -- the line is ASCII: bytes are UTF-16 units
      break
    end
  end
  check(lnum, "no line of the chapter names Ilse Dorn")

  step = "hover"
  local hover = hover_at(buf, lnum, col + 1)
  check(hover, "no hover on Ilse Dorn")
  check(hover:find("Series canon", 1, true), "the hover does not say Series canon: " .. hover)
  check(hover:find("Harbor master of Tideward.", 1, true), "the hover does not give the series' summary: " .. hover)
  log("ok " .. step)

  -- Go to definition as the writer does it (vim.lsp.buf.definition, the
  -- plugin's gd): Neovim opens the series file.
  step = "definition"
  vim.api.nvim_win_set_cursor(0, { lnum + 1, col + 1 })
  vim.lsp.buf.definition()
  local want = vim.loop.fs_realpath(series_file)
  local name
  local opened = vim.wait(10000, function()
    name = vim.api.nvim_buf_get_name(0)
    return name ~= "" and vim.loop.fs_realpath(name) == want
  end, 20)
  check(opened, "go to definition opened " .. tostring(name) .. ", not " .. want)
  local text = table.concat(vim.api.nvim_buf_get_lines(0, 0, -1, false), "\n")
  check(text:find("name: Ilse Dorn", 1, true), "the opened buffer is not the series entry: " .. text)
  log("ok " .. step)

  -- In the series file the writer reads the book's canon as in its own
  -- codex: a [[link]] to the book's Mara, and the series' Ilse, each
  -- with its card.
  step = "series hover"
  local sbuf = vim.api.nvim_get_current_buf()
  -- The series file joins the book's client: no second server, which
  -- would read the series as a book of its own.
  check(vim.wait(5000, function()
    local c = require("quire.compat").get_clients({ bufnr = sbuf, name = "quire" })[1]
    return c ~= nil
  end, 20), "no quire client for the series file")
  local clients = require("quire.compat").get_clients({ name = "quire" })
  check(#clients == 1, "one quire client, not " .. #clients)
  check(require("quire.compat").get_clients({ bufnr = sbuf, name = "quire" })[1].id == book_client.id,
    "the series file is on the book's client")
  local sl, sc = harness.find(sbuf, "[[Mara Vell]]")
  check(sl, "the series file has no [[Mara Vell]]")
  local card = hover_at(sbuf, sl, sc + 4)
  check(card, "no hover on [[Mara Vell]] in the series file")
  check(card:find("**Mara Vell**", 1, true), "the link's card does not name Mara Vell: " .. card)
  check(card:find("Smuggler who never sails twice.", 1, true), "the link's card is not the book's entry: " .. card)
  sl, sc = harness.find(sbuf, "# Ilse Dorn")
  card = hover_at(sbuf, sl, sc + 3)
  check(card, "no hover on the heading Ilse Dorn in the series file")
  check(card:find("Series canon", 1, true), "the heading's card does not say Series canon: " .. card)
  check(card:find("Appears in:", 1, true), "the heading's card does not say where the book names her: " .. card)
  check(not card:find("As of", 1, true), "a series file is no chapter: " .. card)
  log("ok " .. step)
end

harness.run(main, function()
  return step
end)
