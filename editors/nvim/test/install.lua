-- :Quire install against a local release (install_test.go serves the
-- archive and checksums.txt the release tool wrote, and a copy whose
-- checksum is wrong), with no quire on PATH and no setup() yet: the
-- command exists, a bad checksum installs nothing, a good download is
-- unpacked under stdpath("data"), and setup() without `cmd` then runs
-- that binary, which answers a hover. Also the path rule the plugin
-- uses on Windows. Writes "ok <step>" lines and PASS to $QUIRE_RESULT.
local harness = dofile(vim.fn.fnamemodify(debug.getinfo(1, "S").source:sub(2), ":p:h") .. "/harness.lua")
harness.open(assert(os.getenv("QUIRE_RESULT"), "QUIRE_RESULT"))
local log, check = harness.log, harness.check
local step = "start"

local function ok(name)
  log("ok " .. name)
end

local function wait(ms, cond, what)
  check(vim.wait(ms, cond, 20), "timed out after " .. ms .. " ms waiting for " .. what)
end

local messages = {}
vim.notify = function(msg, level)
  table.insert(messages, { msg = msg, level = level or vim.log.levels.INFO })
end

local function main()
  local base = assert(os.getenv("QUIRE_RELEASE_URL"))
  local bad = assert(os.getenv("QUIRE_BAD_RELEASE_URL"))
  local book = assert(os.getenv("QUIRE_BOOK"))
  local install = require("quire.install")
  local util = require("quire.util")

  step = "paths"
  -- VS Code lowers the drive letter, Neovim keeps it, separators differ.
  check(util.relative([[c:\Users\Zoë\My Novel\manuscript\01.md]], [[C:\Users\Zoë\My Novel]], true) == "manuscript/01.md",
    "a Windows path under its root, drive letter in either case")
  check(util.relative("C:/Users/Zoë/My Novel/codex/x.md", "c:/users/zoë/my novel/", true) == "codex/x.md", "slashes and case")
  check(util.relative("C:/Users/Zoë/My Novels/x.md", "C:/Users/Zoë/My Novel", true) == nil, "a sibling folder is not inside")
  check(util.relative("/home/z/Book/x.md", "/home/z/book", false) == nil, "Linux paths keep their case")
  check(util.relative("/home/z/book/x.md", "/home/z/book", false) == "x.md", "Linux path inside")
  ok(step)

  step = "command"
  check(vim.fn.exists(":Quire") == 2, ":Quire exists before setup()")
  check(vim.fn.executable("quire") == 0, "no quire on PATH for this test")
  check(install.installed() == nil, "nothing installed yet")
  ok(step)

  step = "bad-checksum"
  vim.cmd("Quire install " .. bad)
  local last = messages[#messages]
  check(last and last.level == vim.log.levels.ERROR and last.msg:find("does not match the release's checksum", 1, true)
    and last.msg:find("nothing was installed", 1, true), "message: " .. vim.inspect(last))
  check(install.installed() == nil, "a bad download installed a binary")
  local left = vim.fn.glob(install.dir() .. "/*", false, true)
  check(#left == 0, "a bad download left files: " .. vim.inspect(left))
  ok(step)

  step = "install"
  vim.cmd("Quire install " .. base)
  last = messages[#messages]
  check(last and last.level == vim.log.levels.INFO and last.msg:find("installed quire " .. install.version, 1, true),
    "message: " .. vim.inspect(last))
  local bin = install.installed()
  check(bin == vim.fn.stdpath("data") .. "/quire/bin/quire", "installed at " .. tostring(bin))
  check(vim.fn.filereadable(install.dir() .. "/LICENSE") == 1, "the licence beside it")
  ok(step)

  step = "runs-installed"
  local quire = require("quire")
  quire.setup({})
  vim.cmd("edit " .. vim.fn.fnameescape(book .. "/manuscript/01-thirteen-strokes.md"))
  local buf = vim.api.nvim_get_current_buf()
  local compat = require("quire.compat")
  wait(10000, function()
    return #compat.get_clients({ bufnr = buf, name = "quire" }) > 0
  end, "the quire client to attach")
  local client = compat.get_clients({ bufnr = buf, name = "quire" })[1]
  check(client.config.cmd[1] == bin, "client runs " .. vim.inspect(client.config.cmd))
  local lnum, col = harness.name_at(buf, "Teodora Quill")
  check(lnum, "no line mentions Teodora Quill")
  local hover = harness.hover_at(buf, lnum, col, 20000)
  check(hover, "no hover on Teodora Quill")
  check(hover:find("Teodora Quill", 1, true), "hover: " .. hover)
  ok(step)
end

harness.run(main, function()
  return step
end)
