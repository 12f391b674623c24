package secrets

import (
	"encoding/base64"
	"encoding/hex"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// env returns a getenv that reads vars only.
func env(vars map[string]string) func(string) string {
	return func(name string) string { return vars[name] }
}

func TestLoadKeyFromEnv(t *testing.T) {
	t.Parallel()
	key := testKey(7)
	urlKey := testKey(0xfb) // encodes to "-_v7...", which standard base64 rejects
	tests := []struct {
		name, value string
		key         []byte
	}{
		{"standard base64", base64.StdEncoding.EncodeToString(urlKey), urlKey},
		{"unpadded base64", base64.RawStdEncoding.EncodeToString(key), key},
		{"url base64", base64.URLEncoding.EncodeToString(urlKey), urlKey},
		{"unpadded url base64", base64.RawURLEncoding.EncodeToString(urlKey), urlKey},
		{"hex", hex.EncodeToString(key), key},
		{"upper-case hex", strings.ToUpper(hex.EncodeToString(key)), key},
		{"surrounding space", " " + hex.EncodeToString(key) + "\n", key},
	}
	for _, tt := range tests {
		box, err := LoadKey(t.TempDir(), env(map[string]string{EnvKey: tt.value}))
		if err != nil {
			t.Errorf("%s: LoadKey: %v", tt.name, err)
			continue
		}
		if box.KeyID() != keyID(tt.key) {
			t.Errorf("%s: key id %s, want %s", tt.name, box.KeyID(), keyID(tt.key))
		}
	}
}

func TestLoadKeyEnvErrors(t *testing.T) {
	t.Parallel()
	const secretish = "c2VjcmV0LXZhbHVlLXRoYXQtaXMtbm90LTMyLWJ5dGVz"
	for name, vars := range map[string]map[string]string{
		"too short":     {EnvKey: base64.StdEncoding.EncodeToString(make([]byte, 16))},
		"not encoded":   {EnvKey: "correct horse battery staple"},
		"wrong length":  {EnvKey: secretish},
		"63 hex":        {EnvKey: strings.Repeat("a", 63)},
		"only spaces":   {EnvKey: "   "},
		"bad older key": {EnvKey: hex.EncodeToString(testKey(1)), EnvOldKeys: hex.EncodeToString(testKey(2)) + "," + secretish},
		"empty older":   {EnvKey: hex.EncodeToString(testKey(1)), EnvOldKeys: hex.EncodeToString(testKey(2)) + ","},
	} {
		_, err := LoadKey(t.TempDir(), env(vars))
		if err == nil {
			t.Errorf("%s: LoadKey succeeded", name)
			continue
		}
		msg := err.Error()
		wantVar := EnvKey
		if vars[EnvOldKeys] != "" {
			wantVar = EnvOldKeys
		}
		if !strings.Contains(msg, wantVar) || !strings.Contains(msg, keyRule) {
			t.Errorf("%s: error %q does not name %s and the rule", name, msg, wantVar)
		}
		if strings.Contains(msg, secretish) || strings.Contains(msg, "horse") {
			t.Errorf("%s: error %q holds the value", name, msg)
		}
	}
	if _, err := LoadKey("", env(nil)); err == nil || !strings.Contains(err.Error(), EnvKey) {
		t.Errorf("LoadKey with no key and no data folder: %v", err)
	}
}

func TestLoadKeyOldKeys(t *testing.T) {
	t.Parallel()
	old := newTestBox(t, testKey(1))
	sealed, _ := old.Seal([]byte("v"), testAAD)
	box, err := LoadKey("", env(map[string]string{
		EnvKey:     hex.EncodeToString(testKey(2)),
		EnvOldKeys: " " + base64.StdEncoding.EncodeToString(testKey(3)) + " , " + hex.EncodeToString(testKey(1)),
	}))
	if err != nil {
		t.Fatal(err)
	}
	if got, err := box.Open(sealed, testAAD); err != nil || string(got) != "v" {
		t.Errorf("old key from %s does not open: %q, %v", EnvOldKeys, got, err)
	}
}

func TestLoadKeyGeneratesFile(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "data")
	first, err := LoadKey(dir, env(nil))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, KeyFile)
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if runtime.GOOS != "windows" && info.Mode().Perm() != 0o600 {
		t.Errorf("%s has mode %04o, want 0600", KeyFile, info.Mode().Perm())
	}
	data, _ := os.ReadFile(path)
	if k, err := base64.StdEncoding.DecodeString(strings.TrimSpace(string(data))); err != nil || len(k) != KeySize {
		t.Errorf("%s holds %d bytes of base64 (%v), want %d", KeyFile, len(k), err, KeySize)
	}
	sealed, _ := first.Seal([]byte("v"), testAAD)
	again, err := LoadKey(dir, env(nil))
	if err != nil {
		t.Fatal(err)
	}
	if got, err := again.Open(sealed, testAAD); err != nil || string(got) != "v" {
		t.Errorf("the key was not reused on a second start: %v", err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("data folder holds %d files, want only %s", len(entries), KeyFile)
	}
}

func TestLoadKeyFileRefused(t *testing.T) {
	t.Parallel()
	good := base64.StdEncoding.EncodeToString(testKey(1))
	tests := []struct {
		name    string
		content string
		perm    os.FileMode
		want    string
	}{
		{"readable by others", good, 0o644, "mode 0644"},
		{"readable by group", good, 0o640, "chmod 600"},
		{"not a key", "hello", 0o600, "does not hold a key"},
		{"empty", "", 0o600, "does not hold a key"},
	}
	for _, tt := range tests {
		if runtime.GOOS == "windows" && tt.perm != 0o600 {
			continue
		}
		dir := t.TempDir()
		path := filepath.Join(dir, KeyFile)
		if err := os.WriteFile(path, []byte(tt.content), tt.perm); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(path, tt.perm); err != nil { // past the umask
			t.Fatal(err)
		}
		_, err := LoadKey(dir, env(nil))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: LoadKey = %v, want an error saying %q", tt.name, err, tt.want)
		}
		if data, _ := os.ReadFile(path); string(data) != tt.content {
			t.Errorf("%s: the refused key file was rewritten", tt.name)
		}
	}
	if _, err := LoadKey(t.TempDir(), env(map[string]string{EnvKey: good})); err != nil {
		t.Errorf("an env key needs no key file: %v", err)
	}
}
