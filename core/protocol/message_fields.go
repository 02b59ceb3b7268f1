package protocol

import (
	"fmt"
	"reflect"
	"strconv"
)

// Field is one line of a message as the playground's message panel lists
// it: Kafka's name of the field, its value ("" for a struct or list whose
// members follow one level deeper) and its depth.
type Field struct {
	Depth int
	Name  string
	Value string
}

// MaxFields bounds MessageFields: a Fetch answer of a long log holds thousands
// of records. The last line then says that more were left out.
const MaxFields = 400

// MessageFields lists every field m carries, in its struct's (schema) order, and
// no field it does not: a data batch has no ControlType, a record that is
// not a tombstone has no tombstone flag, a Fetch answer's DivergingEpoch
// is there only when the log diverged (a tagged field in Kafka). Enums
// read as Kafka names them with their number ("NONE (0)",
// "READ_COMMITTED (1)"); a nullable TransactionalId left empty reads
// "null"; a partition reads "orders/0".
func MessageFields(m Message) []Field {
	if m == nil {
		return nil
	}
	w := fieldWalker{}
	w.value(reflect.ValueOf(m), "", 0)
	return w.out
}

type fieldWalker struct{ out []Field }

func (w *fieldWalker) add(depth int, name, value string) bool {
	if len(w.out) >= MaxFields {
		if len(w.out) == MaxFields {
			w.out = append(w.out, Field{Depth: depth, Name: "…", Value: "(more fields not shown)"})
		}
		return false
	}
	w.out = append(w.out, Field{Depth: depth, Name: name, Value: value})
	return true
}

var (
	tpType      = reflect.TypeFor[TopicPartition]()
	batchType   = reflect.TypeFor[RecordBatch]()
	recordType  = reflect.TypeFor[Record]()
	fetchPDType = reflect.TypeFor[FetchPartitionData]()
	stringer    = reflect.TypeFor[fmt.Stringer]()
)

// enumNames are the int8 fields whose numbers Kafka names.
var enumNames = map[string]func(int8) string{
	"KeyType": keyTypeName,
	"IsolationLevel": func(v int8) string {
		if v == ReadCommitted {
			return "READ_COMMITTED"
		}
		return "READ_UNCOMMITTED"
	},
}

func (w *fieldWalker) value(v reflect.Value, name string, depth int) {
	for v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface {
		if v.IsNil() {
			w.add(depth, name, "null")
			return
		}
		v = v.Elem()
	}
	t := v.Type()
	switch {
	case t == tpType:
		w.add(depth, name, v.Interface().(TopicPartition).String())
		return
	case v.Kind() != reflect.Struct && t.Implements(stringer):
		// ErrorCode, ControlType, TransactionState: Kafka's name and
		// the number on the wire.
		n := ""
		if v.CanInt() {
			n = " (" + strconv.FormatInt(v.Int(), 10) + ")"
		}
		w.add(depth, name, v.Interface().(fmt.Stringer).String()+n)
		return
	}
	switch v.Kind() {
	case reflect.Struct:
		d := depth
		if name != "" {
			if !w.add(depth, name, "") {
				return
			}
			d++
		}
		w.members(v, d)
	case reflect.Slice, reflect.Array:
		if v.Len() == 0 {
			w.add(depth, name, "[]")
			return
		}
		if !w.add(depth, name, strconv.Itoa(v.Len())+" item(s)") {
			return
		}
		for i := 0; i < v.Len() && len(w.out) <= MaxFields; i++ {
			w.value(v.Index(i), "["+strconv.Itoa(i)+"]", depth+1)
		}
	case reflect.String:
		w.add(depth, name, strconv.Quote(v.String()))
	case reflect.Int8:
		if f := enumNames[name]; f != nil {
			w.add(depth, name, f(int8(v.Int()))+" ("+strconv.Itoa(int(v.Int()))+")")
			return
		}
		w.add(depth, name, strconv.FormatInt(v.Int(), 10))
	default:
		w.add(depth, name, fmt.Sprint(v.Interface()))
	}
}

// members lists a struct's exported fields, with the exceptions that make
// the list the message's own: an embedded partition is the entry's
// "TopicPartition"; a batch's control fields exist only in a control
// batch; a record's value is its typed payload when it has one, and null
// for a tombstone; a Fetch answer's divergence only when there is one.
func (w *fieldWalker) members(v reflect.Value, depth int) {
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		fv := v.Field(i)
		switch {
		case f.Anonymous && f.Type == tpType:
			w.add(depth, "TopicPartition", fv.Interface().(TopicPartition).String())
			continue
		case t == batchType && (f.Name == "ControlType" || f.Name == "CoordinatorEpoch") && !v.FieldByName("IsControl").Bool():
			continue
		case t == recordType:
			w.record(v.Interface().(Record), f.Name, depth)
			continue
		case t == fetchPDType && (f.Name == "DivergingEpoch" || f.Name == "DivergingEndOffset" || f.Name == "Diverging") && !v.FieldByName("Diverging").Bool():
			continue
		case f.Name == "TransactionalId" && fv.String() == "" && (t == reflect.TypeFor[InitProducerIdRequest]() || t == reflect.TypeFor[ProduceRequest]()):
			w.add(depth, f.Name, "null") // nullable in Kafka's schema
			continue
		}
		w.value(fv, f.Name, depth)
	}
}

// record lists one field of a record: Key as it is; Value as the typed
// payload of an internal topic's record, null for a tombstone, else the
// string; the payload and tombstone fields themselves are not Kafka's.
func (w *fieldWalker) record(r Record, field string, depth int) {
	switch field {
	case "Key":
		w.add(depth, "Key", strconv.Quote(r.Key))
	case "Value":
		switch {
		case r.Tombstone:
			w.add(depth, "Value", "null")
		case r.TxnLog != nil:
			w.value(reflect.ValueOf(r.TxnLog), "Value", depth)
		case r.Offset != nil:
			w.value(reflect.ValueOf(r.Offset), "Value", depth)
		default:
			w.add(depth, "Value", strconv.Quote(r.Value))
		}
	}
}
