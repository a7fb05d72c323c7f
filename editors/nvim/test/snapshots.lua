-- Snapshots in a headless Neovim: run by snapshots_test.go against a
-- real quire server on the sample book. The writer deletes a paragraph
-- and saves; :QuireSnapshots lists the chapter's versions, and the one
-- picked opens beside the chapter as a read-only diff split; do in the
-- chapter takes the paragraph back, and :w keeps it. Then :QuireRestore
-- puts the whole older version back as one edit. Writes "ok <step>"
-- lines and PASS to $QUIRE_RESULT; the first failure writes "FAIL
-- <step>: <why>".
local harness = dofile(vim.fn.fnamemodify(debug.getinfo(1, "S").source:sub(2), ":p:h") .. "/harness.lua")
harness.open(assert(os.getenv("QUIRE_RESULT"), "QUIRE_RESULT"))
local log, check = harness.log, harness.check

local step = "start"

local function versions(buf)
  local client = require("quire.lsp").client_for(buf)
  local res = require("quire.compat").request_sync(client, "workspace/executeCommand",
    { command = "quire.snapshotList", arguments = { { uri = vim.uri_from_bufnr(buf) } } }, 10000, buf)
  return res and res.result and res.result.versions or {}
end

local function main()
  local chapter = assert(os.getenv("QUIRE_CHAPTER"), "QUIRE_CHAPTER")
  local lost = assert(os.getenv("QUIRE_PARAGRAPH"), "QUIRE_PARAGRAPH")

  step = "attach"
  local buf = harness.attach(chapter)
  check(vim.wait(15000, function()
    return #versions(buf) >= 1
  end, 100), "the chapter as it was opened is not kept")
  log("ok " .. step)

  -- The paragraph is deleted and the chapter saved.
  step = "delete-and-save"
  local row = harness.find(buf, lost)
  check(row, "the chapter has no line " .. lost)
  vim.api.nvim_buf_set_lines(buf, row, row + 2, false, {})
  vim.cmd("write")
  check(vim.wait(15000, function()
    return #versions(buf) >= 2
  end, 100), "the save is not kept")
  log("ok " .. step)

  -- :QuireSnapshots, the older version picked: a diff split.
  step = "diff-split"
  local offered
  vim.ui.select = function(items, opts, on_choice)
    offered = {}
    for _, it in ipairs(items) do
      table.insert(offered, opts.format_item(it))
    end
    on_choice(items[2])
  end
  vim.cmd("QuireSnapshots")
  local snap
  check(vim.wait(10000, function()
    for _, w in ipairs(vim.api.nvim_list_wins()) do
      local b = vim.api.nvim_win_get_buf(w)
      if vim.api.nvim_buf_get_name(b):find("quire-snapshot://", 1, true) then
        snap = b
        return true
      end
    end
    return false
  end, 50), "no snapshot buffer opened")
  check(offered and #offered >= 2 and offered[2]:find("+", 1, true), "the list offered " .. vim.inspect(offered))
  check(not vim.bo[snap].modifiable, "the snapshot is read-only")
  check(vim.wo[vim.fn.bufwinid(snap)].diff and vim.wo[vim.fn.bufwinid(buf)].diff, "both windows are in diff mode")
  local text = table.concat(vim.api.nvim_buf_get_lines(snap, 0, -1, false), "\n")
  check(text:find(lost, 1, true), "the snapshot lacks the paragraph")
  log("ok " .. step)

  -- In the chapter, at the change: do, then :w.
  step = "diffget"
  vim.api.nvim_set_current_win(vim.fn.bufwinid(buf))
  vim.api.nvim_win_set_cursor(0, { row + 1, 0 })
  vim.cmd("diffget")
  vim.cmd("write")
  local now = table.concat(vim.fn.readfile(chapter), "\n")
  check(now:find(lost, 1, true), "the paragraph is not back in the file")
  check(vim.wait(15000, function()
    return #versions(buf) >= 3
  end, 100), "the paragraph taken back is not kept")
  log("ok " .. step)

  -- :QuireRestore puts a whole version back, as one edit.
  step = "restore"
  vim.cmd("diffoff!")
  vim.api.nvim_win_close(vim.fn.bufwinid(snap), true)
  vim.api.nvim_buf_set_lines(buf, 0, -1, false, { "# Gone", "", "Everything else was cut." })
  vim.cmd("write")
  check(vim.wait(15000, function()
    return #versions(buf) >= 4
  end, 100), "the cut is not kept")
  vim.ui.select = function(items, _, on_choice)
    on_choice(items[2])
  end
  vim.cmd("QuireRestore")
  check(vim.wait(10000, function()
    return table.concat(vim.api.nvim_buf_get_lines(buf, 0, -1, false), "\n"):find(lost, 1, true) ~= nil
  end, 50), "the chapter is not restored: " .. table.concat(vim.api.nvim_buf_get_lines(buf, 0, 3, false), " / "))
  log("ok " .. step)
end

harness.run(main, function()
  return step
end)
