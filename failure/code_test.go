package failure

import (
	"math/rand/v2"
	"strings"
	"testing"
)

func TestCodesInTableOrder(t *testing.T) {
	t.Parallel()
	want := []string{"TIMEOUT", "UNREACHABLE", "RATE_LIMITED", "REJECTED", "UPSTREAM_ERROR", "INVALID_DATA", "UNKNOWN"}
	got := Codes()
	if len(got) != len(want) {
		t.Fatalf("Codes() has %d codes, want %d", len(got), len(want))
	}
	for i, c := range got {
		if string(c) != want[i] || !c.Valid() {
			t.Errorf("Codes()[%d] = %q (valid %v), want %q", i, c, c.Valid(), want[i])
		}
	}
	got[0] = "CHANGED"
	if Codes()[0] != Timeout {
		t.Error("Codes() shares its backing array with callers")
	}
}

func TestParseCode(t *testing.T) {
	t.Parallel()
	for _, c := range Codes() {
		if got, err := ParseCode(string(c)); err != nil || got != c {
			t.Errorf("ParseCode(%q) = %q, %v", c, got, err)
		}
	}
	for _, s := range []string{"", "timeout", " TIMEOUT", "FAILED", "RATE-LIMITED"} {
		_, err := ParseCode(s)
		if err == nil {
			t.Errorf("ParseCode(%q) accepted an invalid code", s)
			continue
		}
		for _, c := range Codes() {
			if !strings.Contains(err.Error(), string(c)) {
				t.Errorf("ParseCode(%q) error %q does not list %s", s, err, c)
			}
		}
	}
	if Code("timeout").Valid() || Code("").Valid() {
		t.Error("Valid accepted a code that is not spelled exactly")
	}
}

func TestPublicSentence(t *testing.T) {
	t.Parallel()
	// Rule: the specification's table of _lastNodeErrorPublic sentences.
	want := map[Code]string{
		Timeout:       "The service took too long to respond.",
		Unreachable:   "The service could not be reached.",
		RateLimited:   "The service is busy right now.",
		Rejected:      "The service did not accept the request.",
		UpstreamError: "The service had a problem handling the request.",
		InvalidData:   "The information could not be processed.",
		Unknown:       "Something went wrong with that step.",
	}
	for _, c := range Codes() {
		if got := c.PublicSentence(); got != want[c] {
			t.Errorf("%s.PublicSentence() = %q, want %q", c, got, want[c])
		}
	}
	for _, c := range []Code{"", "timeout", "BOGUS"} {
		if got := c.PublicSentence(); got != want[Unknown] {
			t.Errorf("Code(%q).PublicSentence() = %q, want UNKNOWN's sentence", c, got)
		}
	}
}

// Rule: "the sentence never contains any part of the original message".
// The sentences are constants, but the engine builds them from messages
// full of secrets and hosts, so check that no message word reaches them.
func TestPublicSentenceCarriesNothingFromTheMessage(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	messages := []string{
		"Authorization: Bearer sk-proj-abcdefghijklmnopqrstuvwx was refused by api.internal.example",
		"HTTP 429 Too Many Requests from https://user:hunter2@hooks.example.com",
		"dial tcp 10.1.2.3:5432: connect: connection refused",
		"invalid character 'p' in password=Tr0ub4dor&3",
	}
	for range 200 {
		b := make([]byte, 8+rng.IntN(40))
		for i := range b {
			b[i] = byte('!' + rng.IntN(94))
		}
		messages = append(messages, "Q"+string(b)+"Z")
	}
	sentences := make(map[string]bool)
	for _, c := range Codes() {
		sentences[c.PublicSentence()] = true
	}
	for _, msg := range messages {
		sentence := Classify(&Error{Message: msg}).PublicSentence()
		if !sentences[sentence] {
			t.Errorf("sentence %q for message %q is not one of the table's", sentence, msg)
		}
		for _, word := range strings.Fields(msg) {
			if len(word) >= 6 && strings.Contains(sentence, word) {
				t.Errorf("sentence %q contains %q from message %q", sentence, word, msg)
			}
		}
	}
}
