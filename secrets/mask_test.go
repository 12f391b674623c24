package secrets

import (
	"strings"
	"testing"
)

func TestMask(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"", ""},
		{"hunter2", "****"},
		{"elevenchars", "****"},              // 11: under the threshold
		{"twelve-chars", "****hars"},         // 12: the last 4 show
		{"sk-proj-abcdefgh1234", "****1234"}, // the vendor prefix is hidden too
		{"Bearer sk-proj-abcdefgh1234", "Bearer ****1234"},
		{"bearer  eyJhbGciOiJIUzI1NiJ9.e30.sig", "bearer  ****.sig"},
		{"Bearer short", "Bearer ****"},
		{"Bearer ", "****"},
		{"Token ghp_abcdefghijklmnop", "Token ****mnop"},
		{"Basic dXNlcjpodW50ZXIyLW9yYW5nZQ==", "Basic ****"}, // never the tail of a password
		{"correct horse battery staple", "****aple"},         // no scheme word: the first word stays hidden
		{"pässwörd-ünïcödé-42", "****é-42"},                  // characters, not bytes
	}
	for _, tt := range tests {
		if got := Mask(tt.in); got != tt.want {
			t.Errorf("Mask(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// A mask never reveals more than the last 4 characters, nor the length.
func TestMaskHidesLength(t *testing.T) {
	t.Parallel()
	for n := 1; n < 40; n++ {
		got := Mask(strings.Repeat("s", n))
		if strings.Count(got, "s") > maskTail || len(got) > len(maskStars)+maskTail {
			t.Errorf("Mask of %d characters = %q", n, got)
		}
	}
}

func TestMaskHeaders(t *testing.T) {
	t.Parallel()
	in := map[string]string{
		"Authorization":       "Bearer sk-proj-abcdefgh1234",
		"Proxy-Authorization": "Basic dXNlcjpwYXNz",
		"Cookie":              "session=abcdef0123456789",
		"X-Api-Key":           "k-1234",
		"X-Auth-Token":        "tok-0123456789abcdef",
		"Client-Secret":       "cs",
		"Content-Type":        "application/json",
		"X-Tenant":            "acme-corporation-eu",
	}
	want := map[string]string{
		"Authorization":       "Bearer ****1234",
		"Proxy-Authorization": "Basic ****",
		"Cookie":              "****6789",
		"X-Api-Key":           "****",
		"X-Auth-Token":        "****cdef",
		"Client-Secret":       "****",
		"Content-Type":        "application/json",
		"X-Tenant":            "acme-corporation-eu",
	}
	got := MaskHeaders(in)
	for name, w := range want {
		if got[name] != w {
			t.Errorf("MaskHeaders[%q] = %q, want %q", name, got[name], w)
		}
	}
	if in["X-Api-Key"] != "k-1234" {
		t.Errorf("MaskHeaders changed its argument")
	}
	if MaskHeaders(nil) != nil {
		t.Errorf("MaskHeaders(nil) is not nil")
	}
}
