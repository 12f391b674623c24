package retry

import (
	"errors"
	"fmt"
	"net/http"
	"testing"
	"time"
)

func TestParseRetryAfter(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 10, 21, 7, 28, 0, 0, time.UTC)
	tests := []struct {
		h    string
		want time.Duration
		ok   bool
	}{
		{"120", 120 * time.Second, true},
		{" 5 ", 5 * time.Second, true},
		{"0", 0, true},
		{"007", 7 * time.Second, true},
		{"Wed, 21 Oct 2026 07:28:30 GMT", 30 * time.Second, true},
		{"Wednesday, 21-Oct-26 07:29:00 GMT", time.Minute, true},
		{"Wed Oct 21 07:28:02 2026", 2 * time.Second, true},
		{"Wed, 21 Oct 2026 07:00:00 GMT", 0, true}, // in the past: no wait
		{"99999999999999999999999", maxRetryAfter, true},
		{"31536001", maxRetryAfter, true},
		{"Fri, 21 Oct 2150 07:28:00 GMT", maxRetryAfter, true},
		{"", 0, false},
		{"   ", 0, false},
		{"-1", 0, false},
		{"+5", 0, false},
		{"1.5", 0, false},
		{"5s", 0, false},
		{"soon", 0, false},
		{"2026-10-21T07:28:30Z", 0, false},
	}
	for _, tt := range tests {
		got, ok := ParseRetryAfter(tt.h, now)
		if got != tt.want || ok != tt.ok {
			t.Errorf("ParseRetryAfter(%q) = %v, %v; want %v, %v", tt.h, got, ok, tt.want, tt.ok)
		}
	}
}

func TestRetryAfterFindsTheHint(t *testing.T) {
	t.Parallel()
	if _, ok := RetryAfter(errBoom); ok {
		t.Error("RetryAfter found a hint on a plain error")
	}
	err := fmt.Errorf("calling: %w", &AfterError{Err: err429, After: 3 * time.Second})
	if d, ok := RetryAfter(err); !ok || d != 3*time.Second {
		t.Errorf("RetryAfter = %v, %v; want 3s", d, ok)
	}
	if d, ok := RetryAfter(&AfterError{After: -time.Second}); !ok || d != 0 {
		t.Errorf("negative RetryAfter = %v, %v; want 0", d, ok)
	}
	if !errors.Is(err, err429) {
		t.Error("AfterError hides its cause from errors.Is")
	}
	if got := (&AfterError{After: time.Second}).Error(); got != "retry after 1s" {
		t.Errorf("Error() without a cause = %q", got)
	}
}

func TestWithRetryAfter(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 10, 21, 7, 28, 0, 0, time.UTC)
	h := http.Header{"Retry-After": {"4"}}
	tests := []struct {
		status int
		header http.Header
		want   time.Duration
		ok     bool
	}{
		{429, h, 4 * time.Second, true},
		{503, h, 4 * time.Second, true},
		{500, h, 0, false},
		{302, h, 0, false},
		{429, http.Header{}, 0, false},
		{429, http.Header{"Retry-After": {"later"}}, 0, false},
	}
	for _, tt := range tests {
		err := WithRetryAfter(err429, tt.status, tt.header, now)
		d, ok := RetryAfter(err)
		if d != tt.want || ok != tt.ok || !errors.Is(err, err429) {
			t.Errorf("status %d %v: RetryAfter = %v, %v; want %v, %v", tt.status, tt.header, d, ok, tt.want, tt.ok)
		}
	}
	if WithRetryAfter(nil, 429, h, now) != nil {
		t.Error("WithRetryAfter(nil) is not nil")
	}
	if err := WithRetryAfter(err429, 429, nil, now); err != err429 {
		t.Errorf("WithRetryAfter without headers = %v", err)
	}
}

// parseHTTPDate reads exactly what net/http.ParseTime reads.
func TestParseHTTPDateMatchesNetHTTP(t *testing.T) {
	t.Parallel()
	for _, h := range []string{
		"Wed, 21 Oct 2026 07:28:00 GMT", "Wednesday, 21-Oct-26 07:28:00 GMT", "Wed Oct 21 07:28:00 2026",
		"Wed, 21 Oct 2026 07:28:00 UTC", "21 Oct 2026", "", "Wed, 31 Feb 2026 07:28:00 GMT", "Sun Nov  6 08:49:37 1994",
	} {
		got, gotErr := parseHTTPDate(h)
		want, wantErr := http.ParseTime(h)
		if !got.Equal(want) || (gotErr == nil) != (wantErr == nil) {
			t.Errorf("parseHTTPDate(%q) = %v, %v; net/http says %v, %v", h, got, gotErr, want, wantErr)
		}
	}
}

// FuzzParseRetryAfter checks that ParseRetryAfter never panics and never
// returns a negative or absurd wait.
func FuzzParseRetryAfter(f *testing.F) {
	for _, s := range []string{"120", "0", "-1", "1.5", "", "Wed, 21 Oct 2026 07:28:00 GMT",
		"Wednesday, 21-Oct-26 07:28:00 GMT", "Wed Oct 21 07:28:00 2026", "Mon, 01 Jan 0001 00:00:00 GMT",
		"Fri, 31 Dec 9999 23:59:59 GMT", "99999999999999999999999", " 7 "} {
		f.Add(s, int64(1792567680))
	}
	f.Fuzz(func(t *testing.T, h string, unix int64) {
		d, ok := ParseRetryAfter(h, time.Unix(unix, 0))
		if d < 0 || d > maxRetryAfter {
			t.Fatalf("ParseRetryAfter(%q) = %v", h, d)
		}
		if !ok && d != 0 {
			t.Fatalf("ParseRetryAfter(%q) = %v with ok false", h, d)
		}
	})
}
