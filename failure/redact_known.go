package failure

import (
	"encoding/base64"
	"strings"
)

// minBase64Form is the shortest base64 form of a known secret that
// RedactValues removes. The forms are cut to the characters that depend on
// the secret alone, and fewer than six such characters could turn up in
// ordinary base64 (an image, a cursor) by chance.
const minBase64Form = 6

// urlAlphabet turns standard base64 into URL-safe base64: the two
// alphabets differ only in these two characters.
var urlAlphabet = strings.NewReplacer("+", "-", "/", "_")

// base64Forms returns the base64 forms of secret that a message may carry,
// in the standard and the URL-safe alphabet: the runs of characters that
// spell it wherever it sits, on its own (a Basic credential made of a
// token) or inside a longer encoded value (the password in Basic
// base64("user:password"), a token inside an encoded JSON body).
//
// Base64 encodes three bytes as four characters, so a secret starts at one
// of three offsets within a group. For each offset the characters that mix
// in bits of the bytes before the secret (the first two or three) and after
// it (the last one, when the secret does not end on a group boundary) are
// dropped; what is left is the same whatever surrounds the secret. Removing
// it leaves at most one character on either side, a few bits of the secret.
func base64Forms(secret string) []string {
	forms := make([]string, 0, 6)
	buf := make([]byte, len(secret)+2)
	for offset := range 3 {
		clear(buf[:offset])
		copy(buf[offset:], secret)
		text := base64.RawStdEncoding.EncodeToString(buf[:offset+len(secret)])
		lo := (8*offset + 5) / 6 // characters holding bits of the bytes before
		hi := len(text)
		if (offset+len(secret))%3 != 0 {
			hi-- // the last character holds bits of the byte after
		}
		if hi-lo < minBase64Form {
			continue
		}
		forms = append(forms, text[lo:hi])
		if url := urlAlphabet.Replace(text[lo:hi]); url != text[lo:hi] {
			forms = append(forms, url)
		}
	}
	return forms
}
