package manuscript

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"unicode"
	"unsafe"

	"github.com/quire-ink/quire/codex"
)

// ErrPathRefused means a reference named a file quire will not read: one
// outside the project, hidden, or not Markdown. References come from a
// model or a plugin, so anything that could leave the project is refused
// before the file system is touched, not cleaned into something else.
var ErrPathRefused = errors.New("path refused")

// MaxUnitBytes bounds a manuscript file quire reads; a larger one is
// refused rather than loaded whole.
const MaxUnitBytes = 16 << 20

var percentEscape = regexp.MustCompile(`%[0-9A-Fa-f]{2}`)
var driveLetter = regexp.MustCompile(`^[A-Za-z]:`)

// checkRelPath validates a project-relative path as a reference gives it
// and returns its clean, slash-separated form. A reference comes from a
// model or a plugin: forms that are not plain paths (URL-encoded, a URL,
// backslashes, control characters) are refused rather than guessed at.
func checkRelPath(ref string) (string, error) {
	refuse := func(why string) (string, error) {
		return "", fmt.Errorf("%w: %q %s", ErrPathRefused, ref, why)
	}
	p := strings.TrimSpace(ref)
	switch {
	case strings.ContainsFunc(p, unicode.IsControl):
		return refuse("contains control characters")
	case strings.Contains(p, "\\"):
		return refuse("uses backslashes; write project-relative paths with /")
	case percentEscape.MatchString(p):
		return refuse("is URL-encoded; give the plain project-relative path")
	case strings.Contains(p, "://") || strings.HasPrefix(strings.ToLower(p), "file:"):
		return refuse("is a URL; give a project-relative path")
	case strings.HasPrefix(p, "~"):
		return refuse("points into a home folder; give a path relative to the project")
	}
	return checkFilePath(p)
}

// checkFilePath validates the project-relative path of a file as the
// disk or the editor names it (a chapter found, a document opened) and
// returns its clean form. The name is real, so "07-ch%20#?.md" is that
// file, not an escape to decode; only what would leave the project or
// reach what quire never reads is refused.
func checkFilePath(rel string) (string, error) {
	refuse := func(why string) (string, error) {
		return "", fmt.Errorf("%w: %q %s", ErrPathRefused, rel, why)
	}
	p := rel
	switch {
	case strings.TrimSpace(p) == "":
		return refuse("is empty")
	case strings.HasPrefix(p, "/"), driveLetter.MatchString(p):
		return refuse("is absolute; give a path relative to the project")
	}
	for _, seg := range strings.Split(p, "/") {
		switch {
		case seg == "..":
			return refuse("climbs out with ..")
		case seg != "." && strings.HasPrefix(seg, "."):
			return refuse("names a hidden file or folder")
		}
	}
	clean := strings.TrimPrefix(path.Clean(p), "./")
	if clean == "." || !codex.IsMarkdown(clean) {
		return refuse("is not a Markdown file")
	}
	return clean, nil
}

// openInside opens the file at the checked relative path rel, following
// symlinks only while they stay inside root, and returns its text and
// the SHA-256 of its bytes (the chapter cache's key). A missing file
// returns an error wrapping fs.ErrNotExist.
//
// The bytes are read once, into the string kept: a book of four million
// words is 24 MB of text, and reading it through a growing buffer and
// then copying it into a string allocated five times that.
//
// dirs, when set, resolves the folders of one reading of the chapters
// (realDirs).
//
// known, when set, may give the sum for the file's stamp (a start that
// answers first: chapterCache.stampSum); the bytes are then not hashed,
// and trusted says so.
func openInside(root, rel string, dirs *realDirs, known func(codex.FileStamp) ([sha256.Size]byte, bool)) (string, [sha256.Size]byte, codex.FileStamp, bool, error) {
	var sum [sha256.Size]byte
	var stamp codex.FileStamp
	full := filepath.Join(root, filepath.FromSlash(rel))
	real, info, err := dirs.resolve(full)
	if err != nil {
		return "", sum, stamp, false, readError(rel, err)
	}
	if !within(root, real) {
		return "", sum, stamp, false, fmt.Errorf("%w: %q leads outside the project", ErrPathRefused, rel)
	}
	if !info.Mode().IsRegular() {
		return "", sum, stamp, false, fmt.Errorf("%w: %q is not a regular file", ErrPathRefused, rel)
	}
	if info.Size() > MaxUnitBytes {
		return "", sum, stamp, false, tooLargeError(rel, info.Size())
	}
	stamp = codex.StampOf(info)
	f, err := os.Open(real)
	if err != nil {
		return "", sum, stamp, false, readError(rel, err)
	}
	defer f.Close()
	// Read straight into a buffer of the file's size (and a little more,
	// so that a file that grew since the stat is seen to), then hashed in
	// one call: a warm start reads every chapter this way.
	data := make([]byte, 0, info.Size()+512)
	for {
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)]
		}
		n, err := f.Read(data[len(data):cap(data)])
		data = data[:len(data)+n]
		if len(data) > MaxUnitBytes {
			return "", sum, stamp, false, tooLargeError(rel, int64(len(data)))
		}
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return "", sum, stamp, false, readError(rel, err)
		}
	}
	trusted := false
	if known != nil {
		sum, trusted = known(stamp)
	}
	if !trusted {
		sum = sha256.Sum256(data)
	}
	// A chapter saved as UTF-16 (Notepad's "Unicode") is read as text.
	data = codex.DecodeText(data)
	if bytes.IndexByte(data[:min(len(data), binarySniff)], 0) >= 0 {
		// Not text: handed on, its NULs would reach the advisor as prose.
		return "", sum, stamp, false, &UnreadableError{Path: rel, Code: codex.CodeBinary, err: ErrPathRefused,
			Reason: "this chapter looks binary (it holds NUL bytes), not Markdown, so quire leaves it out of the manuscript. If it is text saved as UTF-16 without a byte-order mark, save it again as UTF-8"}
	}
	// data is never written again: the text shares its bytes.
	return unsafe.String(unsafe.SliceData(data), len(data)), sum, stamp, trusted, nil
}

// binarySniff is how much of a file is looked at for a NUL byte, as git
// does to tell binary from text.
const binarySniff = 8000

// UnreadableError is a chapter quire found but does not read, with the
// reason said for the writer. It wraps ErrPathRefused.
type UnreadableError struct {
	Path   string
	Code   string // a codex problem code: too-large, binary
	Reason string
	err    error
}

func (e *UnreadableError) Error() string { return fmt.Sprintf("%s: %s", e.Path, e.Reason) }
func (e *UnreadableError) Unwrap() error { return e.err }

func tooLargeError(rel string, size int64) error {
	return &UnreadableError{Path: rel, Code: codex.CodeTooLarge, err: ErrPathRefused,
		Reason: fmt.Sprintf("this chapter is %.1f MB, over quire's %d MB limit for one chapter, so quire leaves it out of the manuscript; split it into several chapters", float64(size)/(1<<20), MaxUnitBytes>>20)}
}

// unreadableProblem is the problem the writer is shown for a chapter
// found on disk that could not be read; false for one that is simply
// gone (deleted since it was found).
func unreadableProblem(rel string, err error) (codex.Problem, bool) {
	if errors.Is(err, fs.ErrNotExist) {
		return codex.Problem{}, false
	}
	p := codex.Problem{Path: rel, Code: codex.CodeUnreadable, Severity: codex.SeverityError}
	var ue *UnreadableError
	switch {
	case errors.As(err, &ue):
		p.Code, p.Message = ue.Code, ue.Reason
	case errors.Is(err, ErrPathRefused):
		// Refused for where it leads or what it is (a link out of the
		// book, a socket): discovery passes over such files without a
		// word, and so does a change event.
		return codex.Problem{}, false
	default:
		cause := err
		var pe *fs.PathError
		if errors.As(err, &pe) {
			cause = pe.Err
		} else if u := errors.Unwrap(err); u != nil {
			cause = u
		}
		p.Message = fmt.Sprintf("quire cannot read this chapter (%v), so it is left out of the manuscript; check that the file can be opened and is not locked by another program", cause)
	}
	return p, true
}

// readError reports a failed read by the project-relative path alone:
// the message may reach the model, and where the project lies on disk
// (a home folder, a user name) is none of its business. The cause stays
// wrapped, so errors.Is(err, fs.ErrNotExist) still holds.
func readError(rel string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return fmt.Errorf("read %s: %w", rel, err)
}

// realDirs remembers the symlink-free paths of the folders met while the
// chapters are read once (Manuscript.Reload): 800 chapters in one folder
// then cost one lstat each instead of one per element of their path,
// which was a third of reading them. A nil realDirs resolves every path
// in full.
type realDirs struct {
	mu sync.Mutex
	m  map[string]string
}

func newRealDirs() *realDirs { return &realDirs{m: map[string]string{}} }

// resolve is the symlink-free path of the file at full and its info (the
// target's, when full is a link).
func (d *realDirs) resolve(full string) (string, os.FileInfo, error) {
	if d != nil {
		dir, err := d.dir(filepath.Dir(full))
		if err != nil {
			return "", nil, err
		}
		info, err := os.Lstat(full)
		if err != nil {
			return "", nil, err
		}
		if info.Mode()&fs.ModeSymlink == 0 {
			return filepath.Join(dir, filepath.Base(full)), info, nil
		}
		// A link is followed in full, as without the cache.
	}
	real, err := filepath.EvalSymlinks(full)
	if err != nil {
		return "", nil, err
	}
	info, err := os.Stat(real)
	if err != nil {
		return "", nil, err
	}
	return real, info, nil
}

func (d *realDirs) dir(dir string) (string, error) {
	d.mu.Lock()
	real, ok := d.m[dir]
	d.mu.Unlock()
	if ok {
		return real, nil
	}
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return "", err
	}
	d.mu.Lock()
	d.m[dir] = real
	d.mu.Unlock()
	return real, nil
}
