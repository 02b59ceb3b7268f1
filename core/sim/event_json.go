package sim

// Export is events as the trace's JSON writes them (txnlab run --format
// json, the playground's download): encoding/json writes it as an array
// of events, each with its nodes by name as the exports always had them
// ("Node":"broker-0"), its API and error by name: "API":"EndTxn",
// "Error":"PRODUCER_FENCED" (or a client exception's name), omitted when
// there is none. Names is the table of the World that recorded them.
// Nothing reads events back from JSON, so there is no UnmarshalJSON.
type Export struct {
	Names  *Names
	Events []Event
}

// MarshalJSON writes the events in order, each as EventFields says.
func (x Export) MarshalJSON() ([]byte, error) {
	b := make([]byte, 0, 256*len(x.Events)+2)
	b = append(b, '[')
	for i := range x.Events {
		if i > 0 {
			b = append(b, ',')
		}
		var err error
		if b, err = x.Names.appendExport(b, &x.Events[i]); err != nil {
			return nil, err
		}
	}
	return append(b, ']'), nil
}
