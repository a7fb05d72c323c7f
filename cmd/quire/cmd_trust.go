package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/quire-ink/quire/codex/trust"
	"github.com/quire-ink/quire/llm/endpoint"
)

// trustOptions configure `quire trust`.
type trustOptions struct {
	*globalOptions
	// Dir is the book; empty is --project or the book around the
	// working folder.
	Dir    string
	Revoke bool
}

func newTrustCommand(g *globalOptions) *cobra.Command {
	o := &trustOptions{globalOptions: g}
	cmd := &cobra.Command{
		Use:   "trust [--revoke] [DIR]",
		Short: "Let a book's own settings that reach beyond it (commands, keys) take effect",
		Long: `A book's quire.yaml may ask quire to run commands (mcp_servers), to send
the key held in one of your environment variables to a server it names
(provider.api_key_env with provider.base_url), or to read the canon of a
series folder outside the book (series). quire ignores those settings
until you trust the book: quire trust lists exactly what the book asks, and
records your trust outside the book, in your user config folder. When
quire.yaml changes any of them, the book must be trusted again.
--revoke takes the trust back.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				o.Dir = args[0]
			}
			return o.run()
		},
	}
	cmd.Flags().BoolVar(&o.Revoke, "revoke", false, "stop trusting the book")
	return cmd
}

func (o *trustOptions) run() error {
	dir := o.Dir
	if dir == "" {
		var err error
		if dir, err = o.projectDir(); err != nil {
			return err
		}
	}
	if info, err := os.Stat(dir); errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("the book folder %s does not exist", dir)
	} else if err != nil {
		return fmt.Errorf("trust: %w", err)
	} else if !info.IsDir() {
		return fmt.Errorf("trust: %s is not a folder", dir)
	}
	book, err := trust.Key(dir)
	if err != nil {
		return err
	}
	store, err := trust.Default()
	if err != nil {
		return err
	}
	if o.Revoke {
		return o.revoke(store, book)
	}
	reach, err := endpoint.ReadBookReach(book)
	if err != nil {
		return fmt.Errorf("%w (fix %s before trusting the book)", err, filepath.Join(book, "quire.yaml"))
	}
	wants := reach.Wants()
	if len(wants) > 0 {
		if err := store.Grant(book, wants.Hash(), wants.Lines()); err != nil {
			return err
		}
	}
	if o.JSON {
		return writeJSON(o.stdout, struct {
			Book    string   `json:"book"`
			Wants   []string `json:"wants"`
			Trusted bool     `json:"trusted"`
		}{book, nonNil(wants.Lines()), len(wants) > 0})
	}
	if len(wants) == 0 {
		fmt.Fprintf(o.stdout, "%s asks for nothing beyond the book: no command to run, no key to send. There is nothing to trust.\n", book)
		return nil
	}
	fmt.Fprintf(o.stdout, "You now trust %s. Its quire.yaml may make quire:\n", book)
	for _, l := range wants.Lines() {
		fmt.Fprintf(o.stdout, "  - %s\n", l)
	}
	fmt.Fprintf(o.stdout, "If quire.yaml changes any of these, quire asks again. To take the trust back: quire trust --revoke %s\n", book)
	return nil
}

func (o *trustOptions) revoke(store *trust.Store, book string) error {
	had, err := store.Revoke(book)
	if err != nil {
		return err
	}
	if o.JSON {
		return writeJSON(o.stdout, struct {
			Book    string `json:"book"`
			Revoked bool   `json:"revoked"`
		}{book, had})
	}
	if !had {
		fmt.Fprintf(o.stdout, "%s was not trusted; nothing changed.\n", book)
		return nil
	}
	fmt.Fprintf(o.stdout, "You no longer trust %s: quire ignores its settings that reach beyond the book again.\n", book)
	return nil
}

// trustStore is the record of the books the writer trusts; without one
// (no user config folder) no book is trusted.
func (g *globalOptions) trustStore() *trust.Store {
	store, err := trust.Default()
	if err != nil {
		fmt.Fprintf(g.stderr, "quire: %v; no book is trusted\n", err)
		return nil
	}
	return store
}
