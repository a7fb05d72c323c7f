package main

import (
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"time"
)

// openerWait is how long quire waits to hear that the desktop's opener
// failed: xdg-open and open end as soon as they have handed the file
// on, with an error status when nothing could take it. One that is still
// running by then is taken to be showing the file.
const openerWait = 3 * time.Second

// openWithSystem hands path to the desktop's opener (xdg-open, open or
// explorer), which shows it in the writer's browser, word processor or
// e-reader. It returns why it could not, for the writer to read, or "".
func openWithSystem(path string) string {
	name, args := "xdg-open", []string{path}
	switch runtime.GOOS {
	case "darwin":
		name = "open"
	case "windows":
		name, args = "rundll32", []string{"url.dll,FileProtocolHandler", path}
	default:
		// Over SSH, in a text console or a container there is no
		// desktop to show anything on; xdg-open would fail, or start a
		// text browser in this terminal.
		if os.Getenv("DISPLAY") == "" && os.Getenv("WAYLAND_DISPLAY") == "" {
			return "there is no display to open it on (neither DISPLAY nor WAYLAND_DISPLAY is set, as over SSH or in a text console)"
		}
	}
	bin, err := exec.LookPath(name)
	if err != nil {
		return fmt.Sprintf("%s is not installed, so quire has nothing to open it with", name)
	}
	cmd := exec.Command(bin, args...)
	if err := cmd.Start(); err != nil {
		return fmt.Sprintf("%s did not start (%v)", name, err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			return fmt.Sprintf("%s could not open it (%v)", name, err)
		}
	case <-time.After(openerWait):
		// Still handing it on: the goroutine reaps it when it ends, so
		// that no zombie outlives the command.
	}
	return ""
}
