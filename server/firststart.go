package server

import (
	"fmt"
	"io"
	"net"
)

// printFirstStart tells the operator, once, what a first start made: the
// OWNER key, as a line to paste into a shell, and where to point a client.
func printFirstStart(w io.Writer, addr, key string) {
	fmt.Fprintf(w, "First start: created the Demo workspace, a Help desk agent and its workflow.\n"+
		"OWNER API key (shown once, keep it safe); to use it in this shell:\n\n    export KEY=%s\n\n", key)
	base := baseURL(addr)
	for _, u := range []struct{ name, url string }{
		{"GraphQL", base + "/graphql"},
		{"Events", base + "/api/sessions/{id}/events"},
		{"Metrics", base + "/metrics"},
		{"Dashboard", base + "/ (sign in with the key)"},
	} {
		fmt.Fprintf(w, "%-10s%s\n", u.name, u.url)
	}
	fmt.Fprintln(w)
}

// baseURL is where a client on this machine reaches addr: a wildcard or
// empty host is reached on loopback.
func baseURL(addr string) string {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "http://" + addr
	}
	switch host {
	case "", "0.0.0.0":
		host = "127.0.0.1"
	case "::":
		host = "::1"
	}
	return "http://" + net.JoinHostPort(host, port)
}
