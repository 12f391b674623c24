package secrets

import "testing"

func TestURLCredential(t *testing.T) {
	t.Parallel()
	for raw, want := range map[string]string{
		"https://api.example.com/v1/x?page=2":                "",
		"https://api.example.com/x?monkey=1&keyword=k":       "",
		"https://api.example.com/x?api_key={{vars.key}}":     "",
		"https://api.example.com/x?api_key=":                 "",
		"http://user:PW@host.example/x":                      "a user name or password",
		"https://ghp_token@github.com/o/r":                   "a user name or password",
		"https://h.example/x?page=1&api_key=K":               `the query parameter "api_key"`,
		"https://h.example/x?access%5Ftoken=T":               `the query parameter "access_token"`,
		"https://h.example/x?X-Amz-Signature=abc&X-Amz-Date": `the query parameter "X-Amz-Signature"`,
		"https://h.example/x?clientSecret=s":                 `the query parameter "clientSecret"`,
	} {
		if got := URLCredential(raw); got != want {
			t.Errorf("URLCredential(%q) = %q, want %q", raw, got, want)
		}
	}
}

func TestMaskURL(t *testing.T) {
	t.Parallel()
	for raw, want := range map[string]string{
		"https://api.example.com/v1/x?page=2":       "https://api.example.com/v1/x?page=2",
		"http://user:PW@host.example/x?api_key=K&b": "http://user:****@host.example/x?api_key=****&b",
		"https://tok@github.com/o/r":                "https://****@github.com/o/r",
		"https://h.example/x?a=1&token=t%2Fu&b=%20": "https://h.example/x?a=1&token=****&b=%20",
		"not a url %zz":                             "not a url %zz",
	} {
		if got := MaskURL(raw); got != want {
			t.Errorf("MaskURL(%q) = %q, want %q", raw, got, want)
		}
	}
}
