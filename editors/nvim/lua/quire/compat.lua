-- Feature detection for Neovim 0.7 through 0.11. Every API newer than 0.7
-- is reached through here, so the rest of the plugin reads the same on all
-- versions and 0.7 never touches a missing function.
local M = {}

local function has(v)
  return vim.fn.has("nvim-" .. v) == 1
end
M.has = has

-- 0.11 made client methods take self (client:request) and deprecated the
-- dot form; older versions only have the dot form.
local colon = has("0.11")

-- Before 0.10 a hover float shows Markdown as source: a link to an
-- entry is its whole file:// URL, wrapping over lines. 0.10 draws the
-- float with Treesitter, which hides the URL behind the link's text.
M.raw_links_in_floats = not has("0.10")

function M.request(client, method, params, handler, bufnr)
  if colon then
    return client:request(method, params, handler, bufnr)
  end
  return client.request(method, params, handler, bufnr)
end

-- request_sync returns { err, result }, or nil and why when the server
-- did not answer within timeout_ms.
function M.request_sync(client, method, params, timeout_ms, bufnr)
  if colon then
    return client:request_sync(method, params, timeout_ms, bufnr)
  end
  return client.request_sync(method, params, timeout_ms, bufnr)
end

function M.notify(client, method, params)
  if colon then
    return client:notify(method, params)
  end
  return client.notify(method, params)
end

function M.cancel_request(client, id)
  if colon then
    return client:cancel_request(id)
  end
  return client.cancel_request(id)
end

function M.is_stopped(client)
  if colon then
    return client:is_stopped()
  end
  return client.is_stopped()
end

-- vim.lsp.get_clients (0.10) replaced get_active_clients (deprecated in
-- 0.10, gone later).
function M.get_clients(filter)
  filter = filter or {}
  if vim.lsp.get_clients then
    return vim.lsp.get_clients(filter)
  end
  local out = {}
  if filter.bufnr then
    for _, c in pairs(vim.lsp.buf_get_clients(filter.bufnr)) do
      if not filter.name or c.name == filter.name then
        table.insert(out, c)
      end
    end
    return out
  end
  for _, c in ipairs(vim.lsp.get_active_clients()) do
    if not filter.name or c.name == filter.name then
      table.insert(out, c)
    end
  end
  return out
end

-- apply_workspace_edit takes the offset encoding as a second argument since
-- 0.7; quire always speaks UTF-16.
function M.apply_workspace_edit(edit)
  return vim.lsp.util.apply_workspace_edit(edit, "utf-16")
end

local json_decode = (vim.json and vim.json.decode) or vim.fn.json_decode
function M.json_decode(s)
  return json_decode(s)
end

return M
