//go:build !wasm

package classroom

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// Bounds on what one message may carry. A class's messages are small: a
// script is a few kilobytes, a question a sentence and a few choices.
const (
	// MaxMessage is the largest message body the class accepts.
	MaxMessage = 96 << 10
	// MaxScript is the longest script a state may carry.
	MaxScript = 64 << 10
	// MaxText is the longest question, choice or display name, in bytes.
	MaxText = 600
	// MaxChoices is the most choices a question may offer.
	MaxChoices = 8
	// MaxName is the longest display name, in characters.
	MaxName = 40
	// MaxStep bounds a step number (a history has far fewer).
	MaxStep = 1 << 24
)

// Error is a refusal with a reason a person can read: Key names the reason
// in the UI's message tables (app/uitext/messages_class.go), Args fill its verbs,
// and Status is the HTTP status the server answers with.
type Error struct {
	Status int
	Key    string
	Args   []any
}

func (e *Error) Error() string {
	if len(e.Args) == 0 {
		return e.Key
	}
	return fmt.Sprintf("%s %v", e.Key, e.Args)
}

func refuse(status int, key string, args ...any) *Error {
	return &Error{Status: status, Key: key, Args: args}
}

// State is what every student's page follows: the instructor's script,
// its settings and seed (empty and 0 when the script sets them itself, as
// the playground's do), the step on screen, and the lesson the
// instructor is on, if any.
type State struct {
	Rev      uint64 `json:"rev"`
	Script   string `json:"script"`
	Settings string `json:"settings,omitempty"`
	Seed     int64  `json:"seed,omitempty"`
	Step     int    `json:"step"`
	Lesson   string `json:"lesson,omitempty"`
	// Block is the lesson's scenario block (its id) that Script and
	// Step are of: each student's same embedded playground follows it.
	// Script is then "" for the lesson's own script.
	Block string `json:"block,omitempty"`
	// At is when the server took the state, in Unix microseconds; the
	// load test measures the fan-out from it.
	At int64 `json:"at,omitempty"`
}

// Question is the question open to the class (or the last one, closed).
type Question struct {
	// Round counts the votes on this class's questions: a second round
	// on the same question is a new round with Of set to the first.
	Round   int      `json:"round"`
	Of      int      `json:"of,omitempty"`
	ID      string   `json:"id,omitempty"` // the lesson question's id, or ""
	Text    string   `json:"text"`
	Choices []string `json:"choices"`
	Open    bool     `json:"open"`
}

// Prediction is one student's vote in a round: the choice's index and how
// sure they are (0 guessing, 1 fairly sure, 2 sure).
type Prediction struct {
	Round  int `json:"round"`
	Choice int `json:"choice"`
	Sure   int `json:"sure"`
}

// Tally is a round's distribution, without names: per choice the votes,
// and per choice how many were guessing, fairly sure, sure. Prev is the
// round it is a second vote of, so the page shows how the class moved.
type Tally struct {
	Round  int      `json:"round"`
	Counts []int    `json:"counts"`
	Sure   [][3]int `json:"sure"`
	Total  int      `json:"total"`
	Prev   *Tally   `json:"prev,omitempty"`
}

// StateIn is the instructor's state message.
type StateIn struct {
	Script   string `json:"script"`
	Settings string `json:"settings"`
	Seed     int64  `json:"seed"`
	Step     int    `json:"step"`
	Lesson   string `json:"lesson"`
	Block    string `json:"block"`
}

// QuestionIn is the instructor's question message: Action "open" opens
// Text and Choices as a new round, "again" opens the last question as a
// second round, "close" closes the open round.
type QuestionIn struct {
	Action  string   `json:"action"`
	ID      string   `json:"id"`
	Text    string   `json:"text"`
	Choices []string `json:"choices"`
}

// JoinIn is a student's join message.
type JoinIn struct {
	Code string `json:"code"`
	Name string `json:"name"`
}

// PredictIn is a student's prediction message.
type PredictIn struct {
	Round  int `json:"round"`
	Choice int `json:"choice"`
	Sure   int `json:"sure"`
}

// Decode reads one message into v (one of the *In types): JSON, within
// MaxMessage, no unknown field, no trailing data, then the message's own
// checks. A refusal names the reason; v is then not to be used.
func Decode(r io.Reader, v any) error {
	body, err := io.ReadAll(io.LimitReader(r, MaxMessage+1))
	if err != nil {
		return refuse(400, "class.err.read")
	}
	if len(body) > MaxMessage {
		return refuse(413, "class.err.toobig", MaxMessage)
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		var field string
		if s, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
			field = s
		}
		var typ *json.UnmarshalTypeError
		switch {
		case field != "":
			return refuse(400, "class.err.field", field)
		case errors.As(err, &typ):
			return refuse(400, "class.err.type", typ.Field)
		}
		return refuse(400, "class.err.json")
	}
	if dec.More() {
		return refuse(400, "class.err.json")
	}
	if c, ok := v.(interface{ check() *Error }); ok {
		if e := c.check(); e != nil {
			return e
		}
	}
	return nil
}

func textOK(s string, max int) bool {
	return len(s) <= max && utf8.ValidString(s) && !strings.ContainsRune(s, 0)
}

func (m *StateIn) check() *Error {
	switch {
	case len(m.Script) > MaxScript:
		return refuse(413, "class.err.script", MaxScript)
	case !textOK(m.Script, MaxScript) || !textOK(m.Settings, MaxText):
		return refuse(400, "class.err.text")
	case m.Step < 0 || m.Step > MaxStep:
		return refuse(400, "class.err.step")
	case !slugOK(m.Lesson):
		return refuse(400, "class.err.lesson")
	case !slugOK(m.Block) || m.Block != "" && m.Lesson == "":
		return refuse(400, "class.err.block")
	}
	return nil
}

// slugOK accepts a lesson slug ("03-transaction-protocols") or "".
func slugOK(s string) bool {
	if len(s) > 80 {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-') {
			return false
		}
	}
	return true
}

func (m *QuestionIn) check() *Error {
	switch m.Action {
	case "close", "again":
		return nil
	case "open":
	default:
		return refuse(400, "class.err.action")
	}
	if strings.TrimSpace(m.Text) == "" || !textOK(m.Text, MaxText) || !slugOK(m.ID) {
		return refuse(400, "class.err.question")
	}
	if len(m.Choices) < 2 || len(m.Choices) > MaxChoices {
		return refuse(400, "class.err.choices", MaxChoices)
	}
	for _, c := range m.Choices {
		if strings.TrimSpace(c) == "" || !textOK(c, MaxText) {
			return refuse(400, "class.err.choices", MaxChoices)
		}
	}
	return nil
}

func (m *JoinIn) check() *Error {
	m.Code = NormalizeCode(m.Code)
	if len(m.Code) != codeLen {
		return refuse(400, "class.err.code")
	}
	m.Name = strings.TrimSpace(m.Name)
	if !textOK(m.Name, MaxText) || utf8.RuneCountInString(m.Name) > MaxName {
		return refuse(400, "class.err.name", MaxName)
	}
	for _, r := range m.Name {
		if r < ' ' || r == 0x7f {
			return refuse(400, "class.err.name", MaxName)
		}
	}
	return nil
}

func (m *PredictIn) check() *Error {
	switch {
	case m.Choice < 0 || m.Choice >= MaxChoices:
		return refuse(400, "class.err.choice")
	case m.Sure < 0 || m.Sure > 2:
		return refuse(400, "class.err.sure")
	case m.Round < 1:
		return refuse(400, "class.err.round")
	}
	return nil
}
