-- :Quire <subcommand> and the :Quire<Name> commands exist as soon as
-- the plugin is on the runtime path, before setup(): `:Quire install`
-- can be a plugin manager's build step, and any other command run before
-- setup() sets quire up with its defaults (lua/quire/commands.lua).
if vim.g.loaded_quire then
  return
end
vim.g.loaded_quire = true

require("quire.commands").define()
