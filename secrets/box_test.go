package secrets

import (
	"bytes"
	"crypto/cipher"
	"encoding/base64"
	"errors"
	"strings"
	"testing"
)

const testAAD = "ws:3/customAction:41/header:Authorization"

// testKey returns a fixed key whose bytes all equal b.
func testKey(b byte) []byte { return bytes.Repeat([]byte{b}, KeySize) }

func newTestBox(t *testing.T, key []byte, older ...[]byte) *Box {
	t.Helper()
	box, err := NewBox(key, older...)
	if err != nil {
		t.Fatalf("NewBox: %v", err)
	}
	return box
}

func TestSealOpenRoundTrip(t *testing.T) {
	t.Parallel()
	box := newTestBox(t, testKey(1))
	for _, plain := range []string{"Bearer sk-abc", "", "ünïcödé \x00 bytes", strings.Repeat("x", MaxPlaintext)} {
		sealed, err := box.Seal([]byte(plain), testAAD)
		if err != nil {
			t.Fatalf("Seal: %v", err)
		}
		if !strings.HasPrefix(sealed, "v1."+box.KeyID()+":") {
			t.Errorf("Seal = %.30q..., want the v1.<kid>: prefix", sealed)
		}
		if plain != "" && strings.Contains(sealed, plain) {
			t.Errorf("sealed value holds the plaintext")
		}
		got, err := box.Open(sealed, testAAD)
		if err != nil || string(got) != plain {
			t.Errorf("Open = %.20q, %v; want the plaintext back", got, err)
		}
	}
	a, _ := box.Seal([]byte("same"), testAAD)
	b, _ := box.Seal([]byte("same"), testAAD)
	if a == b {
		t.Errorf("two seals of one value are equal: the nonce is not random")
	}
}

func TestSealRefuses(t *testing.T) {
	t.Parallel()
	box := newTestBox(t, testKey(1))
	if _, err := box.Seal([]byte("x"), ""); err == nil {
		t.Errorf("Seal with an empty aad succeeded")
	}
	if _, err := box.Seal(make([]byte, MaxPlaintext+1), testAAD); err == nil {
		t.Errorf("Seal over MaxPlaintext succeeded")
	}
	if _, err := NewBox(make([]byte, 16)); err == nil || !strings.Contains(err.Error(), "16 bytes, want 32") {
		t.Errorf("NewBox with a 16-byte key: %v", err)
	}
	if _, err := NewBox(testKey(1), []byte("short")); err == nil {
		t.Errorf("NewBox with a short older key succeeded")
	}
}

func TestOpenFails(t *testing.T) {
	t.Parallel()
	box := newTestBox(t, testKey(1))
	const plain = "hunter2-orange"
	sealed, err := box.Seal([]byte(plain), testAAD)
	if err != nil {
		t.Fatal(err)
	}
	prefix, body, _ := strings.Cut(sealed, ":")
	raw, _ := base64.RawURLEncoding.DecodeString(body)
	// Key ids are 32 bits, so two keys can share one; GCM still tells them apart.
	other := newTestBox(t, testKey(2))
	collide := &Box{primary: box.primary, aeads: map[string]cipher.AEAD{box.primary: other.aeads[other.primary]}}
	tests := []struct {
		name   string
		box    *Box
		sealed string
		aad    string
		want   error
	}{
		{"flipped ciphertext byte", box, prefix + ":" + flip(raw, len(raw)/2), testAAD, ErrDecrypt},
		{"flipped nonce byte", box, prefix + ":" + flip(raw, 0), testAAD, ErrDecrypt},
		{"flipped tag byte", box, prefix + ":" + flip(raw, len(raw)-1), testAAD, ErrDecrypt},
		{"wrong aad", box, sealed, "ws:3/customAction:42/header:Authorization", ErrDecrypt},
		{"wrong key", newTestBox(t, testKey(2)), sealed, testAAD, ErrUnknownKey},
		{"wrong key with the same id", collide, sealed, testAAD, ErrDecrypt},
		{"unknown version", box, "v2" + strings.TrimPrefix(sealed, "v1"), testAAD, ErrMalformed},
		{"no prefix", box, body, testAAD, ErrMalformed},
		{"bad base64", box, prefix + ":" + body + "!", testAAD, ErrMalformed},
		{"too short", box, prefix + ":AAAA", testAAD, ErrMalformed},
		{"upper-case key id", box, strings.ToUpper(prefix) + ":" + body, testAAD, ErrMalformed},
		{"empty", box, "", testAAD, ErrMalformed},
	}
	for _, tt := range tests {
		got, err := tt.box.Open(tt.sealed, tt.aad)
		if !errors.Is(err, tt.want) || got != nil {
			t.Errorf("%s: Open = %q, %v; want %v", tt.name, got, err, tt.want)
		}
		if err != nil && strings.Contains(err.Error(), plain) {
			t.Errorf("%s: the error %q holds the plaintext", tt.name, err)
		}
	}
}

// flip returns raw with one bit of byte i flipped, encoded as in a sealed value.
func flip(raw []byte, i int) string {
	c := bytes.Clone(raw)
	c[i] ^= 0x01
	return base64.RawURLEncoding.EncodeToString(c)
}

// Rotation: the new key seals, the old one still opens, and IsCurrent
// tells a re-seal job which values to rewrite.
func TestRotation(t *testing.T) {
	t.Parallel()
	oldBox := newTestBox(t, testKey(1))
	oldSealed, _ := oldBox.Seal([]byte("old value"), testAAD)

	box := newTestBox(t, testKey(2), testKey(1))
	if got, err := box.Open(oldSealed, testAAD); err != nil || string(got) != "old value" {
		t.Fatalf("rotated box cannot open an old value: %q, %v", got, err)
	}
	newSealed, _ := box.Seal([]byte("new value"), testAAD)
	if !strings.HasPrefix(newSealed, "v1."+keyID(testKey(2))+":") {
		t.Errorf("rotated box seals with %.12q, want the new key", newSealed)
	}
	if box.IsCurrent(oldSealed) || !box.IsCurrent(newSealed) || box.IsCurrent("garbage") {
		t.Errorf("IsCurrent(old, new, garbage) = %v, %v, %v; want false, true, false",
			box.IsCurrent(oldSealed), box.IsCurrent(newSealed), box.IsCurrent("garbage"))
	}
	if _, err := oldBox.Open(newSealed, testAAD); !errors.Is(err, ErrUnknownKey) {
		t.Errorf("old box opened a value sealed with the new key: %v", err)
	}
	if dup := newTestBox(t, testKey(2), testKey(2)); len(dup.aeads) != 1 {
		t.Errorf("a key given twice is held %d times", len(dup.aeads))
	}
}

func TestSealMap(t *testing.T) {
	t.Parallel()
	box := newTestBox(t, testKey(1))
	const prefix = "ws:3/customAction:41/header:"
	headers := map[string]string{"Authorization": "Bearer abc", "X-Api-Key": "k-123"}
	sealed, err := box.SealMap(headers, prefix)
	if err != nil {
		t.Fatal(err)
	}
	opened, err := box.OpenMap(sealed, prefix)
	if err != nil || len(opened) != 2 || opened["Authorization"] != "Bearer abc" || opened["X-Api-Key"] != "k-123" {
		t.Fatalf("OpenMap(SealMap) = %v, %v", opened, err)
	}
	// Swapping two values between keys, or moving them to another
	// action, must fail: the aad is per key.
	sealed["Authorization"], sealed["X-Api-Key"] = sealed["X-Api-Key"], sealed["Authorization"]
	if _, err := box.OpenMap(sealed, prefix); !errors.Is(err, ErrDecrypt) {
		t.Errorf("OpenMap with swapped values: %v, want ErrDecrypt", err)
	}
	if _, err := box.OpenMap(map[string]string{"X-Api-Key": opened["X-Api-Key"]}, prefix); err == nil || !strings.Contains(err.Error(), `"X-Api-Key"`) {
		t.Errorf("OpenMap of a plain value: %v, want an error naming the key", err)
	}
	if m, err := box.SealMap(nil, prefix); m != nil || err != nil {
		t.Errorf("SealMap(nil) = %v, %v", m, err)
	}
}
