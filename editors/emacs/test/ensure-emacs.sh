#!/bin/sh
# Installs Debian's emacs-nox and elpa-eglot (Emacs 28 and eglot 1.9 on
# bookworm) when eglot does not load in the emacs on PATH, so that the
# eglot end-to-end test has its editor on a machine that starts with Go
# alone. Uses sudo when not root.
set -eu
# An empty home, so no init file of the machine's user takes part.
home=$(mktemp -d)
trap 'rm -rf "$home"' EXIT
loads() {
	command -v emacs >/dev/null 2>&1 &&
		HOME=$home emacs --batch --eval "(progn (package-initialize) (require 'eglot))" >/dev/null 2>&1
}
if ! loads; then
	echo "installing Debian's emacs-nox and elpa-eglot for the Emacs test"
	sudo=""
	[ "$(id -u)" = 0 ] || sudo="sudo"
	$sudo apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq emacs-nox elpa-eglot >/dev/null
	loads || { echo "eglot still does not load in emacs" >&2; exit 1; }
fi
emacs --version | head -1
