package secrets

import (
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
)

// Environment variables LoadKey reads.
const (
	// EnvKey holds the key that seals: 32 bytes as base64 (standard or URL
	// alphabet, padded or not) or as 64 hex characters.
	EnvKey = "WETEL_SECRET_KEY"
	// EnvOldKeys holds older keys, comma-separated in the same forms, that
	// still open values sealed before a rotation.
	EnvOldKeys = "WETEL_SECRET_OLD_KEYS"
)

// KeyFile is the name of the generated key file in the data folder.
const KeyFile = "secret.key"

// keyRule is the accepted key forms, quoted in every error about a key.
const keyRule = "32 bytes encoded as base64 (standard or URL alphabet) or as 64 hex characters"

// LoadKey returns the Box the server seals credentials with. The key comes
// from WETEL_SECRET_KEY when set; otherwise, for the embedded default
// setup, from <dataDir>/secret.key, which is generated (32 random bytes,
// base64, mode 0600) on the first start and reused after. A key file that
// others may read, or that holds no key, is an error rather than silently
// replaced: replacing it would make every stored credential unreadable.
// Keys in WETEL_SECRET_OLD_KEYS open values sealed before a rotation.
// getenv is os.Getenv when nil.
func LoadKey(dataDir string, getenv func(string) string) (*Box, error) {
	if getenv == nil {
		getenv = os.Getenv
	}
	var older [][]byte
	if v := strings.TrimSpace(getenv(EnvOldKeys)); v != "" {
		for i, s := range strings.Split(v, ",") {
			k, ok := parseKey(s)
			if !ok {
				return nil, fmt.Errorf("%s: key %d must be %s", EnvOldKeys, i+1, keyRule)
			}
			older = append(older, k)
		}
	}
	if v := getenv(EnvKey); v != "" {
		k, ok := parseKey(v)
		if !ok {
			return nil, fmt.Errorf("%s must be %s", EnvKey, keyRule)
		}
		return NewBox(k, older...)
	}
	if dataDir == "" {
		return nil, fmt.Errorf("no secret key: set %s or give a data folder to keep a generated key in", EnvKey)
	}
	k, err := loadOrCreateKeyFile(filepath.Join(dataDir, KeyFile))
	if err != nil {
		return nil, err
	}
	return NewBox(k, older...)
}

// parseKey decodes a key in one of the forms keyRule names. Hex is tried
// first: 64 hex characters are also valid base64, of 48 bytes.
func parseKey(s string) ([]byte, bool) {
	s = strings.TrimSpace(s)
	if len(s) == 2*KeySize {
		if k, err := hex.DecodeString(s); err == nil {
			return k, true
		}
	}
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		if k, err := enc.DecodeString(s); err == nil && len(k) == KeySize {
			return k, true
		}
	}
	return nil, false
}

// loadOrCreateKeyFile reads the key at path, generating it first when
// there is none.
func loadOrCreateKeyFile(path string) ([]byte, error) {
	k, err := readKeyFile(path)
	if !errors.Is(err, fs.ErrNotExist) {
		return k, err
	}
	if err := createKeyFile(path); err != nil {
		return nil, err
	}
	return readKeyFile(path)
}

// readKeyFile reads the key at path, refusing a file others can read.
func readKeyFile(path string) ([]byte, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("reading secret key file: %w", err)
	}
	if !info.Mode().IsRegular() {
		return nil, fmt.Errorf("secret key file %s is not a regular file", path)
	}
	// Windows has no Unix permission bits to check.
	if perm := info.Mode().Perm(); perm&0o077 != 0 && runtime.GOOS != "windows" {
		return nil, fmt.Errorf("secret key file %s has mode %04o: it must be readable by its owner only (chmod 600 %s)", path, perm, path)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading secret key file: %w", err)
	}
	k, ok := parseKey(string(data))
	if !ok {
		return nil, fmt.Errorf("secret key file %s does not hold a key: it must hold %s", path, keyRule)
	}
	return k, nil
}

// createKeyFile writes a new random key to path. The key is written to a
// temporary file and linked into place, so a second server starting at the
// same moment either wins or reads the finished key, never half of one.
func createKeyFile(path string) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("creating secret key file: %w", err)
	}
	tmp, err := os.CreateTemp(dir, KeyFile+".tmp-*")
	if err != nil {
		return fmt.Errorf("creating secret key file: %w", err)
	}
	defer os.Remove(tmp.Name())
	key := make([]byte, KeySize)
	if _, err := rand.Read(key); err != nil {
		return fmt.Errorf("creating secret key file: %w", err)
	}
	text := base64.StdEncoding.EncodeToString(key) + "\n"
	// CreateTemp already makes the file 0600; Chmod says so explicitly.
	err = errors.Join(tmp.Chmod(0o600), writeAndSync(tmp, []byte(text)), tmp.Close())
	if err != nil {
		return fmt.Errorf("creating secret key file: %w", err)
	}
	if err := os.Link(tmp.Name(), path); err != nil && !errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("creating secret key file: %w", err)
	}
	return nil
}

func writeAndSync(f *os.File, data []byte) error {
	if _, err := f.Write(data); err != nil {
		return err
	}
	return f.Sync()
}
