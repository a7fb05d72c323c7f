package snapshot

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/quire-ink/quire/codex/settings"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// chapter writes a chapter of about words words in paragraphs of about
// fifty, the same for the same seed.
func chapter(seed uint64, words int) []string {
	r := rand.New(rand.NewPCG(seed, 7))
	vocab := strings.Fields("the harbor bell rang thirteen times and Teodora counted each stroke against the tally " +
		"while salt wind pulled at the shutters of the old lantern house where Moss kept his ledgers dry " +
		"nobody spoke of the wreck though every face on the quay turned toward the water when the light failed")
	var paras []string
	for n := 0; n < words; {
		k := 40 + r.IntN(20)
		var b strings.Builder
		for i := range k {
			if i > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(vocab[r.IntN(len(vocab))])
		}
		b.WriteString(".\n\n")
		paras = append(paras, b.String())
		n += k
	}
	return paras
}

func open(t *testing.T, dir string, now *time.Time) *Store {
	t.Helper()
	s, err := Open(dir, Options{Now: func() time.Time { return *now }})
	require.NoError(t, err)
	return s
}

func TestSplitJoinsToTheText(t *testing.T) {
	for _, text := range []string{"", "one", "one\n", "a\n\nb\n", "a\r\n\r\nb\r\n\r\n\r\nc", "\n\nlead\n\n", "x\n \t\ny", strings.Repeat("é", maxPieceBytes)} {
		pieces := Split(text)
		assert.Equal(t, text, strings.Join(pieces, ""), "%q", text)
		for _, p := range pieces {
			assert.LessOrEqual(t, len(p), maxPieceBytes)
		}
	}
	assert.Equal(t, []string{"a\n\n", "b\n"}, Split("a\n\nb\n"))
}

func TestRecordAndReadBack(t *testing.T) {
	now := time.Date(2026, 11, 2, 9, 0, 0, 0, time.UTC)
	s := open(t, t.TempDir(), &now)
	text := strings.Join(chapter(1, 500), "")
	v1, err := s.Record("manuscript/01.md", text, "")
	require.NoError(t, err)
	require.NotNil(t, v1)
	assert.Len(t, v1.ID, 8)
	assert.Positive(t, v1.Words)

	again, err := s.Record("manuscript/01.md", text, "")
	require.NoError(t, err)
	assert.Nil(t, again, "an unchanged text is not kept twice")

	now = now.Add(time.Hour)
	edited := strings.Replace(text, "harbor", "harbour quay", 1)
	v2, err := s.Record("manuscript/01.md", edited, "")
	require.NoError(t, err)
	require.NotNil(t, v2)
	assert.Equal(t, 2, v2.Added, "harbour quay")
	assert.Equal(t, 1, v2.Removed, "harbor")

	named, err := s.Record("manuscript/01.md", edited, "before the big rewrite")
	require.NoError(t, err)
	require.NotNil(t, named, "a named snapshot is kept even when nothing changed")

	for _, tc := range []struct {
		v    *Version
		want string
	}{{v1, text}, {v2, edited}, {named, edited}} {
		got, err := s.Text(tc.v)
		require.NoError(t, err)
		assert.Equal(t, tc.want, got)
	}
	// Another Store over the same folder reads the same.
	s2 := open(t, s.dir, &now)
	vs, err := s2.Versions("manuscript/01.md")
	require.NoError(t, err)
	require.Len(t, vs, 3)
	assert.Equal(t, []string{v1.ID, v2.ID, named.ID}, []string{vs[0].ID, vs[1].ID, vs[2].ID})
	assert.Equal(t, "before the big rewrite", vs[2].Name)
	got, err := s2.Text(vs[0])
	require.NoError(t, err)
	assert.Equal(t, text, got)
	found, err := s2.Find(v2.ID[:5])
	require.NoError(t, err)
	assert.Equal(t, v2.ID, found.ID)
}

func TestADeletedChapterIsFoundAndRead(t *testing.T) {
	now := time.Date(2026, 11, 2, 9, 0, 0, 0, time.UTC)
	s := open(t, t.TempDir(), &now)
	text := strings.Join(chapter(2, 300), "")
	v, err := s.Record("manuscript/07-gone.md", text, "")
	require.NoError(t, err)
	gone, err := s.RecordDeleted("manuscript/07-gone.md")
	require.NoError(t, err)
	require.NotNil(t, gone)
	latest, err := s.Latest()
	require.NoError(t, err)
	assert.True(t, latest["manuscript/07-gone.md"].Deleted)
	before, err := s.Before(gone)
	require.NoError(t, err)
	assert.Equal(t, v.ID, before.ID)
	got, err := s.Text(before)
	require.NoError(t, err)
	assert.Equal(t, text, got)
}

// TestAThousandSavesCostLittleMoreThanTheChapter is the target:
// 1,000 saves of a 5,000-word chapter with one paragraph changed each
// time store at most twice the chapter compressed, plus the changed
// paragraphs.
func TestAThousandSavesCostLittleMoreThanTheChapter(t *testing.T) {
	now := time.Date(2026, 11, 2, 9, 0, 0, 0, time.UTC)
	s := open(t, t.TempDir(), &now)
	paras := chapter(3, 5000)
	r := rand.New(rand.NewPCG(3, 3))
	changed, changedRaw := 0, 0
	for i := range 1000 {
		if i > 0 {
			k := r.IntN(len(paras))
			paras[k] = strings.Replace(paras[k], ".\n\n", fmt.Sprintf(" and then %d.\n\n", i), 1)
			changed += len(compress(paras[k]))
			changedRaw += len(paras[k])
		}
		now = now.Add(time.Minute)
		_, err := s.Record("manuscript/01.md", strings.Join(paras, ""), "")
		require.NoError(t, err)
	}
	st, err := s.Stats()
	require.NoError(t, err)
	whole := len(compress(strings.Join(paras, "")))
	t.Logf("store %d bytes for 1,000 versions; the chapter compressed is %d bytes; the changed paragraphs %d bytes, %d compressed one by one",
		st.Bytes, whole, changedRaw, changed)
	// The target: twice the chapter compressed, plus the changed
	// paragraphs (as written).
	assert.LessOrEqual(t, st.Bytes, int64(2*whole+changedRaw), "store size")
	assert.Equal(t, 1000, st.Versions)
	vs, err := s.Versions("manuscript/01.md")
	require.NoError(t, err)
	got, err := s.Text(vs[len(vs)-1])
	require.NoError(t, err)
	assert.Equal(t, strings.Join(paras, ""), got)
}

// storeWithHistory records a few versions and returns the store, its
// versions and their texts.
func storeWithHistory(t *testing.T, dir string) (*Store, []*Version, []string) {
	t.Helper()
	now := time.Date(2026, 11, 2, 9, 0, 0, 0, time.UTC)
	s := open(t, dir, &now)
	paras := chapter(4, 800)
	var vs []*Version
	var texts []string
	for i := range 6 {
		paras[i] = "Version " + fmt.Sprint(i) + " " + paras[i]
		text := strings.Join(paras, "")
		now = now.Add(time.Hour)
		v, err := s.Record("manuscript/01.md", text, "")
		require.NoError(t, err)
		vs, texts = append(vs, v), append(texts, text)
	}
	return s, vs, texts
}

// TestACutOffWriteLosesNothingEarlier cuts the store's file at every
// byte of its last write, as a crash mid-write leaves it: the next open
// says so, removes the tail, and reads every earlier version.
func TestACutOffWriteLosesNothingEarlier(t *testing.T) {
	dir := t.TempDir()
	_, _, texts := storeWithHistory(t, dir)
	data, err := os.ReadFile(filepath.Join(dir, FileName))
	require.NoError(t, err)
	// Where the last version's write began: the file as it was after
	// five versions.
	five := t.TempDir()
	storeWithHistory5(t, five)
	before, err := os.ReadFile(filepath.Join(five, FileName))
	require.NoError(t, err)
	require.True(t, bytes.HasPrefix(data, before))
	for cut := len(before) + 1; cut < len(data); cut += max(1, (len(data)-len(before))/40) {
		t.Run(fmt.Sprint(cut), func(t *testing.T) {
			d := t.TempDir()
			require.NoError(t, os.WriteFile(filepath.Join(d, FileName), data[:cut], 0o600))
			now := time.Now()
			s := open(t, d, &now)
			assert.Len(t, s.Repairs(), 1, "the cut is said")
			assert.Empty(t, s.Repairs(), "each repair is said once")
			vs, err := s.Versions("")
			require.NoError(t, err)
			require.Len(t, vs, 5)
			for i, v := range vs {
				got, err := s.Text(v)
				require.NoError(t, err)
				assert.Equal(t, texts[i], got)
			}
			info, err := os.Stat(filepath.Join(d, FileName))
			require.NoError(t, err)
			// The tail is removed; a whole piece record before it may
			// stay, unused until pruned.
			assert.GreaterOrEqual(t, info.Size(), int64(len(before)))
			assert.Less(t, info.Size(), int64(cut), "the tail is removed")
			// And the store goes on.
			_, err = s.Record("manuscript/01.md", texts[5], "")
			require.NoError(t, err)
		})
	}
}

func storeWithHistory5(t *testing.T, dir string) {
	t.Helper()
	now := time.Date(2026, 11, 2, 9, 0, 0, 0, time.UTC)
	s := open(t, dir, &now)
	paras := chapter(4, 800)
	for i := range 5 {
		paras[i] = "Version " + fmt.Sprint(i) + " " + paras[i]
		now = now.Add(time.Hour)
		_, err := s.Record("manuscript/01.md", strings.Join(paras, ""), "")
		require.NoError(t, err)
	}
}

// TestDamageInTheMiddleCostsOnlyWhatItHeld flips a byte inside each
// record in turn: the store reads every other record, says what it
// skipped, and a version that needs the damaged record is listed as
// damaged, never read wrongly. A damaged paragraph is lost to every
// version that holds it (a paragraph is kept once); a damaged version
// costs the versions written as changes to it, up to the next whole one.
func TestDamageInTheMiddleCostsOnlyWhatItHeld(t *testing.T) {
	dir := t.TempDir()
	_, _, texts := storeWithHistory(t, dir)
	data, err := os.ReadFile(filepath.Join(dir, FileName))
	require.NoError(t, err)
	sc := scan(data)
	require.Greater(t, len(sc.records), 6)
	for i, rec := range sc.records {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			bad := bytes.Clone(data)
			bad[rec.off+headerBytes+int64(len(rec.payload)/2)] ^= 0xff
			d := t.TempDir()
			require.NoError(t, os.WriteFile(filepath.Join(d, FileName), bad, 0o600))
			now := time.Now()
			s := open(t, d, &now)
			assert.NotEmpty(t, s.Repairs())
			vs, err := s.Versions("")
			require.NoError(t, err)
			for _, v := range vs {
				got, err := s.Text(v)
				if v.Damaged {
					assert.ErrorContains(t, err, "damaged")
					continue
				}
				require.NoError(t, err)
				assert.Contains(t, texts, got, "a version reads as one that was kept")
			}
			if rec.payload[0] == kindVersion {
				// The versions kept before the damaged one all read.
				v, err := decodeVersion(rec.payload)
				require.NoError(t, err)
				for _, o := range vs {
					if o.seq < v.seq {
						assert.False(t, o.Damaged, "version %d, before the damaged %d", o.seq, v.seq)
					}
				}
			}
		})
	}
}

// TestAFullDiskKeepsEveryEarlierSnapshot fails a write part way, as a
// full disk does: the error says so, the part is taken back, and the
// store goes on.
func TestAFullDiskKeepsEveryEarlierSnapshot(t *testing.T) {
	dir := t.TempDir()
	s, vs, texts := storeWithHistory(t, dir)
	s.appendFile = func(path string, data []byte) error {
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0o600)
		require.NoError(t, err)
		_, err = f.Write(data[:len(data)/2])
		require.NoError(t, err)
		require.NoError(t, f.Close())
		return syscall.ENOSPC
	}
	_, err := s.Record("manuscript/01.md", texts[0]+"more words", "")
	require.Error(t, err)
	assert.ErrorContains(t, err, "every earlier snapshot is intact")
	assert.True(t, errors.Is(err, syscall.ENOSPC))
	s.appendFile = nil
	now := time.Now()
	fresh := open(t, dir, &now)
	assert.Empty(t, fresh.Repairs(), "the part written was taken back")
	got, err := fresh.Versions("")
	require.NoError(t, err)
	require.Len(t, got, len(vs))
	v, err := s.Record("manuscript/01.md", texts[0]+"more words", "")
	require.NoError(t, err)
	require.NotNil(t, v)
	text, err := fresh.Text(v)
	require.NoError(t, err)
	assert.Equal(t, texts[0]+"more words", text, "a second store sees the first one's write")
}

// TestTwoStoresTakeTurns is two quire processes on one book: each sees
// what the other recorded, and no piece is counted twice.
func TestTwoStoresTakeTurns(t *testing.T) {
	dir := t.TempDir()
	now := time.Date(2026, 11, 2, 9, 0, 0, 0, time.UTC)
	a, b := open(t, dir, &now), open(t, dir, &now)
	paras := chapter(5, 600)
	for i := range 20 {
		paras[i%len(paras)] = fmt.Sprint(i) + " " + paras[i%len(paras)]
		s := a
		if i%2 == 1 {
			s = b
		}
		now = now.Add(time.Minute)
		_, err := s.Record("manuscript/01.md", strings.Join(paras, ""), "")
		require.NoError(t, err)
	}
	for _, s := range []*Store{a, b} {
		vs, err := s.Versions("manuscript/01.md")
		require.NoError(t, err)
		require.Len(t, vs, 20)
		got, err := s.Text(vs[19])
		require.NoError(t, err)
		assert.Equal(t, strings.Join(paras, ""), got)
		assert.Empty(t, s.Repairs())
	}
}

// TestRetentionKeepsAsBackupsDo records a version every four hours for
// 200 days
// and prunes: every version of the last week, one a day for three
// months, one a week before, the named one and the latest.
func TestRetentionKeepsAsBackupsDo(t *testing.T) {
	start := time.Date(2026, 1, 5, 0, 30, 0, 0, time.Local)
	now := start
	s := open(t, t.TempDir(), &now)
	paras := chapter(6, 400)
	var named *Version
	for h := range 200 * 6 {
		now = start.Add(time.Duration(h) * 4 * time.Hour)
		paras[h%len(paras)] = fmt.Sprint(h) + " " + paras[h%len(paras)]
		name := ""
		if h == 10 {
			name = "the first draft"
		}
		v, err := s.Record("manuscript/01.md", strings.Join(paras, ""), name)
		require.NoError(t, err)
		if name != "" {
			named = v
		}
	}
	latestText := strings.Join(paras, "")
	before, err := s.Stats()
	require.NoError(t, err)
	res, err := s.Prune(DefaultPolicy)
	require.NoError(t, err)
	vs, err := s.Versions("manuscript/01.md")
	require.NoError(t, err)
	week, daily, weekly := 0, 0, 0
	for _, v := range vs {
		switch age := now.Sub(v.Time); {
		case age < 7*24*time.Hour:
			week++
		case age < 90*24*time.Hour:
			daily++
		default:
			weekly++
		}
	}
	assert.Equal(t, 7*6, week, "every version of the last week")
	assert.InDelta(t, 83, daily, 1, "one a day for the rest of three months")
	assert.InDelta(t, 17, weekly, 2, "one a week before that, and the named one")
	assert.Equal(t, before.Versions-len(vs), res.Versions)
	assert.Less(t, res.After, res.Before)
	ids := map[string]bool{}
	for _, v := range vs {
		ids[v.ID] = true
	}
	assert.True(t, ids[named.ID], "a named version is kept forever")
	got, err := s.Text(vs[len(vs)-1])
	require.NoError(t, err)
	assert.Equal(t, latestText, got)
	// Every kept version still reads, and a reopened store agrees.
	again := open(t, s.dir, &now)
	vs2, err := again.Versions("")
	require.NoError(t, err)
	require.Len(t, vs2, len(vs))
	for _, v := range vs2 {
		_, err := again.Text(v)
		require.NoError(t, err, v.ID)
	}
}

func TestWordDiff(t *testing.T) {
	ops := WordDiff("The harbor bell rang.", "The harbour bell rang twice.")
	assert.Equal(t, []Op{{"=", "The "}, {"-", "harbor"}, {"+", "harbour"}, {"=", " bell rang"}, {"+", " twice"}, {"=", "."}}, ops)
	added, removed := Counts(ops)
	assert.Equal(t, 2, added)
	assert.Equal(t, 1, removed)
}

func TestHunksRestoreOneParagraph(t *testing.T) {
	old := "# One\n\nFirst.\n\nThe lost paragraph.\n\nThird.\n\nFourth, as it was.\n"
	now := "# One\n\nFirst.\n\nThird.\n\nFourth, rewritten.\n\nA new end.\n"
	hs := Hunks(now, old)
	require.Len(t, hs, 2)
	// Restoring each hunk alone puts back that paragraph only.
	at := strings.Index(now, "Third.")
	h, ok := HunkAt(hs, at)
	require.True(t, ok)
	assert.Equal(t, "# One\n\nFirst.\n\nThe lost paragraph.\n\nThird.\n\nFourth, rewritten.\n\nA new end.\n", now[:h.Start]+h.Old+now[h.End:])
	h, ok = HunkAt(hs, strings.Index(now, "rewritten"))
	require.True(t, ok)
	assert.Equal(t, "# One\n\nFirst.\n\nThird.\n\nFourth, as it was.\n", now[:h.Start]+h.Old+now[h.End:])
	_, ok = HunkAt(Hunks(now, now), 0)
	assert.False(t, ok)
}

func TestPolicyFrom(t *testing.T) {
	for _, tc := range []struct {
		yaml     string
		all, day int
		problem  string
	}{
		{"", 7, 90, ""},
		{"snapshots: {every_version_days: 14, daily_days: 180}\n", 14, 180, ""},
		{"snapshots: {every_version_days: 30}\n", 30, 90, ""},
		{"snapshots: {every_version_days: 120}\n", 120, 120, ""},
		{"snapshots: {every_version_days: none}\n", 7, 90, "whole number of days"},
		{"snapshots: {weekly: 3}\n", 7, 90, `unknown setting "weekly"`},
		{"snapshots: 3\n", 7, 90, "is a mapping"},
	} {
		f := settings.Parse("quire.yaml", []byte(tc.yaml))
		p, problems := PolicyFrom(&settings.Loaded{Book: f, User: &settings.File{}})
		assert.Equal(t, time.Duration(tc.all)*24*time.Hour, p.All, tc.yaml)
		assert.Equal(t, time.Duration(tc.day)*24*time.Hour, p.Daily, tc.yaml)
		if tc.problem == "" {
			assert.Empty(t, problems, tc.yaml)
		} else {
			require.Len(t, problems, 1, tc.yaml)
			assert.Contains(t, problems[0].Error(), tc.problem)
		}
	}
}

// TestAStoreFromANewerQuireIsLeftAlone: a store whose format this quire
// does not know is refused, whole, with what to do; nothing is added.
func TestAStoreFromANewerQuireIsLeftAlone(t *testing.T) {
	dir := t.TempDir()
	now := time.Now()
	s := open(t, dir, &now)
	_, err := s.Record("manuscript/01.md", "One.\n", "")
	require.NoError(t, err)
	data, err := os.ReadFile(filepath.Join(dir, FileName))
	require.NoError(t, err)
	sc := scan(data)
	require.Equal(t, byte(kindFormat), sc.records[0].payload[0], "a store begins with its format")
	newer := append(frame(binary.AppendUvarint([]byte{kindFormat}, formatVersion+1)), data[len(frame(sc.records[0].payload)):]...)
	require.NoError(t, os.WriteFile(filepath.Join(dir, FileName), newer, 0o600))
	_, err = Open(dir, Options{})
	require.ErrorContains(t, err, "written by a newer quire")
	after, err := os.ReadFile(filepath.Join(dir, FileName))
	require.NoError(t, err)
	assert.Equal(t, newer, after, "nothing was changed")
}

// readFrom is a Sync reader over texts: a chapter in texts is read, one
// in notKept is present but not kept, any other is gone.
func readFrom(texts map[string]string, notKept ...string) func(string) (string, error) {
	return func(path string) (string, error) {
		if slices.Contains(notKept, path) {
			return "", ErrNotKept
		}
		if text, ok := texts[path]; ok {
			return text, nil
		}
		return "", fs.ErrNotExist
	}
}

// TestSyncKeepsWhatIsPresent: a chapter present but not kept (one too
// large to keep on its own) is not taken for deleted; one gone is.
func TestSyncKeepsWhatIsPresent(t *testing.T) {
	now := time.Now()
	s := open(t, t.TempDir(), &now)
	both := []string{"manuscript/01.md", "manuscript/02.md"}
	_, err := s.Sync(t.Context(), both, readFrom(map[string]string{"manuscript/01.md": "One.\n", "manuscript/02.md": "Two.\n"}))
	require.NoError(t, err)
	kept, err := s.Sync(t.Context(), both, readFrom(map[string]string{"manuscript/01.md": "One.\n"}, "manuscript/02.md"))
	require.NoError(t, err)
	assert.Empty(t, kept, "02 is present, only not read")
	kept, err = s.Sync(t.Context(), both, readFrom(map[string]string{"manuscript/01.md": "One.\n"}))
	require.NoError(t, err)
	require.Len(t, kept, 1)
	assert.True(t, kept[0].Deleted)
	assert.Equal(t, "manuscript/02.md", kept[0].Path)
}

// TestSyncReadsOneChapterAtATime: each chapter is recorded before the
// next is read, so a book is never held whole; a chapter that cannot be
// read stops the sync before any chapter is taken for deleted.
func TestSyncReadsOneChapterAtATime(t *testing.T) {
	now := time.Now()
	s := open(t, t.TempDir(), &now)
	chapters := []string{"manuscript/03.md", "manuscript/01.md", "manuscript/02.md"}
	var read []string
	_, err := s.Sync(t.Context(), chapters, func(path string) (string, error) {
		latest, err := s.Latest()
		require.NoError(t, err)
		assert.Len(t, latest, len(read), "every chapter read before %s is kept before it is read", path)
		read = append(read, path)
		return "Text of " + path + ".\n", nil
	})
	require.NoError(t, err)
	assert.Equal(t, []string{"manuscript/01.md", "manuscript/02.md", "manuscript/03.md"}, read, "in the order of their paths")

	unreadable := errors.New("permission denied")
	kept, err := s.Sync(t.Context(), chapters, func(path string) (string, error) {
		if path == "manuscript/02.md" {
			return "", unreadable
		}
		return "", fs.ErrNotExist
	})
	require.ErrorIs(t, err, unreadable)
	assert.Empty(t, kept, "01 is not taken for deleted while 02 could not be read")
	latest, err := s.Latest()
	require.NoError(t, err)
	for _, v := range latest {
		assert.False(t, v.Deleted, v.Path)
	}
}
