package failure

import (
	"strings"
	"unicode/utf8"
)

// MaxMessageBytes bounds what is stored in _lastNodeError and in traces,
// marker included: a failing service can answer with a page of HTML, and a
// context variable is copied into prompts and snapshots.
const MaxMessageBytes = 2048

// truncationMarker ends a message that Sanitize shortened.
const truncationMarker = "…"

// redactWindow bounds how much of a huge message is redacted at all. Only
// the first MaxMessageBytes survive anyway, so scanning megabytes of a
// response body would buy nothing; the window is wide enough that even a
// long PEM block near the start is still seen whole.
const redactWindow = 64 << 10

// Sanitize returns what the engine stores in _lastNodeError and traces:
// msg as valid UTF-8, with the given secret values and every recognisable
// secret redacted (see RedactValues), truncated on a character boundary to
// at most MaxMessageBytes bytes ending in "…". Redaction runs before
// truncation, so cutting can never split a secret into an unrecognisable
// fragment that survives.
func Sanitize(msg string, secrets []string) string {
	msg = strings.ToValidUTF8(msg, "\uFFFD")
	msg = RedactValues(cutAtSpace(msg, redactWindow), secrets)
	// A secret value that starts inside a multi-byte character leaves the
	// rest of that character behind; the stored text must stay valid.
	return truncate(strings.ToValidUTF8(msg, "\uFFFD"), MaxMessageBytes)
}

// cutAtSpace shortens msg to at most limit bytes. It cuts just before the
// last white space within the final kilobyte, so the cut does not halve a
// token: half a secret would no longer be recognised by Redact. A message
// with no space there is cut on a character boundary.
func cutAtSpace(msg string, limit int) string {
	if len(msg) <= limit {
		return msg
	}
	head := msg[:runeStart(msg, limit)]
	from := max(len(head)-1024, 0)
	if i := strings.LastIndexAny(head[from:], " \t\r\n"); i >= 0 {
		return head[:from+i]
	}
	return head
}

// truncate shortens msg to at most limit bytes including the marker.
func truncate(msg string, limit int) string {
	if len(msg) <= limit {
		return msg
	}
	return msg[:runeStart(msg, limit-len(truncationMarker))] + truncationMarker
}

// runeStart returns the largest i <= n at which a character of s starts.
func runeStart(s string, n int) int {
	for n > 0 && n < len(s) && !utf8.RuneStart(s[n]) {
		n--
	}
	return n
}
