package node

import (
	"fmt"
	"strings"
)

// RunsText says in a sentence where a type does its real work, for its
// reference page and the API.
func RunsText(s *Spec) string {
	switch {
	case s.Runs.Has(OnServer | Offline):
		return "On the server (`wetel serve`) and offline (`wetel run`, `wetel chat --graph`)."
	case s.Runs != 0:
		other := (OnServer | Offline) &^ s.Runs
		text := fmt.Sprintf("%s only; a live run %s fails", placeTitle(s.Runs), other.Where())
		if s.Mockable {
			return text + ", so run it there in mock mode, with a mockResponse or mockError on the node."
		}
		return text + "."
	case s.Mockable:
		return "In mock mode only: this build cannot do its real work, so a live run of it fails on the server and offline. Give the node a mockResponse or mockError and run in mock mode."
	}
	return "Nowhere yet: this build cannot do its real work, so a run that reaches it fails on the server and offline, and the type has no mock mode to stand in for it."
}

// RunsShort is RunsText in a few words, for the index of the reference pages.
func RunsShort(s *Spec) string {
	switch {
	case s.Runs != 0:
		return s.Runs.Name()
	case s.Mockable:
		return "mock mode only"
	}
	return "not yet"
}

func placeTitle(p Place) string {
	if p == OnServer {
		return "On the server (`wetel serve`)"
	}
	return "Offline (`wetel run`, `wetel chat --graph`)"
}

// Index renders the index of the reference pages (docs/nodes/README.md):
// every type of the registry with its summary and where it runs.
func Index(r *Registry) string {
	var b strings.Builder
	b.WriteString("# Node types\n\n")
	b.WriteString("Each page is generated from the node type's spec (`go test ./node/all -update`), the same spec the save checks and `nodeConfigSchema` read. So is this index.\n\n")
	fmt.Fprintf(&b, "Every node accepts `maxVisits` (1 to %d, default %d). `mockResponse` and `mockError` are accepted by %s; `retry` by %s.\n\n",
		MaxVisitsCeiling, DefaultMaxVisits,
		JoinNames(r.Names(func(s *Spec) bool { return s.Mockable })), JoinNames(r.Names(func(s *Spec) bool { return s.Retry })))
	b.WriteString("Runs says where the type does its real work: on the server (`wetel serve`), offline (`wetel run`, `wetel chat --graph`), in mock mode only, or not yet. Publishing a node whose type does not run there gives the NODE_TYPE_UNAVAILABLE diagnostic.\n\n")
	b.WriteString("| type | runs | summary |\n|---|---|---|\n")
	for _, t := range r.Types() {
		s, _ := r.Lookup(t)
		fmt.Fprintf(&b, "| [`%s`](%s.md) | %s | %s |\n", t, t, RunsShort(s), strings.ReplaceAll(s.Summary, "|", "\\|"))
	}
	return b.String()
}
