-- :Quire models: choose a model a server on this computer runs (Ollama,
-- LM Studio, llama.cpp, vLLM). The server lists them (quire/models) and
-- writes the choice into the writer's own config.yaml (quire.useModel);
-- with no quire client running, `quire models` does both.
local compat = require("quire.compat")
local util = require("quire.util")

local M = {}

M.NONE = "no model server answers on this computer (Ollama at port 11434, LM Studio at 1234, llama.cpp at 8080, "
  .. "vLLM at 8000). Start one (for Ollama: `ollama serve`, then `ollama pull llama3.2`) and run :Quire models again, "
  .. "or name a provider in setup({ settings = { provider = { base_url = …, model = … } } })."

local function label(m)
  return string.format("%s  (%s, %s)", m.model or "?", m.server or "?", m.baseURL or "?")
end

-- shadowed says what hides the choice: a provider in setup()'s settings
-- comes before config.yaml.
local function shadowed()
  local p = (require("quire").config.settings or {}).provider
  if type(p) == "table" and (p.base_url or p.model) then
    return " Your setup() settings name a provider, which comes before config.yaml: remove settings.provider there "
      .. "(or set it to this model) for the choice to apply."
  end
  return ""
end

-- pick lets the writer choose among models, then calls use(model, index).
local function pick(models, use)
  if type(models) ~= "table" or #models == 0 then
    util.notify(M.NONE, vim.log.levels.WARN)
    return
  end
  vim.ui.select(models, {
    prompt = "Model for quire's advisor (runs on this computer, needs no key):",
    format_item = label,
  }, function(choice, idx)
    if choice then
      use(choice, idx)
    end
  end)
end

local function with_client(client)
  compat.request(client, "quire/models", vim.empty_dict(), function(err, models)
    if err then
      util.notify("could not list the models on this computer: " .. util.format_error(err), vim.log.levels.ERROR)
      return
    end
    pick(models, function(m)
      compat.request(client, "workspace/executeCommand", {
        command = "quire.useModel",
        arguments = { { baseURL = m.baseURL, model = m.model } },
      }, function(uerr)
        -- The server tells the writer of the change itself
        -- (window/showMessage); only a refusal and a shadowing setup()
        -- are said here.
        if uerr then
          util.notify("the model was not chosen: " .. util.format_error(uerr), vim.log.levels.ERROR)
        elseif shadowed() ~= "" then
          util.notify(vim.trim(shadowed()), vim.log.levels.WARN)
        end
      end)
    end)
  end)
end

local function with_cli()
  local bin = require("quire.lsp").server_cmd()[1]
  if vim.fn.executable(bin) ~= 1 then
    util.notify("no quire binary to ask for the models: run :Quire install, or open a chapter of your book first",
      vim.log.levels.ERROR)
    return
  end
  local out = vim.fn.system({ bin, "models", "--json" })
  if vim.v.shell_error ~= 0 then
    util.notify("quire models failed: " .. vim.trim(out), vim.log.levels.ERROR)
    return
  end
  local ok, models = pcall(compat.json_decode, out)
  if not ok then
    util.notify("quire models answered something unreadable: " .. vim.trim(out):sub(1, 200), vim.log.levels.ERROR)
    return
  end
  pick(models, function(_, idx)
    local res = vim.fn.system({ bin, "models", "--use", tostring(idx) })
    if vim.v.shell_error ~= 0 then
      util.notify("the model was not chosen: " .. vim.trim(res), vim.log.levels.ERROR)
      return
    end
    util.notify(vim.trim(res) .. shadowed())
  end)
end

-- command is :Quire models.
function M.command()
  local client = require("quire.lsp").client_for(0)
  if client then
    with_client(client)
  else
    with_cli()
  end
end

return M
