// Package secrets encrypts credentials at rest: the headers of custom
// actions and the credentials of MCP connectors are stored sealed with a
// key from the operator, and shown back masked.
package secrets

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
)

// KeySize is the length of a key in bytes: AES-256.
const KeySize = 32

// MaxPlaintext bounds what Seal accepts. Credentials are short; a larger
// value is a mistake (a whole file pasted into a header), not a secret.
const MaxPlaintext = 64 << 10

// version starts every sealed value so the format can change later while
// old values still open.
const version = "v1"

// sealedEncoding writes the body of a sealed value. Strict, together with
// refusing line breaks (which the decoder would skip), gives each sealed
// byte string one text only: a sealed value cannot be edited and still open.
var sealedEncoding = base64.RawURLEncoding.Strict()

// Errors returned by Open, for errors.Is. Their text never holds the value,
// the plaintext or a key.
var (
	// ErrMalformed means the value is not a sealed value of a known
	// version: not v1, a bad key id, bad base64 or too short.
	ErrMalformed = errors.New("not a sealed secret")
	// ErrUnknownKey means the value was sealed with a key this Box does
	// not hold: the key changed without the old one kept for opening.
	ErrUnknownKey = errors.New("sealed with a key that is not configured")
	// ErrDecrypt means authentication failed: the value was altered,
	// copied from another place (another aad), or sealed with another key
	// whose id collides.
	ErrDecrypt = errors.New("sealed secret does not authenticate")
)

// Box seals and opens secrets with AES-256-GCM. It seals with its primary
// key and opens with the primary key or any older key it holds, which is
// how a key is rotated: configure the new key as primary and the old one
// as older, and re-seal values for which IsCurrent is false. A Box is safe
// for concurrent use.
type Box struct {
	primary string // key id of the key Seal uses
	aeads   map[string]cipher.AEAD
}

// NewBox returns a Box that seals with key and also opens values sealed
// with any of older. Each key must be KeySize bytes; a key given twice is
// used once.
func NewBox(key []byte, older ...[]byte) (*Box, error) {
	b := &Box{aeads: make(map[string]cipher.AEAD, 1+len(older))}
	for i, k := range append([][]byte{key}, older...) {
		if len(k) != KeySize {
			return nil, fmt.Errorf("secret key %d is %d bytes, want %d", i+1, len(k), KeySize)
		}
		block, err := aes.NewCipher(k)
		if err != nil {
			return nil, fmt.Errorf("secret key %d: %w", i+1, err)
		}
		// Random 12-byte nonces, prepended to the ciphertext by Seal.
		aead, err := cipher.NewGCMWithRandomNonce(block)
		if err != nil {
			return nil, fmt.Errorf("secret key %d: %w", i+1, err)
		}
		id := keyID(k)
		if i == 0 {
			b.primary = id
		}
		if _, dup := b.aeads[id]; !dup {
			b.aeads[id] = aead
		}
	}
	return b, nil
}

// keyID returns the id of key as it appears in sealed values: the first 4
// bytes of its SHA-256, in hex. It names a key in logs and errors without
// revealing it.
func keyID(key []byte) string {
	sum := sha256.Sum256(key)
	return hex.EncodeToString(sum[:4])
}

// KeyID returns the id of the key b seals with.
func (b *Box) KeyID() string { return b.primary }

// Seal encrypts plaintext and returns it as text, "v1.<key id>:" followed
// by the base64url of nonce, ciphertext and tag. aad says where the value
// belongs ("ws:3/customAction:41/header:Authorization"); Open must be given
// the same aad, so a value copied to another row does not open there.
func (b *Box) Seal(plaintext []byte, aad string) (string, error) {
	if aad == "" {
		return "", errors.New("sealing secret: aad is empty; say where the value belongs")
	}
	if len(plaintext) > MaxPlaintext {
		return "", fmt.Errorf("sealing secret: %d bytes is over the limit of %d", len(plaintext), MaxPlaintext)
	}
	prefix := version + "." + b.primary + ":"
	sealed := b.aeads[b.primary].Seal(nil, nil, plaintext, []byte(prefix+aad))
	return prefix + sealedEncoding.EncodeToString(sealed), nil
}

// Open decrypts a value made by Seal with the same aad. It fails with
// ErrMalformed, ErrUnknownKey or ErrDecrypt.
func (b *Box) Open(sealed, aad string) ([]byte, error) {
	id, body, err := parseSealed(sealed)
	if err != nil {
		return nil, err
	}
	aead, ok := b.aeads[id]
	if !ok {
		return nil, fmt.Errorf("opening secret: key %s: %w", id, ErrUnknownKey)
	}
	raw, err := sealedEncoding.DecodeString(body)
	if err != nil || len(raw) < aead.Overhead() {
		return nil, fmt.Errorf("opening secret: %w", ErrMalformed)
	}
	// The version and key id are authenticated with the aad: the header of
	// a sealed value cannot be edited either.
	plaintext, err := aead.Open(nil, nil, raw, []byte(version+"."+id+":"+aad))
	if err != nil {
		return nil, fmt.Errorf("opening secret: %w", ErrDecrypt)
	}
	return plaintext, nil
}

// IsCurrent reports whether sealed was sealed with b's primary key. A
// rotation job opens and re-seals the values for which it is false.
func (b *Box) IsCurrent(sealed string) bool {
	id, _, err := parseSealed(sealed)
	return err == nil && id == b.primary
}

// parseSealed splits "v1.<key id>:<body>" into the key id and the body.
func parseSealed(sealed string) (id, body string, err error) {
	head, body, ok := strings.Cut(sealed, ":")
	id, found := strings.CutPrefix(head, version+".")
	if !ok || !found || len(id) != 8 || strings.ToLower(id) != id || strings.ContainsAny(body, "\r\n") {
		return "", "", fmt.Errorf("opening secret: %w", ErrMalformed)
	}
	if _, err := hex.DecodeString(id); err != nil {
		return "", "", fmt.Errorf("opening secret: %w", ErrMalformed)
	}
	return id, body, nil
}
