package vocab

// Edge labels with a meaning for every node type, or for the types that
// declare them as outcomes.
const (
	LabelSuccess       = "success"
	LabelFailure       = "failure"
	LabelLoopExhausted = "loop_exhausted"
	LabelTrue          = "true"
	LabelFalse         = "false"
	LabelDefault       = "default"
	LabelAnswered      = "answered"
	LabelUnanswered    = "unanswered"
)
