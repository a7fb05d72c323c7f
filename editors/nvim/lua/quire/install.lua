-- :Quire install: the quire binary for this system, without Go. Downloads
-- the release archive for the platform and checksums.txt from a base URL
-- (default: the project's release page), refuses an archive whose SHA-256
-- is not the one listed, and unpacks it under stdpath("data")/quire. The
-- plugin runs that binary when the writer set no `cmd` and `quire` is not
-- on PATH (lsp.lua).
local M = {}

local uv = vim.uv or vim.loop

-- version is the release this plugin goes with; a Go test holds it to
-- the server's (cmd/quire/version.go).
M.version = "0.3.0"

M.defaults = {
  -- {version} is replaced; a file:// or http://127.0.0.1 URL serves a
  -- mirror or a local build (`make release` writes dist/).
  base_url = "https://github.com/quire-ink/quire/releases/download/v{version}",
  version = M.version,
  -- nil: stdpath("data") .. "/quire".
  dir = nil,
}

local function is_windows()
  return vim.fn.has("win32") == 1
end

-- platform is the release name of this system: os and arch as Go names
-- them ("linux", "amd64").
function M.platform(uname)
  uname = uname or uv.os_uname()
  local sys = (uname.sysname or ""):lower()
  local os_name
  if sys:find("windows") or sys:find("mingw") then
    os_name = "windows"
  elseif sys == "darwin" then
    os_name = "darwin"
  elseif sys == "linux" then
    os_name = "linux"
  end
  local machine = (uname.machine or ""):lower()
  local arch
  if machine == "x86_64" or machine == "amd64" or machine == "x64" then
    arch = "amd64"
  elseif machine == "aarch64" or machine == "arm64" then
    arch = "arm64"
  end
  if not os_name or not arch then
    return nil, string.format("quire has no release build for this system (%s %s); build it from source with Go", uname.sysname or "?", uname.machine or "?")
  end
  return { os = os_name, arch = arch }
end

-- archive_name follows the release's names: quire_<version>_<os>_<arch>
-- .tar.gz, .zip on Windows.
function M.archive_name(version, p)
  return string.format("quire_%s_%s_%s%s", version, p.os, p.arch, p.os == "windows" and ".zip" or ".tar.gz")
end

function M.dir(opts)
  return (opts and opts.dir) or (vim.fn.stdpath("data") .. "/quire")
end

-- binary is where an installed quire lives.
function M.binary(opts)
  return M.dir(opts) .. "/bin/" .. (is_windows() and "quire.exe" or "quire")
end

-- installed is the installed binary's path when it is there.
function M.installed(opts)
  local p = M.binary(opts)
  if vim.fn.executable(p) == 1 then
    return p
  end
  return nil
end

-- expected finds name's SHA-256 in checksums.txt's text (sha256sum's
-- format: "<hex>  <name>").
function M.expected(checksums, name)
  for line in (checksums or ""):gmatch("[^\r\n]+") do
    local sum, file = line:match("^(%x+)%s+%*?(.-)%s*$")
    if sum and file == name and #sum == 64 then
      return sum:lower()
    end
  end
  return nil
end

local function run(argv)
  local out = vim.fn.system(argv)
  return vim.v.shell_error == 0, out
end

local function download(url, dest)
  if vim.fn.executable("curl") ~= 1 then
    return false, "curl is needed to download quire and was not found"
  end
  local ok, out = run({ "curl", "--fail", "--silent", "--show-error", "--location", "--output", dest, url })
  if not ok then
    return false, string.format("could not download %s: %s", url, vim.trim(out))
  end
  return true
end

-- sha256 of a file, with the tool each system has.
local function sha256(path)
  local tries = {
    { "sha256sum", path },
    { "shasum", "-a", "256", path },
    { "certutil", "-hashfile", path, "SHA256" },
  }
  for _, argv in ipairs(tries) do
    if vim.fn.executable(argv[1]) == 1 then
      local ok, out = run(argv)
      if ok then
        -- certutil prints the hash on its own line, older ones with spaces.
        for line in out:gmatch("[^\r\n]+") do
          local hex = line:gsub("%s", ""):match("^(%x+)")
          if hex and #hex == 64 then
            return hex:lower()
          end
          hex = line:match("^(%x+)%s")
          if hex and #hex == 64 then
            return hex:lower()
          end
        end
      end
    end
  end
  return nil, "no sha256sum, shasum or certutil to check the download with"
end

local function unpack(archive, dest)
  local argv
  if archive:match("%.zip$") and vim.fn.executable("unzip") == 1 then
    argv = { "unzip", "-q", "-o", archive, "-d", dest }
  elseif vim.fn.executable("tar") == 1 then
    -- Windows 10 and later ship a tar that reads zip too.
    argv = { "tar", "-xf", archive, "-C", dest }
  else
    return false, "tar is needed to unpack quire and was not found"
  end
  local ok, out = run(argv)
  if not ok then
    return false, "could not unpack " .. vim.fn.fnamemodify(archive, ":t") .. ": " .. vim.trim(out)
  end
  return true
end

local function rmdir(path)
  vim.fn.delete(path, "rf")
end

-- install downloads, checks and unpacks the release; returns the binary's
-- path, or nil and a message for the writer. Nothing is installed unless
-- the archive matches its checksum.
function M.install(opts)
  opts = vim.tbl_extend("force", M.defaults, opts or {})
  local p, why = M.platform(opts.uname)
  if not p then
    return nil, why
  end
  local base = opts.base_url:gsub("{version}", opts.version):gsub("/+$", "")
  local name = M.archive_name(opts.version, p)
  local dir = M.dir(opts)
  vim.fn.mkdir(dir, "p")
  local work = dir .. "/download-" .. tostring(uv.hrtime())
  vim.fn.mkdir(work, "p")
  local function fail(msg)
    rmdir(work)
    return nil, msg
  end
  local ok, err = download(base .. "/checksums.txt", work .. "/checksums.txt")
  if not ok then
    return fail(err)
  end
  local sums = table.concat(vim.fn.readfile(work .. "/checksums.txt"), "\n")
  local want = M.expected(sums, name)
  if not want then
    return fail(string.format("the release's checksums.txt lists no %s; nothing was installed", name))
  end
  local archive = work .. "/" .. name
  ok, err = download(base .. "/" .. name, archive)
  if not ok then
    return fail(err)
  end
  local got, herr = sha256(archive)
  if not got then
    return fail(herr .. "; nothing was installed")
  end
  if got ~= want then
    return fail(string.format("the download of %s does not match the release's checksum (expected %s, got %s); nothing was installed. Try again, or check the base URL", name, want, got))
  end
  local unpacked = work .. "/unpacked"
  vim.fn.mkdir(unpacked, "p")
  ok, err = unpack(archive, unpacked)
  if not ok then
    return fail(err)
  end
  local exe = p.os == "windows" and "quire.exe" or "quire"
  -- The archive holds one folder named after it; older releases held
  -- their files at the top.
  local stem = name:gsub("%.tar%.gz$", ""):gsub("%.zip$", "")
  local folder = unpacked .. "/" .. stem
  if vim.fn.filereadable(folder .. "/" .. exe) == 1 then
    unpacked = folder
  end
  if vim.fn.filereadable(unpacked .. "/" .. exe) ~= 1 then
    return fail(name .. " holds no " .. exe .. "; nothing was installed")
  end
  vim.fn.mkdir(dir .. "/bin", "p")
  local target = dir .. "/bin/" .. exe
  -- A running quire.exe cannot be replaced on Windows, but it can be
  -- renamed out of the way.
  if vim.fn.filereadable(target) == 1 then
    local old = target .. ".old"
    vim.fn.delete(old)
    vim.fn.rename(target, old)
  end
  if vim.fn.rename(unpacked .. "/" .. exe, target) ~= 0 then
    return fail("could not move quire into " .. dir .. "/bin")
  end
  if p.os ~= "windows" then
    uv.fs_chmod(target, 493) -- 0755
  end
  for _, doc in ipairs({ "README.md", "LICENSE" }) do
    if vim.fn.filereadable(unpacked .. "/" .. doc) == 1 then
      vim.fn.delete(dir .. "/" .. doc)
      vim.fn.rename(unpacked .. "/" .. doc, dir .. "/" .. doc)
    end
  end
  rmdir(work)
  return target
end

-- command is :Quire install [base_url].
function M.command(args)
  local opts = vim.deepcopy((require("quire").config or {}).install or {})
  if args and args ~= "" then
    opts.base_url = args
  end
  local path, err = M.install(opts)
  if not path then
    vim.notify("quire: " .. err, vim.log.levels.ERROR)
    return nil, err
  end
  local out = vim.fn.system({ path, "--version" })
  vim.notify("quire: installed " .. vim.trim(out) .. " at " .. path)
  return path
end

return M
