package vocab

// Option is one choice an options-mode await_reply question offered, as it
// is stored when the question is asked, matched against the reply, listed
// by pendingAwaitReplies and held by saveAs on the answered edge. Slot is
// its 1-based position in the rendered list.
type Option struct {
	Slot  int    `json:"slot"`
	ID    string `json:"id"`
	Label string `json:"label"`
}

// Map returns the option as the generic value the run context holds.
// Seed 000: "The matched option object: { "slot": 2, "id": "19", "label":
// "Solution Architect" }."
func (o Option) Map() map[string]any {
	return map[string]any{"slot": o.Slot, "id": o.ID, "label": o.Label}
}
