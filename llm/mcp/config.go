package mcp

import (
	"errors"
	"fmt"
	"os"
	"regexp"
	"strings"
	"time"
)

// The mcp_servers section of quire.yaml, read and checked apart from the
// pool that uses it, so that a bad entry is reported with its line before
// anything is started.

// serverNamePattern keeps namespaced tool names within NewRegistry's
// pattern, which allows no dashes or upper case.
var serverNamePattern = regexp.MustCompile(`^[a-z0-9_]+$`)

// ServerConfig is one entry of quire.yaml's mcp_servers: a stdio server
// (Command, with Args and Env) or a streamable HTTP server (URL), exactly
// one of the two.
type ServerConfig struct {
	// Name is the server's key in mcp_servers, [a-z0-9_]+.
	Name    string
	Command string
	Args    []string
	// Env is added to quire's environment for a stdio server. A value may
	// refer to quire's environment as ${VAR}, expanded when the server
	// starts (so a key stays out of quire.yaml).
	Env map[string]string
	URL string
	// Timeout bounds connecting and each call; zero is DefaultTimeout.
	Timeout time.Duration
}

// ValidServerName reports whether name may key an MCP server: at most
// MaxServerName lower-case letters, digits and underscores.
func ValidServerName(name string) bool {
	return serverNamePattern.MatchString(name) && len(name) <= MaxServerName
}

// ValidEnvName reports whether name is an environment variable's name.
func ValidEnvName(name string) bool { return envNamePattern.MatchString(name) }

func (c ServerConfig) timeout() time.Duration {
	if c.Timeout <= 0 {
		return DefaultTimeout
	}
	return c.Timeout
}

// check reports what makes c unusable.
func (c ServerConfig) check() error {
	if !ValidServerName(c.Name) {
		return fmt.Errorf("MCP server name %q: use at most %d lower-case letters, digits and underscores", c.Name, MaxServerName)
	}
	switch {
	case c.Command == "" && c.URL == "":
		return fmt.Errorf("MCP server %s: give a command or a url", c.Name)
	case c.Command != "" && c.URL != "":
		return fmt.Errorf("MCP server %s: give a command or a url, not both", c.Name)
	}
	return nil
}

var (
	envNamePattern = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
	envRefPattern  = regexp.MustCompile(`\$\{([^}]*)\}`)
)

// CheckEnvRefs verifies that every ${ in s opens a reference to a variable.
func CheckEnvRefs(s string) error {
	rest := s
	for {
		i := strings.Index(rest, "${")
		if i < 0 {
			return nil
		}
		rest = rest[i+2:]
		j := strings.IndexByte(rest, '}')
		if j < 0 {
			return errors.New("${ is not closed by }")
		}
		if !ValidEnvName(rest[:j]) {
			return fmt.Errorf("${%s} does not name an environment variable", rest[:j])
		}
		rest = rest[j+1:]
	}
}

// expandEnvRefs replaces each ${VAR} in s by the variable's value (empty
// when unset) and reports the names that were unset. Nothing else in s is
// touched, so a value with a bare $ passes as written.
func expandEnvRefs(s string) (string, []string) {
	var missing []string
	out := envRefPattern.ReplaceAllStringFunc(s, func(ref string) string {
		name := ref[2 : len(ref)-1]
		v, ok := os.LookupEnv(name)
		if !ok {
			missing = append(missing, name)
		}
		return v
	})
	return out, missing
}
