// Package awaitreply is the await_reply node: it asks the user a question,
// ends the turn, and continues from its answered/unanswered edge when the
// next message on the session arrives (seed 000).
package awaitreply

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/wetel/wetel/node"
	"github.com/wetel/wetel/node/response"
	"github.com/wetel/wetel/reply"
	"github.com/wetel/wetel/tmpl"
	"github.com/wetel/wetel/vocab"
)

// Limits from seed 000.
const (
	DefaultExpiry = 24 * time.Hour
	MaxExpiry     = node.MaxWaitExpiry
)

func init() {
	node.Register(&node.Spec{
		Type:    "await_reply",
		Summary: "Asks the user a question, ends the turn, and continues from its successor when the next message arrives.",
		Description: "Routing is by edge label: 'answered' (required on every await_reply node) and 'unanswered' " +
			"(required, and only reachable, when matchMode is 'options'). In options mode the list is built from the " +
			"array at optionsFrom (at most " + strconv.Itoa(reply.MaxOptions) + " options, labels cut to " +
			strconv.Itoa(reply.MaxLabelRunes) + " characters), stored when the question is asked, " +
			"and exposed to promptTemplate as awaitReplyOptions for this one render. A reply is matched in tiers: slot " +
			"number, exact id, normalised label, unique whole token; each tier needs exactly one winner. saveAs holds " +
			"the reply text (free_text, or unanswered) or the matched option {slot, id, label}. The wait expires after " +
			"expiresAfterSeconds (default 24 hours, clamped to 7 days); an expired wait is never answered and the next " +
			"message starts a fresh run. An unanswered branch that leads back to the node with no condition, switch or " +
			"router on the way asks again once per reply without end: the " + DiagUncountedReask + " diagnostic says so " +
			"(count the attempts in a variable and gate the way back).",
		Routing:  node.RouteOutcome,
		Outcomes: []string{vocab.LabelAnswered, vocab.LabelUnanswered},
		Pauses:   true,
		Resume:   resume,
		Fields: []node.Field{
			{Name: "promptTemplate", Kind: node.KindString, Format: node.FormatTemplate, Required: true, MaxLength: tmpl.MaxSourceBytes, Description: "The question, as a Handlebars template."},
			{Name: "saveAs", Kind: node.KindString, Format: node.FormatVariable, Required: true, MaxLength: 128, Description: "The variable the answer lands in when the run resumes."},
			{Name: "matchMode", Kind: node.KindString, Enum: []string{"free_text", "options"}, Default: "free_text", Description: "free_text accepts any reply; options matches it against a list."},
			{Name: "optionsFrom", Kind: node.KindString, Format: node.FormatPath, MaxLength: 256, Description: "Options mode: dot path of the array to build the list from."},
			{Name: "optionIdField", Kind: node.KindString, Default: "id", MinLength: 1, MaxLength: 128, Description: "Field of each element holding its identifier."},
			{Name: "optionLabelField", Kind: node.KindString, Default: "label", MinLength: 1, MaxLength: 128, Description: "Field of each element holding its display label."},
			{Name: "expiresAfterSeconds", Kind: node.KindNumber, Default: 86400, Min: node.Float(1), Description: "How long the wait stays resumable; clamped to 7 days."},
			response.MoodField,
		},
		Examples: node.Examples(`{"promptTemplate": "Which one?\n{{#each awaitReplyOptions}}{{slot}}. {{label}}\n{{/each}}", "saveAs": "chosenOrder", "matchMode": "options", "optionsFrom": "orderLookup.data", "optionIdField": "order_id", "optionLabelField": "description"}`),
		Check:    check,
		Rules:    rules,
		Runs:     node.OnServer | node.Offline,
		Build:    build,
	})
}

func check(cfg map[string]any) []node.FieldError {
	if mode, _ := cfg["matchMode"].(string); mode == "options" {
		if from, _ := cfg["optionsFrom"].(string); from == "" {
			return []node.FieldError{{Path: "optionsFrom", Rule: "is required when matchMode is 'options': it names the array the options are built from"}}
		}
	}
	return nil
}

type config struct {
	PromptTemplate      string   `json:"promptTemplate"`
	SaveAs              string   `json:"saveAs"`
	MatchMode           string   `json:"matchMode"`
	OptionsFrom         string   `json:"optionsFrom"`
	OptionIDField       string   `json:"optionIdField"`
	OptionLabelField    string   `json:"optionLabelField"`
	ExpiresAfterSeconds *float64 `json:"expiresAfterSeconds"`
	Mood                string   `json:"mood"`
}

type executor struct {
	cfg    config
	prompt *tmpl.Template
	expiry time.Duration
}

func build(b node.BuildInput) (node.Executor, error) {
	e := &executor{expiry: DefaultExpiry}
	if err := b.Decode(&e.cfg); err != nil {
		return nil, err
	}
	if e.cfg.MatchMode == "" {
		e.cfg.MatchMode = "free_text"
	}
	if s := e.cfg.ExpiresAfterSeconds; s != nil {
		// Seed 000: "clamped to a hard ceiling of 7 days".
		e.expiry = min(time.Duration(*s*float64(time.Second)), MaxExpiry)
	}
	var err error
	e.prompt, err = tmpl.Parse(e.cfg.PromptTemplate)
	return e, err
}

var errInsideSubAgent = errors.New("await_reply cannot run inside a sub_agent dispatch: the child session has no person to answer it; ask in the master workflow, before or after the dispatch")

func (e *executor) Execute(_ context.Context, x *node.Exec) (node.Outcome, error) {
	if x.Child {
		return node.Outcome{}, errInsideSubAgent
	}
	var opts []reply.Option
	var extra map[string]any
	if e.cfg.MatchMode == "options" {
		v, found := node.Lookup(x.Vars, e.cfg.OptionsFrom)
		var err error
		// Seed 000: a missing, non-array or empty optionsFrom fails the node.
		if opts, err = reply.BuildOptions(e.cfg.OptionsFrom, v, found, e.cfg.OptionIDField, e.cfg.OptionLabelField); err != nil {
			return node.Outcome{}, err
		}
		// awaitReplyOptions exists for this one render only.
		extra = map[string]any{vocab.AwaitReplyOptions: reply.TemplateOptions(opts)}
	}
	snapshot, err := Snapshot(x.Vars)
	if err != nil {
		return node.Outcome{}, err
	}
	text, err := e.prompt.RenderWith(x.Vars, extra)
	if err != nil {
		return node.Outcome{}, err
	}
	x.Ask(text, e.cfg.Mood)
	now := time.Now()
	if x.Clock != nil {
		now = x.Clock.Now()
	}
	state := State{SaveAs: e.cfg.SaveAs, MatchMode: e.cfg.MatchMode, Options: opts}
	return node.Outcome{Pause: &node.Pause{Kind: Kind, ResumeOn: vocab.ResumeOnReply, RunStatus: vocab.RunAwaitingInput,
		State: state.Encode(), ExpiresAt: now.Add(e.expiry), Snapshot: snapshot}}, nil
}

// resume continues the question with the reply that arrived: the answered
// edge with the reply (free_text) or the matched option, else unanswered
// with the reply text (seed 000's "What saveAs holds when the run resumes").
// An expired wait is never resumed: the store closes it when it is read, and
// the next message starts a fresh run.
func resume(_ context.Context, in node.ResumeInput) (node.Resumed, error) {
	if in.Event != node.ResumeReply {
		return node.Resumed{}, fmt.Errorf("await_reply node %q resumes only on a reply", in.NodeID)
	}
	st, err := DecodeState(in.State)
	if err != nil {
		return node.Resumed{}, err
	}
	label, answer := vocab.LabelAnswered, any(in.Text)
	if st.MatchMode == "options" {
		// Matching reads only the stored list, never the live context.
		if o, _, ok := reply.Match(in.Text, st.Options); ok {
			answer = o.Map()
		} else {
			label = vocab.LabelUnanswered
		}
	}
	return node.Resumed{Label: label, Vars: map[string]any{st.SaveAs: answer}}, nil
}

// Snapshot serialises what a paused run carries (node.Carried), failing
// the node by name when it is over the seed's 256 KB cap.
func Snapshot(vars map[string]any) (json.RawMessage, error) {
	b, size, err := node.Carried(vars)
	if errors.Is(err, node.ErrSnapshotTooLarge) {
		return nil, fmt.Errorf("AwaitReplySnapshotTooLargeError: the context to carry across the pause is %d bytes, exceeding the maximum of %d (256 KB); drop large variables before the question, or ask before the extraction", size, node.MaxSnapshotBytes)
	}
	if err != nil {
		return nil, fmt.Errorf("await_reply: %w", err)
	}
	return b, nil
}
