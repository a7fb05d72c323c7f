// Zed starts language servers only through extensions; this one starts
// `quire serve` for Markdown and hands it the writer's settings.
use zed_extension_api::{self as zed, serde_json, settings::LspSettings, LanguageServerId, Result};

struct Quire;

impl zed::Extension for Quire {
    fn new() -> Self {
        Quire
    }

    fn language_server_command(
        &mut self,
        id: &LanguageServerId,
        worktree: &zed::Worktree,
    ) -> Result<zed::Command> {
        let binary = LspSettings::for_worktree(id.as_ref(), worktree)
            .ok()
            .and_then(|s| s.binary);
        let path = binary
            .as_ref()
            .and_then(|b| b.path.clone())
            .or_else(|| worktree.which("quire"))
            .ok_or_else(|| {
                "quire is not on PATH: install it with `go install github.com/quire-ink/quire/cmd/quire@latest`, \
                 or set lsp.quire.binary.path in Zed's settings"
                    .to_string()
            })?;
        let args = binary
            .and_then(|b| b.arguments)
            .unwrap_or_else(|| vec!["serve".to_string()]);
        Ok(zed::Command {
            command: path,
            args,
            // The provider's key is read from the variable the settings
            // name, so the server needs the writer's shell environment.
            env: worktree.shell_env(),
        })
    }

    fn language_server_initialization_options(
        &mut self,
        id: &LanguageServerId,
        worktree: &zed::Worktree,
    ) -> Result<Option<serde_json::Value>> {
        Ok(LspSettings::for_worktree(id.as_ref(), worktree)
            .ok()
            .and_then(|s| s.initialization_options))
    }

    fn language_server_workspace_configuration(
        &mut self,
        id: &LanguageServerId,
        worktree: &zed::Worktree,
    ) -> Result<Option<serde_json::Value>> {
        Ok(LspSettings::for_worktree(id.as_ref(), worktree)
            .ok()
            .and_then(|s| s.settings)
            .map(|settings| serde_json::json!({ "quire": settings })))
    }
}

zed::register_extension!(Quire);
