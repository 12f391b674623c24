package secrets

import (
	"errors"
	"strings"
	"testing"
)

// FuzzOpen checks that Open never panics on garbage, fails only with its
// three errors, and opens nothing but what was sealed.
func FuzzOpen(f *testing.F) {
	box, err := NewBox(testKey(1), testKey(2))
	if err != nil {
		f.Fatal(err)
	}
	const plain = "fuzz-plaintext"
	sealed, err := box.Seal([]byte(plain), testAAD)
	if err != nil {
		f.Fatal(err)
	}
	prefix, body, _ := strings.Cut(sealed, ":")
	for _, s := range []string{
		sealed, "", ":", "v1", "v1.", "v1.:", prefix, prefix + ":", prefix + ":" + body[:10],
		"v1." + keyID(testKey(2)) + ":" + body, "v1.zzzzzzzz:" + body, "v1.0000000:AAAA",
		"v1.00000000:" + strings.Repeat("A", 100), "v2." + strings.TrimPrefix(sealed, "v1."),
		prefix + ":" + body + "=", prefix + "::" + body, "v1." + prefix[3:] + ":" + body + "\n",
	} {
		f.Add(s, testAAD)
	}
	f.Add(sealed, "")
	f.Add(sealed, testAAD+"\x00")
	f.Fuzz(func(t *testing.T, s, aad string) {
		got, err := box.Open(s, aad)
		if err != nil {
			if !errors.Is(err, ErrMalformed) && !errors.Is(err, ErrUnknownKey) && !errors.Is(err, ErrDecrypt) {
				t.Fatalf("Open(%q) failed with an unexpected error: %v", s, err)
			}
			if got != nil {
				t.Fatalf("Open(%q) returned %q with an error", s, got)
			}
			return
		}
		// Only a seal of plain with its own aad opens: GCM makes a forgery
		// hopeless. (Each fuzzing worker seals anew, with a fresh nonce, so
		// the opened text need not be this process's sealed.)
		if aad != testAAD || string(got) != plain || len(s) != len(sealed) || !box.IsCurrent(s) {
			t.Fatalf("Open(%q, %q) = %q: opened something never sealed", s, aad, got)
		}
	})
}
