package awaitreply

import (
	"encoding/json"
	"fmt"

	"github.com/wetel/wetel/vocab"
)

// Kind is the kind of the waits an await_reply node leaves: its type name,
// so the store and the API can tell its waits from an approval's.
const Kind = "await_reply"

// State is what an await_reply wait stores, fixed when the question is
// asked: where the answer lands, how the reply is matched, and exactly the
// options offered (seed 000: "Matching on resume reads only that stored
// list — never the live context").
type State struct {
	SaveAs    string
	MatchMode string
	Options   []vocab.Option
}

// Encode returns the stored JSON of the state:
// {"saveAs":…,"matchMode":…,"options":[[slot,"id","label"],…]}, the options
// left out when there are none. It is written without reflection: every
// question a durable session asks encodes one.
func (s State) Encode() json.RawMessage {
	b := make([]byte, 0, 48+len(s.SaveAs)+24*len(s.Options))
	b = append(b, `{"saveAs":`...)
	b = appendString(b, s.SaveAs)
	b = append(b, `,"matchMode":`...)
	b = appendString(b, s.MatchMode)
	if opts, _ := encodeOptions(s.Options); opts != nil {
		b = append(b, `,"options":`...)
		b = append(b, opts...)
	}
	return append(b, '}')
}

// DecodeState reads a stored await_reply state.
func DecodeState(b []byte) (State, error) {
	var raw struct {
		SaveAs    string          `json:"saveAs"`
		MatchMode string          `json:"matchMode"`
		Options   json.RawMessage `json:"options"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		return State{}, fmt.Errorf("await_reply wait state: %w", err)
	}
	st := State{SaveAs: raw.SaveAs, MatchMode: raw.MatchMode}
	if len(raw.Options) > 0 && string(raw.Options) != "null" {
		opts, err := decodeOptions(raw.Options)
		if err != nil {
			return State{}, fmt.Errorf("await_reply wait state: %w", err)
		}
		st.Options = opts
	}
	if st.SaveAs == "" {
		return State{}, fmt.Errorf("await_reply wait state: no saveAs")
	}
	return st, nil
}
