package main

import (
	"fmt"
	"io"
	"runtime/debug"
	"strings"
)

// cmdVersion is `wetel version` and `wetel --version`.
func cmdVersion(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("version", stderr)
	pos, code, ok := parseCommand(fs, args, stdout)
	if !ok {
		return code
	}
	if len(pos) > 0 {
		fmt.Fprintln(stderr, usageLine("version"))
		return 2
	}
	bi, _ := debug.ReadBuildInfo()
	fmt.Fprint(stdout, formatVersion(bi))
	return 0
}

// formatVersion says which build this is, from what the Go toolchain
// stamped into the binary: the module version (a tag, a pseudo-version
// with the commit for `go install …@latest`, or "(devel)"), and for a
// build in a checkout the commit, its time and whether the tree had
// uncommitted changes.
func formatVersion(bi *debug.BuildInfo) string {
	if bi == nil {
		return "wetel (no build information)\n"
	}
	version := bi.Main.Version
	if version == "" {
		version = "(devel)"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "wetel %s\n", version)
	settings := map[string]string{}
	for _, s := range bi.Settings {
		settings[s.Key] = s.Value
	}
	if rev := settings["vcs.revision"]; rev != "" {
		fmt.Fprintf(&b, "commit %s", rev)
		if t := settings["vcs.time"]; t != "" {
			fmt.Fprintf(&b, " (%s)", t)
		}
		if settings["vcs.modified"] == "true" {
			b.WriteString(", with uncommitted changes")
		}
		b.WriteByte('\n')
	}
	if bi.GoVersion != "" {
		fmt.Fprintf(&b, "built with %s\n", bi.GoVersion)
	}
	return b.String()
}
