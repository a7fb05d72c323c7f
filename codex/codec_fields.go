package codex

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
)

// Custom fields in the state file. Their values are the JSON-shaped
// values the front matter parser makes (nodeValue): null, booleans,
// finite numbers, strings, lists and maps of those. Each is written as
// a tag and its payload, the strings shared with the state buffer as
// the entries' are. They were JSON, and decoding that was half of a
// warm start's allocations while the state was read (45,000 of 115,000
// at 10,000 entries, BenchmarkDecodeState). A value of any other type
// is written as JSON, as before, so that no value comes back changed.

const (
	fieldNull byte = iota
	fieldFalse
	fieldTrue
	fieldNumber
	fieldString
	fieldList
	fieldMap
	fieldJSON
)

// maxFieldDepth bounds the nesting decodeFields follows: the parser's
// budget keeps real values far shallower, and damaged data must not
// recurse without end.
const maxFieldDepth = 64

func (e *encoder) fields(f Fields) error {
	e.uvarint(uint64(len(f)))
	for _, fld := range f {
		e.str(fld.Key)
		if err := e.value(fld.Value); err != nil {
			return fmt.Errorf("field %q: %w", fld.Key, err)
		}
	}
	return nil
}

func (e *encoder) value(v any) error {
	switch v := v.(type) {
	case nil:
		e.buf = append(e.buf, fieldNull)
	case bool:
		if v {
			e.buf = append(e.buf, fieldTrue)
		} else {
			e.buf = append(e.buf, fieldFalse)
		}
	case float64:
		e.buf = append(e.buf, fieldNumber)
		e.buf = binary.LittleEndian.AppendUint64(e.buf, math.Float64bits(v))
	case string:
		e.buf = append(e.buf, fieldString)
		e.str(v)
	case []any:
		e.buf = append(e.buf, fieldList)
		e.uvarint(uint64(len(v)))
		for _, x := range v {
			if err := e.value(x); err != nil {
				return err
			}
		}
	case map[string]any:
		e.buf = append(e.buf, fieldMap)
		e.uvarint(uint64(len(v)))
		// In key order: the same fields make the same bytes.
		for _, k := range slices.Sorted(maps.Keys(v)) {
			e.str(k)
			if err := e.value(v[k]); err != nil {
				return err
			}
		}
	default:
		data, err := json.Marshal(v)
		if err != nil {
			return err
		}
		e.buf = append(e.buf, fieldJSON)
		e.bytes(data)
	}
	return nil
}

func (d *decoder) fields() Fields {
	// A field is at least a key's length and a tag.
	n := d.count(2)
	if n == 0 {
		return nil
	}
	out := make(Fields, n)
	for i := range out {
		out[i] = Field{Key: d.str(), Value: d.value(0)}
	}
	return out
}

func (d *decoder) value(depth int) any {
	if depth > maxFieldDepth {
		d.fail()
		return nil
	}
	tag := d.raw(1)
	if d.err != nil {
		return nil
	}
	switch tag[0] {
	case fieldNull:
		return nil
	case fieldFalse:
		return false
	case fieldTrue:
		return true
	case fieldNumber:
		b := d.raw(8)
		if d.err != nil {
			return nil
		}
		return math.Float64frombits(binary.LittleEndian.Uint64(b))
	case fieldString:
		return d.str()
	case fieldList:
		n := d.count(1)
		out := make([]any, n)
		for i := range out {
			out[i] = d.value(depth + 1)
		}
		return out
	case fieldMap:
		n := d.count(2)
		out := make(map[string]any, n)
		for range n {
			k := d.str()
			out[k] = d.value(depth + 1)
		}
		return out
	case fieldJSON:
		var v any
		if err := json.Unmarshal(d.raw(d.count(1)), &v); err != nil {
			d.fail()
		}
		return v
	}
	d.fail()
	return nil
}
