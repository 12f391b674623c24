// Package endsession is the end_session node: it ends the conversation,
// after asking the user to confirm when requireConfirmation is set.
package endsession

import (
	"context"
	"strings"
	"time"
	"unicode"

	"github.com/wetel/wetel/node"
	"github.com/wetel/wetel/node/response"
	"github.com/wetel/wetel/tmpl"
	"github.com/wetel/wetel/vocab"
)

// LabelDeclined is the edge a confirmation that was not a yes follows.
const LabelDeclined = "declined"

// DefaultConfirmation is asked when requireConfirmation is set and
// confirmationTemplate is not.
const DefaultConfirmation = "Shall I end this conversation? Reply yes to end it."

// confirmExpiry is how long a confirmation question stays answerable, as
// an await_reply question's default: past it, the next message starts a
// fresh run and the session stays open.
const confirmExpiry = 24 * time.Hour

// yes are the replies that confirm, compared after folding case, trimming
// spaces and dropping punctuation; anything else declines.
var yes = map[string]bool{"yes": true, "y": true, "yeah": true, "yep": true, "yup": true, "sure": true,
	"ok": true, "okay": true, "confirm": true, "confirmed": true, "yes please": true, "please do": true}

func init() {
	node.Register(&node.Spec{
		Type:    "end_session",
		Summary: "Ends the conversation, and the run with it.",
		Description: "Nothing queued behind an end_session node is dispatched, and ending the session cancels its open " +
			"question and pending approvals. With requireConfirmation the user is asked confirmationTemplate " +
			"(default \"" + DefaultConfirmation + "\") as a question that pauses the run like await_reply; a reply of " +
			"yes, y, yeah, yep, yup, sure, ok, okay, confirm, confirmed, \"yes please\" or \"please do\" (case and " +
			"punctuation ignored) ends the session; any other reply follows the node's edge labeled 'declined' when it " +
			"has one, else the turn ends with the session open. runEvaluation (a post-session evaluation by the " +
			"workspace's model) is refused at save until models are available.",
		Routing: node.RouteAll,
		Pauses:  true,
		Resume:  resume,
		Fields: []node.Field{
			{Name: "requireConfirmation", Kind: node.KindBoolean, Default: false, Description: "Ask the user to confirm before ending."},
			{Name: "confirmationTemplate", Kind: node.KindString, Format: node.FormatTemplate, MaxLength: tmpl.MaxSourceBytes,
				Description: "The confirmation question, as a Handlebars template."},
			{Name: "runEvaluation", Kind: node.KindBoolean, Default: false, Description: "Trigger a post-session evaluation."},
			response.MoodField,
		},
		Examples: node.Examples(`{}`, `{"requireConfirmation": true, "confirmationTemplate": "Shall I close this conversation?"}`),
		Rules:    rules,
		Runs:     node.OnServer | node.Offline,
		Build:    build,
	})
}

type config struct {
	RequireConfirmation  bool   `json:"requireConfirmation"`
	ConfirmationTemplate string `json:"confirmationTemplate"`
	Mood                 string `json:"mood"`
}

func build(b node.BuildInput) (node.Executor, error) {
	var cfg config
	if err := b.Decode(&cfg); err != nil {
		return nil, err
	}
	if !cfg.RequireConfirmation {
		return node.ExecutorFunc(func(context.Context, *node.Exec) (node.Outcome, error) {
			return node.Outcome{EndSession: true}, nil
		}), nil
	}
	src := cfg.ConfirmationTemplate
	if src == "" {
		src = DefaultConfirmation
	}
	q, err := tmpl.Parse(src)
	if err != nil {
		return nil, err
	}
	return node.ExecutorFunc(func(_ context.Context, x *node.Exec) (node.Outcome, error) {
		text, err := q.Render(x.Vars)
		if err != nil {
			return node.Outcome{}, err
		}
		snap, _, err := node.Carried(x.Vars)
		if err != nil {
			return node.Outcome{}, err
		}
		x.Ask(text, cfg.Mood)
		now := time.Now()
		if x.Clock != nil {
			now = x.Clock.Now()
		}
		return node.Outcome{Pause: &node.Pause{ResumeOn: vocab.ResumeOnReply, RunStatus: vocab.RunAwaitingInput,
			State: []byte(`{}`), ExpiresAt: now.Add(confirmExpiry), Snapshot: snap}}, nil
	}), nil
}

// resume ends the session on a yes; any other reply declines.
func resume(_ context.Context, in node.ResumeInput) (node.Resumed, error) {
	if Confirms(in.Text) {
		return node.Resumed{EndSession: true}, nil
	}
	return node.Resumed{Label: LabelDeclined, Optional: true}, nil
}

// Confirms reports whether a reply to the confirmation question is a yes.
func Confirms(reply string) bool {
	folded := strings.Map(func(r rune) rune {
		switch {
		case unicode.IsPunct(r):
			return -1
		case unicode.IsSpace(r):
			return ' '
		}
		return unicode.ToLower(r)
	}, reply)
	return yes[strings.Join(strings.Fields(folded), " ")]
}
