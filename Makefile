# quire — make targets. `make test` is what CI runs (.ci/run).

GO       ?= go
BIN      := bin/quire
PKGS     := ./...
# Short fuzz runs for `make fuzz`; raise FUZZTIME for a deeper search.
FUZZTIME ?= 10s
# `make bench` runs every benchmark; narrow it with BENCH=Lookup.
BENCH    ?= .
BENCHTIME ?= 1s

.PHONY: all build install release release-tools release-archives cross-vet test e2e vet fmt-check unit unprivileged windows windows-tools editors chromium keyring buildcheck nvim emacs helix nvim-versions helix-versions vscode vscode-e2e vsix vsix-servers vsix-package vsix-check bench bench-names bench-dialogue perf start-bench scale scale-series fuzz demo clean

all: build

build:
	$(GO) build -o $(BIN) ./cmd/quire

install:
	$(GO) install ./cmd/quire

# The release a writer downloads, in dist/: an archive per system
# (quire_<version>_<os>_<arch>.tar.gz, .zip for Windows, unpacking into
# one folder of that name) with the binary, the README and the pages it
# leads to, the Neovim plugin and LICENSE; a VS Code extension per system
# with the same binary inside (and a universal one without); and
# checksums.txt over them all. The same commit gives the same bytes
# (cmd/release says how; TestReleaseIsReproducible and make vsix-check
# check it). make release needs Go, Node.js and npm (the extension's
# packages come from npm ci); it says so before building anything.
release-archives:
	rm -rf dist
	GO=$(GO) $(GO) run ./cmd/release build -o dist

release-tools:
	@for tool in node npm; do command -v $$tool >/dev/null || { 		echo "make release needs Go, Node.js and npm: $$tool is not on PATH (the VS Code extension is built with them)." >&2; exit 1; }; done

release: release-tools release-archives
	$(MAKE) vsix-package
	$(GO) run ./cmd/release checksums dist
	@ls -l dist

# CI machines start with Go, Node.js and npm only: `make test` installs
# the editors its end-to-end tests drive (Debian's neovim, emacs-nox with
# elpa-eglot, tmux for Helix, which is unpacked from Debian trixie by the
# test, Chromium for the book map's rendering test) and the VS Code
# extension's npm packages. `make e2e` runs VS Code
# itself (code-server in Chromium); .ci/run runs both.
test: vet cross-vet fmt-check editors chromium keyring buildcheck unit unprivileged windows nvim-versions helix-versions vscode

e2e: vscode-e2e

vet:
	$(GO) vet $(PKGS)

# quire ships for macOS and Windows too: every package, tests included,
# must build and pass vet there (the Windows tests also run under Wine).
cross-vet:
	GOOS=darwin GOARCH=arm64 $(GO) vet $(PKGS)
	GOOS=windows GOARCH=amd64 $(GO) vet $(PKGS)

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

# The QUIRE_REQUIRE_* variables make each editor's end-to-end test fail,
# not skip, when its editor cannot start, and the full- and read-only-disk
# tests fail when they cannot mount their small tmpfs (CI runs as root);
# QUIRE_REQUIRE_CHROMIUM does the same for the book map's rendering test,
# QUIRE_REQUIRE_KEYRING for the keychain test's Secret Service, and
# QUIRE_REQUIRE_BUILDCHECK for the quire build tests' epubcheck, soffice
# and poppler-utils (CI set has the same effect there).
unit:
	QUIRE_REQUIRE_NVIM=1 QUIRE_REQUIRE_EMACS=1 QUIRE_REQUIRE_HELIX=1 QUIRE_REQUIRE_MOUNT=1 QUIRE_REQUIRE_CHROMIUM=1 QUIRE_REQUIRE_KEYRING=1 QUIRE_REQUIRE_BUILDCHECK=1 $(GO) test -race -count=1 $(PKGS)

# Reading is never refused to root, so the tests of unreadable chapters
# and folders skip under `make unit` in CI. They run again here as
# nobody (setpriv), where permissions bind, and QUIRE_REQUIRE_UNREADABLE=1
# turns a skip into a failure.
UNREADABLE_TESTS := ^Test(Discover|Refresh)Unreadable
unprivileged:
	@tmp=$$(mktemp -d) && chmod 755 "$$tmp" && mkdir -m 777 "$$tmp/home" && \
	$(GO) test -c -race -o "$$tmp/manuscript.test" ./manuscript && chmod 755 "$$tmp/manuscript.test" && \
	as="" && { [ "$$(id -u)" != 0 ] || as="setpriv --reuid=65534 --regid=65534 --clear-groups"; } && \
	cd "$$tmp" && status=0 && \
	HOME="$$tmp/home" TMPDIR="$$tmp/home" XDG_CACHE_HOME="$$tmp/home/cache" XDG_CONFIG_HOME="$$tmp/home/config" \
		QUIRE_REQUIRE_UNREADABLE=1 $$as "$$tmp/manuscript.test" -test.run '$(UNREADABLE_TESTS)' -test.count=1 -test.v \
		>"$$tmp/out" 2>&1 || status=$$?; \
	grep -E '^(--- |ok|FAIL|PASS)|Error|panic' "$$tmp/out"; rm -rf "$$tmp"; exit $$status

# Every test that is not about one editor, built for windows/amd64 and
# run under Debian's Wine 8.0 (editors/test/wine: a private Wine prefix,
# a forwarding bcryptprimitives.dll built with mingw-w64, and an overlay
# that lets os.RemoveAll work in Wine 8.0); make cross-vet vets them.
# cmd/release is left out: it builds the release on the CI machine with
# git and go, neither of which runs under Wine.
# The staleness test times a start against issue 44's second: it runs
# after the others, alone, because go test runs two packages at once and
# under Wine every process shares one wineserver, so the server
# package's tests beside it made a 0.5 s start take 1.2 s; settle.sh
# waits first for the suite's last Wine processes to end.
WINDOWS_PKGS := ./codex/... ./manuscript/... ./llm/... ./server/... ./cmd/quire/...
WINDOWS_ALONE := ^TestAStartShowsWhatChangedWhileQuireWasNotRunning$$
windows: windows-tools
	GO=$(GO) editors/test/wine/go-test.sh -count=1 -timeout 45m -skip '$(WINDOWS_ALONE)' $(WINDOWS_PKGS)
	editors/test/wine/settle.sh
	GO=$(GO) editors/test/wine/go-test.sh -count=1 -timeout 5m -run '$(WINDOWS_ALONE)' -v ./cmd/quire/

# Debian's wine64 and the mingw-w64 C compiler for the Windows tests.
windows-tools:
	@{ [ -x /usr/lib/wine/wine64 ] || command -v wine64 >/dev/null 2>&1; } && command -v x86_64-w64-mingw32-gcc >/dev/null 2>&1 || { \
		echo "installing Debian's wine64 and gcc-mingw-w64-x86-64-win32 for the Windows tests"; \
		sudo=""; [ "$$(id -u)" = 0 ] || sudo="sudo"; \
		$$sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -qq wine64 gcc-mingw-w64-x86-64-win32 >/dev/null; }

editors: nvim emacs helix

# Debian's Chromium renders the book map to PNG in its test (headless).
chromium:
	@command -v chromium >/dev/null 2>&1 || { \
		echo "installing Debian's chromium for the book map test"; \
		sudo=""; [ "$$(id -u)" = 0 ] || sudo="sudo"; \
		$$sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -qq chromium >/dev/null; }

# The programs that open what quire build writes, for its tests: Debian's
# epubcheck (the EPUB validator), LibreOffice's writer (soffice turns the
# DOCX into a PDF) and poppler-utils (pdftotext, pdffonts, pdfinfo and
# pdftoppm read that PDF).
buildcheck:
	@command -v epubcheck >/dev/null 2>&1 && command -v soffice >/dev/null 2>&1 && command -v pdftotext >/dev/null 2>&1 || { \
		echo "installing Debian's epubcheck, libreoffice-writer-nogui and poppler-utils for the quire build tests"; \
		sudo=""; [ "$$(id -u)" = 0 ] || sudo="sudo"; \
		$$sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -qq epubcheck libreoffice-writer-nogui poppler-utils >/dev/null; }

# Debian's gnome-keyring (a Secret Service) and dbus-run-session for the
# test that stores a key in a real keychain (quire key set, then ask).
keyring:
	@command -v gnome-keyring-daemon >/dev/null 2>&1 && command -v dbus-run-session >/dev/null 2>&1 || { \
		echo "installing Debian's gnome-keyring and dbus for the keychain test"; \
		sudo=""; [ "$$(id -u)" = 0 ] || sudo="sudo"; \
		$$sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -qq gnome-keyring dbus >/dev/null; }

# Debian's Emacs 28 and eglot 1.9 for the eglot end-to-end test.
emacs:
	@editors/emacs/test/ensure-emacs.sh

# tmux drives Helix; curl fetches trixie's hx for the test to unpack.
helix:
	@command -v tmux >/dev/null 2>&1 && command -v curl >/dev/null 2>&1 || { \
		echo "installing Debian's tmux and curl for the Helix test"; \
		sudo=""; [ "$$(id -u)" = 0 ] || sudo="sudo"; \
		$$sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -qq tmux curl >/dev/null; }

nvim:
	@command -v nvim >/dev/null 2>&1 || { \
		echo "installing Debian's neovim for the Neovim plugin test"; \
		sudo=""; [ "$$(id -u)" = 0 ] || sudo="sudo"; \
		$$sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -qq neovim >/dev/null; }
	@nvim --version | head -1
	@command -v curl >/dev/null 2>&1 || { \
		sudo=""; [ "$$(id -u)" = 0 ] || sudo="sudo"; \
		$$sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -qq curl >/dev/null; }

# The plugin's end-to-end tests again on the Neovim of other Debian
# releases (unpacked in a temporary folder): trixie's 0.10 and sid's
# newest (0.11+, where lsp/quire.lua is tested with vim.lsp.enable);
# `make nvim-versions NVIM_SUITES=trixie` for one.
NVIM_SUITES ?= trixie sid
nvim-versions: nvim
	editors/nvim/test/other-versions.sh $(NVIM_SUITES)

# The Helix test again on sid's Helix (25.07), which opens the answer
# document itself; `unit` ran it on trixie's 25.01.
HELIX_SUITES ?= sid
helix-versions: helix
	@for suite in $(HELIX_SUITES); do echo "== helix $$suite"; \
		QUIRE_REQUIRE_HELIX=1 QUIRE_HELIX_SUITE=$$suite $(GO) test -count=1 -run TestHelix ./editors/helix/ || exit 1; done

# The extension's contract test runs its protocol code against the real
# server (QUIRE_BIN); QUIRE_REQUIRE_CONTRACT makes it fail, not skip, without one.
vscode: build
	cd editors/vscode && npm ci --no-audit --no-fund && npm run compile && npm run lint && \
		QUIRE_BIN="$(CURDIR)/$(BIN)" QUIRE_REQUIRE_CONTRACT=1 npm test

# The extension's .vsix files in dist/: one per VS Code target with the
# quire server inside (quire-vscode-<target>-<version>.vsix) and one
# universal without a server (quire-vscode-<version>.vsix), packaged by
# editors/vscode/build/vsix.mjs from the release's own builds in
# dist/build/<os>_<arch>/, so a .vsix carries the very binary of the
# archive beside it. `make vsix` makes those builds first (cmd/release);
# `make release`, which made them already, runs `make vsix-package` before
# the checksums. `make vsix-check` packages everything twice and fails
# when a byte differs.
vsix: vsix-servers
	$(MAKE) vsix-package

vsix-servers:
	GO=$(GO) $(GO) run ./cmd/release build -o dist

vsix-package:
	cd editors/vscode && npm ci --no-audit --no-fund && npm run compile && \
		node build/vsix.mjs --out "$(CURDIR)/dist" --servers "$(CURDIR)/dist/build"

# Two builds in two folders, the second with every source file touched and
# a stricter umask; any .vsix that differs fails the check.
vsix-check: vsix-servers
	@set -e; tmp=$$(mktemp -d); trap 'rm -rf "$$tmp"' EXIT; \
	cd editors/vscode; npm ci --no-audit --no-fund; npm run compile; \
	node build/vsix.mjs --out "$$tmp/one" --servers "$(CURDIR)/dist/build"; \
	find README.md package.json .vscodeignore media src build -type f -exec touch {} +; \
	(umask 077; node build/vsix.mjs --out "$$tmp/two" --servers "$(CURDIR)/dist/build"); \
	n=0; for f in "$$tmp"/one/*.vsix; do n=$$((n+1)); \
		cmp "$$f" "$$tmp/two/$${f##*/}" || { echo "vsix-check: $${f##*/} differs between two builds"; exit 1; }; \
	done; \
	[ "$$n" -eq 9 ] || { echo "vsix-check: $$n .vsix files, not 9"; exit 1; }; \
	echo "vsix-check: the $$n .vsix files are byte-identical across two builds"

# The extension in a real VS Code: code-server 4.100.3 (installed from npm
# into editors/vscode/e2e) in Debian's Chromium, driven by playwright-core,
# with a screenshot of each step in $(QUIRE_ARTEFACTS) (default: a
# temporary folder the test names).
vscode-e2e:
	GO=$(GO) editors/vscode/e2e/test.sh

# Benchmarks write synthetic corpora (1k and 10k entries) to the user
# cache folder once and reuse them.
bench: bench-names bench-dialogue
	$(GO) test -run '^$$' -bench '$(BENCH)' -benchtime $(BENCHTIME) -timeout 60m $(PKGS)

# Names on real novels (manuscript/namebench): mention precision, recall
# and F1 against people's annotations of 100 public-domain novels, beside a
# case-sensitive grep of the same names, on 70 development excerpts and
# on 30 held out (never tuned on); untracked names' recall and
# precision with half the people left out; the name-spelling check's recall
# and precision on misspellings planted in Pride and Prejudice, and its
# warnings on the clean texts.
bench-names:
	$(GO) test -count=1 -v -run 'TestMentionsOnRealNovels|TestNameSpellingOn|TestUntrackedOnRealNovels' ./manuscript/namebench/

# Dialogue on real novels (manuscript/dialoguebench): utterance detection
# (strict precision, recall and F1), speaker accuracy by quotation type
# and the precision of the speakers quire is certain of, beside a regex
# and speech-verb baseline, with straight and curly quotes. LitBank's
# quotations always run; the Project Dialogism Novel Corpus, whose files
# state no licence, is read from a local clone that QUIRE_PDNC names
# (git clone https://github.com/Priya22/project-dialogism-novel-corpus;
# the folder holding data/) and skipped without one. QUIRE_PDNC_HELDOUT=1
# also scores the held-out novels (a measure, never for tuning);
# QUIRE_DIALOGUE_ERRORS=<folder> writes quire's errors there, novel by novel.
bench-dialogue:
	$(GO) test -count=1 -v -run 'TestDialogueOn' ./manuscript/dialoguebench/

# The scale table of docs/performance.md (Scale): first hover cold and
# warm from process start, quire index and quire mentions, peak memory, at
# 1k/10k entries and 1M/4M words; SCALE=10k-1M,10k-4M picks workloads.
SCALE ?=
scale:
	QUIRE_SCALE=$(SCALE) $(GO) test -run '^$$' -bench BenchmarkScale -benchtime 3x -timeout 90m ./cmd/quire/

# Issue 19: one quire serve holding two books that share a 10k-entry
# series against one book holding the same entries: peak RSS, live heap
# and the first hover of each book, cold and warm, from process start.
scale-series:
	$(GO) test -run '^$$' -bench BenchmarkSeries -benchtime 3x -timeout 60m ./cmd/quire/

# Issue 44: the start from process start, this build and OLD (a commit;
# by default the one before the second wave) side by side in one run:
# the warm first hover on the 4M-word series and its phases, the cold
# one at 10,000 entries, and 1,000 hovers from the first card at 1,000
# and 10,000 entries. The old build is made in a worktree under the
# build folder. Output goes to START_LOG as well.
OLD ?= 52e7c62
START_LOG ?= start.log
start-bench:
	@set -e; dir=$$(mktemp -d); trap 'git worktree remove --force $$dir/old >/dev/null 2>&1; rm -rf $$dir' EXIT; \
	git worktree add --detach -f $$dir/old $(OLD) >/dev/null 2>&1; \
	(cd $$dir/old && $(GO) build -o $$dir/quire-old ./cmd/quire); \
	$(GO) build -o $$dir/quire-new ./cmd/quire; \
	$(GO) test -c -o $$dir/quire.test ./cmd/quire/; \
	: > $(START_LOG); \
	run() { echo "== $$(date -u +%FT%TZ) load $$(cut -d' ' -f1-3 /proc/loadavg): $$*" | tee -a $(START_LOG); (cd cmd/quire && env "$$@") 2>&1 | tee -a $(START_LOG); }; \
	for b in new old; do run QUIRE_BENCH_BIN=$$dir/quire-$$b QUIRE_HOVER_CHAPTERS=800 $$dir/quire.test -test.run '^$$' -test.bench WarmStartHover -test.benchtime 5x -test.v; done; \
	for b in new old; do run QUIRE_BENCH_BIN=$$dir/quire-$$b $$dir/quire.test -test.run '^$$' -test.bench ColdStartHover -test.benchtime 3x -test.v; done; \
	for e in 1000 10000; do for b in new old; do run QUIRE_HOVER_ENTRIES=$$e QUIRE_BENCH_BIN=$$dir/quire-$$b $$dir/quire.test -test.run '^$$' -test.bench HoversFromStart -test.benchtime 3x -test.v; done; done

# The figures of docs/performance.md, from one run, in the order the
# document gives them, each benchmark with the run count the document
# names; the load average is printed before each. Output goes to
# PERF_LOG as well. The long scale runs are `make scale` and `make
# scale-series`.
PERF_LOG ?= perf.log
perf:
	@: > $(PERF_LOG)
	@set -e; run() { echo "== $$(date -u +%FT%TZ) load $$(cut -d' ' -f1-3 /proc/loadavg): $$*" | tee -a $(PERF_LOG); "$$@" 2>&1 | tee -a $(PERF_LOG); }; \
	run $(GO) test -run '^$$' -bench 'IndexCold|OpenWarm' -benchtime 5x -benchmem ./codex/; \
	run $(GO) test -run '^$$' -bench '^Benchmark(Lookup|Search)$$' -benchtime 20000x ./codex/; \
	run $(GO) test -run '^$$' -bench 'SaveToVisible' -benchtime 60x ./codex/; \
	run $(GO) test -run '^$$' -bench 'NaiveLookup' -benchtime 3x ./codex/; \
	run $(GO) test -run '^$$' -bench 'Matcher|Scan|Rescan|OpenManuscript|EditChapter' -benchtime 2s -benchmem ./manuscript/; \
	run $(GO) test -run '^$$' -bench 'Passages' -benchtime 3x ./manuscript/; \
	run $(GO) test -run '^$$' -bench 'Explicate' -benchtime 300x ./manuscript/; \
	run $(GO) test -run '^$$' -bench 'CountWords' -benchmem ./manuscript/; \
	run $(GO) test -run '^$$' -bench 'Observe' -benchmem ./manuscript/progress/; \
	run $(GO) test -run '^$$' -bench 'BenchmarkMap' -benchtime 10x ./manuscript/bookmap/; \
	run $(GO) test -run '^$$' -bench 'BenchmarkCheck$$' -benchtime 5x ./cmd/quire/; \
	run $(GO) test -run '^$$' -bench 'FirstHover' -benchtime 5x ./server/; \
	run $(GO) test -run '^$$' -bench '^BenchmarkHover$$|References|ChangeTo|SemanticTokensAfterEdit' -benchtime 150x -benchmem ./server/; \
	run $(GO) test -run '^$$' -bench 'CodeActions' -benchtime 1000x ./server/; \
	run $(GO) test -run '^$$' -bench 'CheckChapter' -benchtime 300x -benchmem ./manuscript/continuity/; \
	run $(GO) test -run '^$$' -bench 'AnalyzeNovel' -benchtime 2000x -benchmem ./manuscript/dialogue/; \
	run $(GO) test -run '^$$' -bench 'AttributeAfterEdit' -benchtime 5000x -benchmem ./manuscript/dialogue/; \
	run $(GO) test -run '^$$' -bench 'OutlineSeries|SceneSplitAfterEdit' -benchtime 20x -benchmem ./manuscript/outline/; \
	run $(GO) test -run '^$$' -bench 'SeriesSaveToDiagnostics' -benchtime 5x ./server/; \
	run $(GO) test -run '^$$' -bench 'AskOverhead' -benchtime 200x ./llm/; \
	run $(GO) test -run '^$$' -bench 'Build120k' -benchtime 5x ./manuscript/export/; \
	run $(GO) test -run '^$$' -bench 'Record|Year' -benchtime 200x ./manuscript/snapshot/

# Every fuzz target of every package, FUZZTIME each. A failing run is run
# once more: Go's fuzzer sometimes ends a short run with "context deadline
# exceeded" and no failing input, while a real failure is saved to
# testdata and fails the second run too.
fuzz:
	@set -e; for pkg in $$($(GO) list $(PKGS)); do \
		for target in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz' || true); do \
			echo "== $$pkg $$target"; \
			$(GO) test $$pkg -run '^$$' -fuzz "^$$target$$" -fuzztime $(FUZZTIME) || \
			$(GO) test $$pkg -run '^$$' -fuzz "^$$target$$" -fuzztime $(FUZZTIME); \
		done; \
	done

# The sample book in a temporary folder (its index in another), then the
# canon commands a writer would run first.
demo: build
	@set -e; tmp=$$(mktemp -d); trap 'rm -rf "$$tmp"' EXIT; \
	export XDG_CACHE_HOME="$$tmp/cache" XDG_DATA_HOME="$$tmp/data" XDG_DOCUMENTS_DIR="$$tmp/Documents"; mkdir -p "$$tmp/Documents"; \
	q="$(CURDIR)/$(BIN)"; book="$$tmp/the-thirteenth-bell"; \
	echo "\$$ quire init --sample $$book"; "$$q" init --sample "$$book"; echo; \
	cd "$$book"; \
	echo "\$$ quire index"; "$$q" index; echo; \
	echo "\$$ quire lookup \"Séverine's\""; "$$q" lookup "Séverine's"; echo; \
	echo "\$$ quire lookup teo --type character"; "$$q" lookup teo --type character | head -n 12; echo; \
	echo "\$$ quire lookup \"Harbour Tally\"   (one typo away)"; "$$q" lookup "Harbour Tally" | head -n 6; echo; \
	echo "\$$ quire search \"thirteenth stroke\""; "$$q" search "thirteenth stroke"; echo; \
	echo "\$$ quire list characters"; "$$q" list characters; echo; \
	echo "\$$ quire list items --json"; "$$q" list items --json; echo; \
	echo "\$$ quire context 3 --limit 600"; "$$q" context 3 --limit 600; echo; \
	echo "\$$ quire mentions"; "$$q" mentions; echo; \
	echo "\$$ quire mentions Séverine   (the chapters that mention her)"; "$$q" mentions Séverine; echo; \
	echo "\$$ quire untracked"; "$$q" untracked; echo; \
	echo "\$$ quire dialogue --chapter 1   (who speaks each line, and how quire decided; ? where it guesses)"; "$$q" dialogue --chapter 1; echo; \
	echo "\$$ quire outline --chapters 1-2   (the book as scenes: pov, day, status, words, who appears and speaks)"; "$$q" outline --chapters 1-2; echo; \
	echo "\$$ quire outline set 1 --scene 2 --status draft --synopsis \"Teo and Moss cross the dry causeway.\"   (the change, printed, never written)"; "$$q" outline set 1 --scene 2 --status draft --synopsis "Teo and Moss cross the dry causeway."; echo; \
	echo "\$$ quire explicate \"pale green eyes\"   (the codex says green; chapter 5 says brown)"; "$$q" explicate -n 3 "pale green eyes that seem to be totting up whatever they rest on"; echo; \
	echo "\$$ quire lookup --as-of 4 Jory   (canon as of chapter 4: his progressions up to there)"; "$$q" lookup --as-of 4 Jory | sed -n '/^As of/,$$p'; echo; \
	echo "\$$ quire check   (every problem quire knows, continuity and style included, with no model)"; "$$q" check || true; echo; \
	echo "\$$ quire map --json   (the book map: one HTML page in quire's cache folder)"; "$$q" map --json; echo; \
	echo "\$$ quire build   (the standard manuscript, a DOCX in the Documents folder, here the demo's own; --format epub for an e-book)"; "$$q" build; echo; \
	echo "\$$ quire snapshot list   (every version of every chapter, kept outside the book)"; "$$q" snapshot list; echo; \
	echo "\$$ quire doctor   (is quire ready: the book, its index, the model and its key, trust)"; "$$q" doctor || true; echo; \
	ask="ask --persona continuity-editor --doc manuscript/05-salt-debt.md"; \
	question="Are Séverine Aubrac's eyes the same in chapter 5 as in the codex?"; \
	if [ -n "$$QUIRE_BASE_URL" ] || [ -n "$$OPENAI_API_KEY" ]; then \
		flags=""; [ -n "$$QUIRE_BASE_URL" ] && flags="--base-url $$QUIRE_BASE_URL --model $${QUIRE_MODEL:?set QUIRE_MODEL too}"; \
		echo "\$$ quire $$ask -v $$flags \"$$question\""; "$$q" $$ask -v $$flags "$$question"; \
	else \
		echo "(No model is configured, so the advisor is not asked. Set OPENAI_API_KEY, or QUIRE_BASE_URL and"; \
		echo " QUIRE_MODEL for a local server such as Ollama, to hear the continuity editor. Here is the exact"; \
		echo " request it would send; the first message is the persona, the second only metadata, no prose.)"; \
		echo "\$$ quire $$ask --peek \"$$question\" | head -n 40"; "$$q" $$ask --peek "$$question" | head -n 40; \
	fi; echo; \
	echo "\$$ quire eval   (the advisor loop against a scripted model, not a real one)"; "$$q" eval

clean:
	rm -rf bin
