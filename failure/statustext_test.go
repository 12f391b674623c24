package failure

import (
	"net/http"
	"testing"
)

// The copied reason phrases stay those of net/http, which messages and
// the status-line recogniser are written against.
func TestStatusTextMatchesNetHTTP(t *testing.T) {
	t.Parallel()
	for code := -1; code < 1000; code++ {
		if got, want := statusText(code), http.StatusText(code); got != want {
			t.Errorf("statusText(%d) = %q, net/http says %q", code, got, want)
		}
	}
}
