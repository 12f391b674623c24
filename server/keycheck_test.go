package server

import (
	"context"
	"encoding/base64"
	"strings"
	"testing"
)

// Servers of one database with different keys: the second start is
// refused, saying which variable must agree; the same key, or the old key
// kept as an older one after a rotation, starts.
func TestServersMustShareTheSecretKey(t *testing.T) {
	dir := t.TempDir()
	key := func(b byte) string {
		return base64.StdEncoding.EncodeToString([]byte(strings.Repeat(string(rune('a'+b)), 32)))
	}
	start := func(k, old string) error {
		t.Setenv("WETEL_SECRET_KEY", k)
		t.Setenv("WETEL_SECRET_OLD_KEYS", old)
		s, err := New(context.Background(), Config{DataDir: dir, BootstrapKey: testKey})
		if err == nil {
			s.Close(context.Background())
		}
		return err
	}
	if err := start(key(0), ""); err != nil {
		t.Fatal(err)
	}
	if err := start(key(0), ""); err != nil {
		t.Fatalf("the same key again: %v", err)
	}
	err := start(key(1), "")
	if err == nil || !strings.Contains(err.Error(), "WETEL_SECRET_KEY") || !strings.Contains(err.Error(), "cannot open") {
		t.Fatalf("another key: %v", err)
	}
	if err := start(key(1), key(0)); err != nil {
		t.Errorf("a rotated key with the old one kept: %v", err)
	}
}
