package engine

import (
	"encoding/json"
	"errors"
	"reflect"
	"strconv"
	"strings"
)

// compactJSON writes v as encoding/json would, but leaves out every
// struct field at its zero value, which json.Unmarshal then leaves at its
// zero value: the same value decodes back, from fewer bytes. A Fetch
// response of the happy path names 17 partitions, most of whose ten
// fields are zero: 8.7 kB as json.Marshal writes it. Slices keep every
// element (a zero element is written {} or 0), and an empty slice stays
// [] (nil is left out), so nil and empty survive apart.
func compactJSON(v any) ([]byte, error) {
	return appendCompact(nil, reflect.ValueOf(v))
}

// errNotCompact is a type the compact form does not write (an embedded
// struct, which encoding/json flattens; a map): encodeEvents then writes
// json.Marshal's form.
var errNotCompact = errors.New("session: no compact form for this type")

func appendCompact(b []byte, v reflect.Value) ([]byte, error) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return append(b, "null"...), nil
		}
		return appendCompact(b, v.Elem())
	case reflect.Struct:
		b = append(b, '{')
		n := 0
		b, err := appendFields(b, v, &n)
		if err != nil {
			return nil, err
		}
		return append(b, '}'), nil
	case reflect.Slice:
		if v.IsNil() {
			return append(b, "null"...), nil
		}
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return appendJSON(b, v)
		}
		b = append(b, '[')
		for i := range v.Len() {
			if i > 0 {
				b = append(b, ',')
			}
			var err error
			if b, err = appendCompact(b, v.Index(i)); err != nil {
				return nil, err
			}
		}
		return append(b, ']'), nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return strconv.AppendInt(b, v.Int(), 10), nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return strconv.AppendUint(b, v.Uint(), 10), nil
	case reflect.Bool:
		return strconv.AppendBool(b, v.Bool()), nil
	case reflect.String, reflect.Float32, reflect.Float64, reflect.Array:
		return appendJSON(b, v)
	}
	return nil, errNotCompact
}

// appendFields writes struct v's non-zero fields, n of them written
// before; an embedded struct's fields are written among v's own, as
// encoding/json flattens them (protocol.TopicPartition in every
// partition's part).
func appendFields(b []byte, v reflect.Value, n *int) ([]byte, error) {
	t := v.Type()
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" {
			continue
		}
		if f.Anonymous {
			if name != "" || f.Type.Kind() != reflect.Struct {
				return nil, errNotCompact
			}
			var err error
			if b, err = appendFields(b, v.Field(i), n); err != nil {
				return nil, err
			}
			continue
		}
		if !f.IsExported() || v.Field(i).IsZero() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		if *n > 0 {
			b = append(b, ',')
		}
		*n++
		b = strconv.AppendQuote(b, name) // Go field names and tags are plain ASCII
		b = append(b, ':')
		var err error
		if b, err = appendCompact(b, v.Field(i)); err != nil {
			return nil, err
		}
	}
	return b, nil
}

// appendJSON is json.Marshal's form of v (its string escaping, its
// floats, its base64).
func appendJSON(b []byte, v reflect.Value) ([]byte, error) {
	j, err := json.Marshal(v.Interface())
	return append(b, j...), err
}
