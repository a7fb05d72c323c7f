package codex

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// encodeFields writes f as the state file does, without the rest.
func encodeFields(t *testing.T, f Fields) ([]byte, error) {
	t.Helper()
	var b bytes.Buffer
	e := newEncoder(&b)
	if err := e.fields(f); err != nil {
		return nil, err
	}
	e.flush()
	require.NoError(t, e.err)
	return b.Bytes(), nil
}

// Every value the front matter parser makes comes back from the state
// file as it went in; a value of another type comes back as JSON would
// give it, as the state's JSON fields did.
func TestFieldValuesRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		name     string
		in, want any
	}{
		{"null", nil, nil},
		{"false", false, false},
		{"true", true, true},
		{"number", 29.0, 29.0},
		{"fraction", -0.1, -0.1},
		{"huge", 1e300, 1e300},
		{"string", "Lead", "Lead"},
		{"empty string", "", ""},
		{"list", []any{"a", 1.0, nil, []any{true}}, []any{"a", 1.0, nil, []any{true}}},
		{"empty list", []any{}, []any{}},
		{"map", map[string]any{"b": 2.0, "a": map[string]any{"c": "d"}}, map[string]any{"b": 2.0, "a": map[string]any{"c": "d"}}},
		{"empty map", map[string]any{}, map[string]any{}},
		{"another type", 7, 7.0},
		{"another type in a list", []any{int64(3)}, []any{3.0}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data, err := encodeFields(t, Fields{{Key: "role", Value: tc.in}, {Key: "after", Value: "x"}})
			require.NoError(t, err)
			d := &decoder{buf: data}
			got := d.fields()
			require.NoError(t, d.err)
			assert.Equal(t, Fields{{Key: "role", Value: tc.want}, {Key: "after", Value: "x"}}, got)
			assert.Equal(t, len(data), d.off, "every byte read")
		})
	}
}

func TestFieldValueJSONCannotWriteIsAnError(t *testing.T) {
	_, err := encodeFields(t, Fields{{Key: "role", Value: make(chan int)}})
	require.Error(t, err)
}

// Damaged bytes fail to decode, never panic or recurse without end.
func TestFieldValuesDamaged(t *testing.T) {
	deep := []byte{1, 2, 'k', 'k'} // one field, its key "kk"
	for range maxFieldDepth + 2 {
		deep = append(deep, fieldList, 1)
	}
	deep = append(deep, fieldNull)
	for _, tc := range []struct {
		name string
		data []byte
	}{
		{"nested too deep", deep},
		{"unknown tag", []byte{1, 1, 'k', 99}},
		{"number cut short", []byte{1, 1, 'k', fieldNumber, 0, 0}},
		{"list longer than the data", []byte{1, 1, 'k', fieldList, 100}},
		{"bad JSON", []byte{1, 1, 'k', fieldJSON, 2, '{', '{'}},
		{"no tag", []byte{1, 1, 'k'}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := &decoder{buf: tc.data}
			d.fields()
			require.ErrorIs(t, d.err, errCorruptState)
		})
	}
}
