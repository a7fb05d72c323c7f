package main

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"runtime/pprof"

	"github.com/spf13/cobra"

	"github.com/quire-ink/quire/llm/keys"
	"github.com/quire-ink/quire/llm/localmodel"
	"github.com/quire-ink/quire/llm/provider"
)

// globalOptions are the flags every command shares.
type globalOptions struct {
	Project  string
	JSON     bool
	Verbose  bool
	CacheDir string
	// CPUProfile, when set, receives a pprof CPU profile of the command.
	CPUProfile string
	stdin      io.Reader
	stdout     io.Writer
	stderr     io.Writer
	// settingsSources, when set, say where a book's settings files are
	// read from (tests count the reads).
	settingsSources settingsSourcesFunc
	// keys is where API keys are stored; nil is the system keychain and
	// the key file (keys.Default). Tests give a mock keychain.
	keys *keys.Store
	// localServers are the local model servers `quire models` and the
	// advisor's hints ask; nil is localmodel.DefaultServers. Tests give
	// their own.
	localServers []localmodel.Server
}

// keyStore is where the writer's API keys are stored.
func (g *globalOptions) keyStore() *keys.Store {
	if g.keys == nil {
		return keys.Default()
	}
	return g.keys
}

func newRootCommand(stdin io.Reader, stdout, stderr io.Writer) *cobra.Command {
	return newRoot(&globalOptions{stdin: stdin, stdout: stdout, stderr: stderr})
}

// newRoot is the quire command with its shared options g.
func newRoot(g *globalOptions) *cobra.Command {
	stdin, stdout, stderr := g.stdin, g.stdout, g.stderr
	root := &cobra.Command{
		Use:   "quire",
		Short: "Canon, continuity and an advisor board for novels written in Markdown",
		Long: `quire indexes a book project's codex (characters, places, organizations,
items, concepts, events, style rules) and manuscript, and serves them to
your editor as a language server or to you on the command line.`,
		SilenceUsage:  true,
		SilenceErrors: true,
		Version:       readBuildInfo().String(),
	}
	// --version prints the line as it is, for a writer to paste into a bug.
	root.SetVersionTemplate("{{.Version}}\n")
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	pf := root.PersistentFlags()
	pf.StringVarP(&g.Project, "project", "p", "", "book project folder (default: the nearest folder upwards with quire.yaml, codex/ or manuscript/)")
	pf.BoolVar(&g.JSON, "json", false, "print machine-readable JSON")
	pf.BoolVarP(&g.Verbose, "verbose", "v", false, "log details to stderr")
	pf.StringVar(&g.CacheDir, "cache-dir", "", "where to keep the index (default: the user cache folder)")
	_ = pf.MarkHidden("cache-dir")
	pf.StringVar(&g.CPUProfile, "profile-cpu", "", "write a CPU profile to this file")
	_ = pf.MarkHidden("profile-cpu")
	var stopProfile func()
	root.PersistentPreRunE = func(*cobra.Command, []string) error {
		var err error
		stopProfile, err = g.startProfile()
		return err
	}
	root.PersistentPostRun = func(*cobra.Command, []string) {
		if stopProfile != nil {
			stopProfile()
		}
	}

	root.AddCommand(
		newIndexCommand(g),
		newLookupCommand(g),
		newSearchCommand(g),
		newListCommand(g),
		newContextCommand(g),
		newMentionsCommand(g),
		newSnapshotCommand(g),
		newUntrackedCommand(g),
		newDialogueCommand(g),
		newOutlineCommand(g),
		newExplicateCommand(g),
		newServeCommand(g),
		newAskCommand(g),
		newEvalCommand(g),
		newInitCommand(g),
		newGenCorpusCommand(g),
		newMCPCommand(g),
		newCheckCommand(g),
		newTrustCommand(g),
		newKeyCommand(g),
		newDoctorCommand(g),
		newModelsCommand(g),
		newMapCommand(g),
		newStatsCommand(g),
		newBuildCommand(g),
	)
	return root
}

// startProfile starts CPU profiling when --profile-cpu is set.
func (g *globalOptions) startProfile() (func(), error) {
	if g.CPUProfile == "" {
		return nil, nil
	}
	f, err := os.Create(g.CPUProfile)
	if err != nil {
		return nil, fmt.Errorf("cpu profile: %w", err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("cpu profile: %w", err)
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}, nil
}

func (g *globalOptions) logger() *slog.Logger {
	level := slog.LevelWarn
	if g.Verbose {
		level = slog.LevelDebug
	}
	// Debug logs may carry provider request bodies: prose and keys are
	// redacted on the way out.
	return slog.New(provider.NewRedactingHandler(slog.NewTextHandler(g.stderr, &slog.HandlerOptions{Level: level})))
}

// projectDir is the --project folder, or the nearest folder upwards from
// the working directory that looks like a book project, or the working
// directory itself.
func (g *globalOptions) projectDir() (string, error) {
	if g.Project != "" {
		return g.Project, nil
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", fmt.Errorf("find project: %w", err)
	}
	for dir := wd; ; {
		for _, marker := range []string{"quire.yaml", "codex", "manuscript"} {
			if _, err := os.Stat(filepath.Join(dir, marker)); err == nil {
				return dir, nil
			} else if !errors.Is(err, os.ErrNotExist) {
				return "", fmt.Errorf("find project: %w", err)
			}
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return wd, nil
		}
		dir = parent
	}
}
