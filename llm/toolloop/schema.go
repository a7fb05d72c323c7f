package toolloop

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// This file checks tool arguments against the small JSON-schema subset that
// tool definitions use. A full JSON-schema library would accept more than
// the providers do and would word its errors for programmers; the model
// needs one short sentence per problem naming the field and what was
// expected, so it can retry with corrected arguments.

// exactlyOneOfKey is a top-level schema extension: the listed properties are
// alternatives and exactly one must be present and non-empty. It replaces
// oneOf, which several providers reject in tool schemas.
const exactlyOneOfKey = "x-exactly-one-of"

// maxArgIssues bounds how many problems one error reports, so a model that
// sent garbage gets a readable answer rather than a wall of text.
const maxArgIssues = 8

// maxQuotedValue bounds how much of a model-sent string is echoed back.
const maxQuotedValue = 40

// validateArgs checks args (a JSON object) against schema. It returns nil or
// a *ToolError with CodeInvalidArguments that lists every problem found, in
// a stable order.
func validateArgs(schema map[string]any, args json.RawMessage) error {
	value, err := decodeArgs(args)
	if err != nil {
		return Errorf(CodeInvalidArguments, "arguments are not valid JSON: %v", err)
	}
	var issues []string
	checkValue(schema, value, "", &issues)
	if obj, ok := value.(map[string]any); ok {
		checkExactlyOneOf(schema, obj, &issues)
	}
	if len(issues) == 0 {
		return nil
	}
	if len(issues) > maxArgIssues {
		more := len(issues) - maxArgIssues
		issues = append(issues[:maxArgIssues], fmt.Sprintf("and %d more", more))
	}
	return Errorf(CodeInvalidArguments, "%s", strings.Join(issues, "; "))
}

// decodeArgs parses one JSON value, keeping numbers as json.Number so that
// integer and number can be told apart, and rejecting trailing data.
func decodeArgs(args json.RawMessage) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(args))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err == nil {
		return nil, fmt.Errorf("unexpected data after the JSON value")
	}
	return v, nil
}

// checkValue appends to issues every way value fails schema. path names the
// value for messages ("" is the top-level arguments object).
func checkValue(schema map[string]any, value any, path string, issues *[]string) {
	typ, _ := schema["type"].(string)
	if typ != "" && !hasType(typ, value) {
		addIssue(issues, path, fmt.Sprintf("expected %s, got %s", schemaExpects(schema), jsonTypeOf(value)))
		return
	}
	switch v := value.(type) {
	case string:
		checkString(schema, v, path, issues)
	case json.Number:
		checkNumber(schema, v, path, issues)
	case []any:
		checkArray(schema, v, path, issues)
	case map[string]any:
		checkObject(schema, v, path, issues)
	}
}

func hasType(typ string, value any) bool {
	switch typ {
	case "string":
		_, ok := value.(string)
		return ok
	case "integer":
		n, ok := value.(json.Number)
		if !ok {
			return false
		}
		// Only integer literals: a tool decoding 3.0 into an int fails, so
		// the model must be told here rather than by a TOOL_FAILED later.
		_, err := strconv.ParseInt(string(n), 10, 64)
		return err == nil
	case "number":
		_, ok := value.(json.Number)
		return ok
	case "boolean":
		_, ok := value.(bool)
		return ok
	case "array":
		_, ok := value.([]any)
		return ok
	case "object":
		_, ok := value.(map[string]any)
		return ok
	case "null":
		return value == nil
	}
	return false
}

func checkString(schema map[string]any, s, path string, issues *[]string) {
	if enum := SchemaStrings(schema["enum"]); len(enum) > 0 && !slices.Contains(enum, s) {
		addIssue(issues, path, fmt.Sprintf("expected one of %s, got %s", quoteArgs(enum), quoteArg(s)))
	}
	n := utf8.RuneCountInString(s)
	if lim, ok := schemaInt(schema["minLength"]); ok && n < lim {
		if n == 0 {
			addIssue(issues, path, "must not be empty")
		} else {
			addIssue(issues, path, fmt.Sprintf("must be at least %d characters, got %d", lim, n))
		}
	}
	if lim, ok := schemaInt(schema["maxLength"]); ok && n > lim {
		addIssue(issues, path, fmt.Sprintf("must be at most %d characters, got %d", lim, n))
	}
}

func checkNumber(schema map[string]any, n json.Number, path string, issues *[]string) {
	f, err := n.Float64()
	if err != nil || math.IsInf(f, 0) {
		addIssue(issues, path, fmt.Sprintf("number %s is out of range", n))
		return
	}
	if lim, ok := schemaFloat(schema["minimum"]); ok && f < lim {
		addIssue(issues, path, fmt.Sprintf("must be at least %v, got %s", lim, n))
	}
	if lim, ok := schemaFloat(schema["maximum"]); ok && f > lim {
		addIssue(issues, path, fmt.Sprintf("must be at most %v, got %s", lim, n))
	}
}

func checkArray(schema map[string]any, items []any, path string, issues *[]string) {
	if lim, ok := schemaInt(schema["minItems"]); ok && len(items) < lim {
		addIssue(issues, path, fmt.Sprintf("must have at least %d items, got %d", lim, len(items)))
	}
	if lim, ok := schemaInt(schema["maxItems"]); ok && len(items) > lim {
		addIssue(issues, path, fmt.Sprintf("must have at most %d items, got %d", lim, len(items)))
	}
	itemSchema, ok := schema["items"].(map[string]any)
	if !ok {
		return
	}
	for i, item := range items {
		checkValue(itemSchema, item, fmt.Sprintf("%s[%d]", path, i), issues)
	}
}

func checkObject(schema map[string]any, obj map[string]any, path string, issues *[]string) {
	props, _ := schema["properties"].(map[string]any)
	for _, name := range SchemaStrings(schema["required"]) {
		if v, ok := obj[name]; !ok || v == nil {
			addIssue(issues, fieldPath(path, name), "is required")
		}
	}
	var unknown []string
	for _, key := range sortedArgKeys(obj) {
		v := obj[key]
		if propSchema, ok := props[key].(map[string]any); ok {
			// null stands for "not given" for an optional field; required
			// fields were reported above.
			if v != nil {
				checkValue(propSchema, v, fieldPath(path, key), issues)
			}
			continue
		}
		if _, ok := props[key]; ok {
			continue // a property declared without a schema accepts anything
		}
		switch extra := schema["additionalProperties"].(type) {
		case bool:
			if !extra {
				unknown = append(unknown, key)
			}
		case map[string]any:
			checkValue(extra, v, fieldPath(path, key), issues)
		}
	}
	if len(unknown) > 0 {
		msg := fmt.Sprintf("unknown field %s", quoteArgs(unknown))
		if len(unknown) > 1 {
			msg = fmt.Sprintf("unknown fields %s", quoteArgs(unknown))
		}
		if len(props) > 0 {
			msg += fmt.Sprintf(" (allowed: %s)", strings.Join(sortedArgKeys(props), ", "))
		}
		addIssue(issues, path, msg)
	}
}

// checkExactlyOneOf enforces the x-exactly-one-of extension on the
// top-level arguments object.
func checkExactlyOneOf(schema map[string]any, obj map[string]any, issues *[]string) {
	group := SchemaStrings(schema[exactlyOneOfKey])
	if len(group) == 0 {
		return
	}
	var present []string
	for _, key := range group {
		if !isEmptyValue(obj[key]) {
			present = append(present, key)
		}
	}
	switch len(present) {
	case 1:
	case 0:
		addIssue(issues, "", fmt.Sprintf("exactly one of %s is required, got none", strings.Join(group, ", ")))
	default:
		addIssue(issues, "", fmt.Sprintf("exactly one of %s is allowed, got %s", strings.Join(group, ", "), strings.Join(present, " and ")))
	}
}

// isEmptyValue reports whether v counts as absent for x-exactly-one-of:
// missing, null, "", [] or {}. Models often send the unused alternative
// as an empty value, which is not a second choice.
func isEmptyValue(v any) bool {
	switch x := v.(type) {
	case nil:
		return true
	case string:
		return strings.TrimSpace(x) == ""
	case []any:
		return len(x) == 0
	case map[string]any:
		return len(x) == 0
	}
	return false
}

func addIssue(issues *[]string, path, msg string) {
	if path == "" {
		path = "arguments"
	}
	*issues = append(*issues, path+": "+msg)
}

func fieldPath(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// schemaExpects says in words what a schema expects: "a string", "an
// array of strings".
func schemaExpects(schema map[string]any) string {
	typ, _ := schema["type"].(string)
	switch typ {
	case "array":
		if items, ok := schema["items"].(map[string]any); ok {
			if it, _ := items["type"].(string); it != "" {
				return "an array of " + pluralType(it)
			}
		}
		return "an array"
	case "integer", "object":
		return "an " + typ
	case "null":
		return "null"
	}
	return "a " + typ
}

func pluralType(typ string) string {
	switch typ {
	case "boolean":
		return "booleans"
	case "integer":
		return "integers"
	case "number":
		return "numbers"
	case "object":
		return "objects"
	case "array":
		return "arrays"
	case "string":
		return "strings"
	}
	return typ + " values"
}

// jsonTypeOf names the JSON type of a decoded value.
func jsonTypeOf(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case json.Number:
		if _, err := strconv.ParseInt(string(x), 10, 64); err != nil {
			return "a number (" + ClipRunes(string(x), maxQuotedValue) + ")"
		}
		return "a number"
	case string:
		return "a string"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%T", v)
}

func quoteArg(s string) string { return strconv.Quote(ClipRunes(s, maxQuotedValue)) }

func quoteArgs(items []string) string {
	quoted := make([]string, len(items))
	for i, s := range items {
		quoted[i] = quoteArg(s)
	}
	return strings.Join(quoted, ", ")
}

// clipRunes cuts s to at most n runes, marking the cut.
func ClipRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	runes := []rune(s)
	return string(runes[:n]) + "…"
}

// schemaStrings reads a schema list written either as []string (schemas built
// in Go) or []any (schemas decoded from JSON).
func SchemaStrings(v any) []string {
	switch x := v.(type) {
	case []string:
		return x
	case []any:
		out := make([]string, 0, len(x))
		for _, item := range x {
			if s, ok := item.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}

// schemaInt reads a schema number written as any Go numeric type.
func schemaInt(v any) (int, bool) {
	f, ok := schemaFloat(v)
	if !ok || f != math.Trunc(f) || math.Abs(f) > math.MaxInt32 {
		return 0, false
	}
	return int(f), true
}

func schemaFloat(v any) (float64, bool) {
	switch x := v.(type) {
	case int:
		return float64(x), true
	case int32:
		return float64(x), true
	case int64:
		return float64(x), true
	case float32:
		return float64(x), true
	case float64:
		return x, true
	case json.Number:
		f, err := x.Float64()
		return f, err == nil
	}
	return 0, false
}

func sortedArgKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
