// Package testpeer starts or names the peers outbound-call tests talk to:
// a port nothing listens on, and the reference MCP server.
package testpeer

import (
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// ClosedPort returns a loopback URL nothing listens on: a partner that is down.
func ClosedPort(t testing.TB) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return "http://" + addr
}

// everythingPackage is where npm installs the reference server's entry.
const everythingPackage = "node_modules/@modelcontextprotocol/server-everything/dist/index.js"

// Everything returns the command that starts the reference MCP server,
// @modelcontextprotocol/server-everything, with transport ("stdio" or
// "streamableHttp"), from WETEL_MCP_EVERYTHING (its entry script or bin),
// else the install of mcpclient/testdata/install-everything.sh. The test
// is skipped when it is not installed.
func Everything(t testing.TB, transport string) []string {
	t.Helper()
	entry := os.Getenv("WETEL_MCP_EVERYTHING")
	if entry == "" {
		dir := os.Getenv("WETEL_MCP_EVERYTHING_DIR")
		if dir == "" {
			home, _ := os.UserHomeDir()
			dir = filepath.Join(home, ".cache", "wetel", "mcp-everything")
		}
		entry = filepath.Join(dir, everythingPackage)
	}
	if _, err := os.Stat(entry); err != nil {
		t.Skipf("server-everything is not installed (%v): run mcpclient/testdata/install-everything.sh or set WETEL_MCP_EVERYTHING", err)
	}
	if !strings.HasSuffix(entry, ".js") {
		return []string{entry, transport}
	}
	nodeBin, err := exec.LookPath("node")
	if err != nil {
		t.Skipf("node is not installed, needed for server-everything: %v", err)
	}
	return []string{nodeBin, entry, transport}
}
