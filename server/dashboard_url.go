package server

import (
	"net"
	"net/url"
)

// dashboardURL is where a browser on this machine opens the dashboard of a
// server listening on addr: a wildcard host (":8080", "0.0.0.0:8080") is
// reached as localhost.
func dashboardURL(addr string) string {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "http://" + addr + "/"
	}
	if ip := net.ParseIP(host); host == "" || (ip != nil && ip.IsUnspecified()) {
		host = "localhost"
	}
	return (&url.URL{Scheme: "http", Host: net.JoinHostPort(host, port), Path: "/"}).String()
}
