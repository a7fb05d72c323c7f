// Package snapshot keeps every version of a book's chapters outside the
// book, so that nothing a writer wrote is lost: a paragraph deleted last
// week, a chapter file removed by mistake.
//
// # The store
//
// One file per book, store.log in the book's snapshot folder (in the
// user data folder, beside the writing history), written only by
// appending records and replaced whole only by Prune. Each record is
//
//	"QSNP" | length (uint32, little endian) | CRC-32C of the payload | payload
//
// and is one of two kinds:
//
//   - a piece: one paragraph of a chapter (its text up to and with the
//     blank lines after it), its SHA-256 and the text compressed with
//     DEFLATE, under a number of its own. A paragraph is stored once,
//     however many versions hold it: a thousand saves of a chapter with
//     one paragraph changed each time store the chapter once and the
//     thousand changed paragraphs.
//   - a version: a chapter's path, time, name (empty for an automatic
//     one), word counts and its pieces. The pieces are written as the
//     previous version of the same chapter with a run in the middle
//     replaced (a few bytes for a one-paragraph edit), and in full every
//     checkpointEvery versions, so a damaged record costs at most the
//     versions up to the next full one. A version may also say the
//     chapter was deleted.
//
// # Safety
//
// A record is appended and synced under a lock file shared with other
// quire processes (codex/filelock), after reading what they appended.
// A write cut off by a crash or a full disk leaves a tail that fails its
// length or CRC: the next open ignores it, cuts it off, and says so. A
// damaged record in the middle (a disk's bit rot) is skipped: the reader
// finds the next record by its "QSNP" mark and CRC, so every other
// version stays readable. Prune writes a whole new file and replaces the
// old one (codex/safefile), never editing in place.
//
// # Retention
//
// Prune keeps every version for a week, then the last of each day for
// three months, then the last of each week; a named version, and the
// latest of each chapter, are kept forever (Policy).
package snapshot
