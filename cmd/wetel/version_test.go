package main

import (
	"runtime/debug"
	"strings"
	"testing"
)

func TestFormatVersion(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		bi   *debug.BuildInfo
		want string
	}{
		{"go install @latest", &debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Path: "github.com/wetel/wetel", Version: "v0.0.0-20261201185600-9c9a0fa1b2c3"}},
			"wetel v0.0.0-20261201185600-9c9a0fa1b2c3\nbuilt with go1.26.0\n"},
		{"a build in a checkout", &debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Version: "(devel)"}, Settings: []debug.BuildSetting{
			{Key: "vcs.revision", Value: "9c9a0fa1b2c3d4e5f60718293a4b5c6d7e8f9012"}, {Key: "vcs.time", Value: "2026-12-01T18:56:00Z"}, {Key: "vcs.modified", Value: "true"}}},
			"wetel (devel)\ncommit 9c9a0fa1b2c3d4e5f60718293a4b5c6d7e8f9012 (2026-12-01T18:56:00Z), with uncommitted changes\nbuilt with go1.26.0\n"},
		{"a tagged release", &debug.BuildInfo{GoVersion: "go1.26.1", Main: debug.Module{Version: "v1.2.0"}, Settings: []debug.BuildSetting{
			{Key: "vcs.revision", Value: "abc123"}, {Key: "vcs.modified", Value: "false"}}},
			"wetel v1.2.0\ncommit abc123\nbuilt with go1.26.1\n"},
		{"no build information", nil, "wetel (no build information)\n"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := formatVersion(tc.bi); got != tc.want {
				t.Fatalf("got\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}

// `wetel version` and `wetel --version` print this binary's build.
func TestVersionCommand(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{{"version"}, {"--version"}} {
		r := wetel(t, args...)
		if r.code != 0 || !strings.HasPrefix(r.stdout, "wetel ") || !strings.Contains(r.stdout, "built with go") {
			t.Errorf("%v: exit %d: %q", args, r.code, r.stdout)
		}
	}
	if r := wetel(t, "version", "extra"); r.code != 2 {
		t.Errorf("version with an argument: exit %d", r.code)
	}
}
