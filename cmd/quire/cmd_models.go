package main

import (
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/quire-ink/quire/codex/settings"
	"github.com/quire-ink/quire/llm/localmodel"
)

func newModelsCommand(g *globalOptions) *cobra.Command {
	var use string
	cmd := &cobra.Command{
		Use:   "models [--use N|MODEL]",
		Short: "List the models of the servers running on this computer (Ollama, LM Studio, …) and choose one",
		Long: `quire asks the local servers at their usual ports for their models:
Ollama (11434, or where OLLAMA_HOST says), LM Studio (1234), llama.cpp
(8080) and vLLM (8000), and lists what it finds. A model on your own computer needs no key, and
nothing you write leaves the computer.

--use N (the number in the list) or --use MODEL writes that model into
your own settings (config.yaml in your user config folder, never the
book's quire.yaml), keeping the rest of the file; every book then asks it.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			found := localmodel.Find(cmd.Context(), g.localModels())
			if use != "" {
				return g.useModel(found, use)
			}
			if g.JSON {
				if found == nil {
					found = []localmodel.Model{}
				}
				return writeJSON(g.stdout, found)
			}
			if len(found) == 0 {
				fmt.Fprintln(g.stdout, noLocalModels)
				return nil
			}
			fmt.Fprint(g.stdout, modelList(found))
			fmt.Fprintln(g.stdout, "Choose one with: quire models --use N")
			return nil
		},
	}
	cmd.Flags().StringVar(&use, "use", "", "write this model (its number in the list, or its name) into your own config.yaml")
	return cmd
}

// noLocalModels says what to do when no local server answered.
const noLocalModels = "No model server answers on this computer (Ollama at 127.0.0.1:11434 or where OLLAMA_HOST says, LM Studio at :1234, llama.cpp at :8080, vLLM at :8000). " +
	"Start one (for Ollama: ollama serve, then ollama pull llama3.2) and run quire models again, or name a provider in your config.yaml."

// modelList numbers the models for --use.
func modelList(found []localmodel.Model) string {
	var b strings.Builder
	for i, m := range found {
		fmt.Fprintf(&b, "%2d  %-28s %s (%s)\n", i+1, m.Model, m.Server, m.BaseURL)
	}
	return b.String()
}

// localModels are where quire looks for local servers: the usual ports,
// moved by OLLAMA_HOST or replaced by QUIRE_LOCAL_MODELS
// (localmodel.ServersFromEnv), or the test's servers. A value it cannot
// read is said on stderr, and the usual ports are asked.
func (g *globalOptions) localModels() localmodel.Options {
	if g.localServers != nil {
		return localmodel.Options{Servers: g.localServers}
	}
	servers, err := localmodel.ServersFromEnv(os.Getenv)
	if err != nil {
		fmt.Fprintf(g.stderr, "quire: %v; the usual ports are asked instead\n", err)
	}
	return localmodel.Options{Servers: servers}
}

// useModel writes the model choice names into the writer's config.yaml.
func (g *globalOptions) useModel(found []localmodel.Model, choice string) error {
	if len(found) == 0 {
		return fmt.Errorf("%s", noLocalModels)
	}
	var chosen *localmodel.Model
	if n, err := strconv.Atoi(choice); err == nil {
		if n < 1 || n > len(found) {
			return fmt.Errorf("there is no model %d: choose a number from 1 to %d in the list quire models prints", n, len(found))
		}
		chosen = &found[n-1]
	} else {
		for i := range found {
			if found[i].Model == choice {
				chosen = &found[i]
				break
			}
		}
		if chosen == nil {
			return fmt.Errorf("no local server offers a model %q; the models found are:\n%s", choice, strings.TrimRight(modelList(found), "\n"))
		}
	}
	path, err := settings.UserConfigPath()
	if err != nil {
		return err
	}
	if err := localmodel.Use(path, *chosen); err != nil {
		return err
	}
	fmt.Fprintf(g.stdout, "Every book now asks %s on %s (%s); written to %s.\n", chosen.Model, chosen.Server, chosen.BaseURL, path)
	return nil
}
