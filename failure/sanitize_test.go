package failure

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestRedactValues(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		msg     string
		values  []string
		secrets []string
		keep    []string
	}{
		{"plain value", "call to claims failed: header X-Tenant-Key=tn-0a1b2c was refused", []string{"tn-0a1b2c"}, []string{"tn-0a1b2c"}, []string{"call to claims failed"}},
		{"value not looking secret", "upstream echoed hunter2-orange in its error", []string{"hunter2-orange"}, []string{"hunter2-orange"}, []string{"upstream echoed [REDACTED] in its error"}},
		{"whole header value and its credential", "Bearer Zq81x was rejected; token Zq81x unknown", []string{"Bearer Zq81x"}, []string{"Zq81x"}, []string{"was rejected; token [REDACTED] unknown"}},
		{"query-escaped", "GET /x?p=p%40ss+w%2Frd failed", []string{"p@ss w/rd"}, []string{"p%40ss+w%2Frd"}, []string{"GET /x?p=[REDACTED] failed"}},
		{"json-escaped", `{"echo":"a\"quoted\"secret"}`, []string{`a"quoted"secret`}, []string{`quoted\"secret`}, []string{`{"echo":"[REDACTED]"}`}},
		{"longer value first", "creds abcd and abcdef", []string{"abcd", "abcdef"}, []string{"abcd"}, []string{"creds [REDACTED] and [REDACTED]"}},
		{"short values ignored", "the id is 7 and ok", []string{"7", "ok", "", "  "}, nil, []string{"the id is 7 and ok"}},
		{"patterns still apply", "password=hunter2 and v4lue", []string{"v4lue"}, []string{"hunter2", "v4lue"}, []string{"password=[REDACTED] and [REDACTED]"}},
	}
	for _, tt := range tests {
		got := RedactValues(tt.msg, tt.values)
		for _, s := range tt.secrets {
			if strings.Contains(got, s) {
				t.Errorf("%s: RedactValues(%q) = %q, still contains %q", tt.name, tt.msg, got, s)
			}
		}
		for _, k := range tt.keep {
			if !strings.Contains(got, k) {
				t.Errorf("%s: RedactValues(%q) = %q, lost %q", tt.name, tt.msg, got, k)
			}
		}
	}
}

func TestSanitizeBoundsLength(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("é", 3000) // two bytes each: a cut can land mid-character
	got := Sanitize(long, nil)
	if len(got) > MaxMessageBytes {
		t.Fatalf("len(Sanitize) = %d, want at most %d", len(got), MaxMessageBytes)
	}
	if !utf8.ValidString(got) || !strings.HasSuffix(got, "…") {
		t.Fatalf("Sanitize did not cut on a character boundary with a marker: ...%q", got[len(got)-8:])
	}
	if short := "HTTP 404"; Sanitize(short, nil) != short {
		t.Errorf("Sanitize(%q) = %q, want it unchanged", short, Sanitize(short, nil))
	}
	exact := strings.Repeat("a", MaxMessageBytes)
	if Sanitize(exact, nil) != exact {
		t.Errorf("a message of exactly MaxMessageBytes must not be cut")
	}
}

// Redaction runs before the cut, so a secret straddling the limit is not
// left half visible.
func TestSanitizeRedactsBeforeTruncating(t *testing.T) {
	t.Parallel()
	msg := strings.Repeat("x", MaxMessageBytes-20) + " Authorization: Bearer ABCDEFGHIJKLMNOPQRSTUVWXYZ012345"
	got := Sanitize(msg, nil)
	if strings.Contains(got, "ABCDEFGH") {
		t.Errorf("Sanitize leaked the head of a secret cut at the limit: ...%q", got[len(got)-40:])
	}
	msg = "token " + strings.Repeat("v", 100) + " at the end"
	if got := Sanitize(msg, []string{strings.Repeat("v", 100)}); got != "token [REDACTED] at the end" {
		t.Errorf("Sanitize with a value = %q", got)
	}
}

func TestSanitizeHugeMessage(t *testing.T) {
	t.Parallel()
	huge := "HTTP 502 Bad Gateway: api_key=Zz99 " + strings.Repeat("<div>boom</div> ", 200_000)
	got := Sanitize(huge, nil)
	if len(got) > MaxMessageBytes || strings.Contains(got, "Zz99") {
		t.Errorf("Sanitize(huge) = %d bytes, leaked=%v", len(got), strings.Contains(got, "Zz99"))
	}
	bad := "bad \xff\xfe bytes password=x"
	if got := Sanitize(bad, nil); !utf8.ValidString(got) || got != "bad \uFFFD bytes password=[REDACTED]" {
		t.Errorf("Sanitize(%q) = %q", bad, got)
	}
}

func TestCutAtSpace(t *testing.T) {
	t.Parallel()
	msg := strings.Repeat("a", 90) + " " + strings.Repeat("b", 30)
	if got := cutAtSpace(msg, 100); got != strings.Repeat("a", 90) {
		t.Errorf("cutAtSpace cut inside a word: %q", got)
	}
	noSpace := strings.Repeat("é", 100)
	if got := cutAtSpace(noSpace, 101); len(got) != 100 || !utf8.ValidString(got) {
		t.Errorf("cutAtSpace without spaces = %d bytes, valid=%v", len(got), utf8.ValidString(got))
	}
}
