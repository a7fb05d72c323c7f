package main

import (
	"fmt"
	"os/exec"
	"runtime"
)

// openInBrowser hands path to the desktop's opener (xdg-open, open or
// explorer) and does not wait for the browser. It returns why it could
// not, for the writer to read, or "".
func openInBrowser(path string) string {
	name, args := "xdg-open", []string{path}
	switch runtime.GOOS {
	case "darwin":
		name = "open"
	case "windows":
		name, args = "rundll32", []string{"url.dll,FileProtocolHandler", path}
	}
	bin, err := exec.LookPath(name)
	if err != nil {
		return fmt.Sprintf("%s is not installed, so quire cannot open a browser", name)
	}
	cmd := exec.Command(bin, args...)
	if err := cmd.Start(); err != nil {
		return fmt.Sprintf("%s did not start (%v)", name, err)
	}
	// The opener hands the page to the browser and ends; reap it in the
	// background so that no zombie outlives the command.
	go func() { _ = cmd.Wait() }()
	return ""
}
