package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/wetel/wetel/server"
	"github.com/wetel/wetel/telemetry"
)

func cmdServe(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("serve", stderr)
	addr := fs.String("addr", envOr("WETEL_ADDR", "127.0.0.1:8080"), "where to listen (WETEL_ADDR)")
	data := fs.String("data", envOr("WETEL_DATA_DIR", "wetel-data"), "the folder of the embedded SQLite store (WETEL_DATA_DIR)")
	// Read after parsing, so -h never prints a URL's password.
	database := fs.String("database", "", "a postgres:// URL to use PostgreSQL instead (default: WETEL_DATABASE_URL)")
	logFormat := fs.String("log-format", envOr("WETEL_LOG_FORMAT", "text"), "text or json (WETEL_LOG_FORMAT)")
	logLevel := fs.String("log-level", envOr("WETEL_LOG_LEVEL", "info"), "debug, info, warn or error; debug adds a line per turn (WETEL_LOG_LEVEL)")
	allow := fs.String("allow-host", os.Getenv("WETEL_OUTBOUND_ALLOW"), "internal hosts and CIDRs (with :port to open one port) outbound calls may reach, comma-separated (WETEL_OUTBOUND_ALLOW)")
	limits := server.DefaultRateLimits()
	fs.Float64Var(&limits.KeyPerSecond, "rate-key", envFloat("WETEL_RATE_KEY", limits.KeyPerSecond), "requests per second one API key may make, bursts of twice that; 0 for no limit (WETEL_RATE_KEY)")
	fs.Float64Var(&limits.WorkspacePerSecond, "rate-workspace", envFloat("WETEL_RATE_WORKSPACE", limits.WorkspacePerSecond), "requests per second all keys of one workspace may make, bursts of twice that; 0 for no limit (WETEL_RATE_WORKSPACE)")
	introspect := fs.Bool("anonymous-introspection", os.Getenv("WETEL_ANONYMOUS_INTROSPECTION") == "true", "let callers without an API key introspect the schema (WETEL_ANONYMOUS_INTROSPECTION=true)")
	if pos, code, ok := parseCommand(fs, args, stdout); !ok {
		return code
	} else if len(pos) > 0 {
		fmt.Fprintf(stderr, "wetel serve: unexpected argument %q\n", pos[0])
		return 2
	}
	if limits.KeyPerSecond < 0 || limits.WorkspacePerSecond < 0 {
		fmt.Fprintln(stderr, "wetel serve: --rate-key and --rate-workspace (WETEL_RATE_KEY, WETEL_RATE_WORKSPACE) must be numbers, 0 (no limit) or more")
		return 2
	}
	limits.KeyBurst, limits.WorkspaceBurst = int(2*limits.KeyPerSecond), int(2*limits.WorkspacePerSecond)
	if *database == "" {
		*database = os.Getenv("WETEL_DATABASE_URL")
	}
	var level slog.Level
	if err := level.UnmarshalText([]byte(*logLevel)); err != nil || !knownLevel(*logLevel) {
		fmt.Fprintf(stderr, "wetel serve: --log-level must be debug, info, warn or error, not %q\n", *logLevel)
		return 2
	}
	opts := &slog.HandlerOptions{Level: level}
	var h slog.Handler
	switch *logFormat {
	case "text":
		h = slog.NewTextHandler(stderr, opts)
	case "json":
		h = slog.NewJSONHandler(stderr, opts)
	default:
		fmt.Fprintf(stderr, "wetel serve: --log-format must be text or json, not %q\n", *logFormat)
		return 2
	}
	log := slog.New(h)
	// Listen first: a first start that cannot listen must not create a
	// workspace and print its OWNER key, which the next start would not
	// print again.
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintf(stderr, "wetel serve: cannot listen on %s (--addr, WETEL_ADDR): %v\n", *addr, err)
		return 1
	}
	// OpenTelemetry only when OTEL_EXPORTER_OTLP_ENDPOINT asks for it.
	tracing, err := telemetry.FromEnv(ctx, os.Getenv)
	if err != nil {
		ln.Close()
		fmt.Fprintf(stderr, "wetel serve: %v\n", err)
		return 1
	}
	if tracing != nil {
		log.Info("exporting traces over OTLP", "endpoint", safeURL(envOr(telemetry.EnvTracesEndpoint, os.Getenv(telemetry.EnvEndpoint))))
		defer func() {
			sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			if err := tracing.Shutdown(sctx); err != nil {
				log.Warn("exporting the last traces", "err", err)
			}
		}()
	}
	srv, err := server.New(ctx, server.Config{Addr: ln.Addr().String(), DataDir: *data, DatabaseURL: *database,
		BootstrapKey: os.Getenv("WETEL_BOOTSTRAP_API_KEY"), AllowHosts: *allow, RateLimits: &limits, AnonymousIntrospection: *introspect, Tracing: tracing, Logger: log, Out: stdout})
	if err != nil {
		ln.Close()
		fmt.Fprintf(stderr, "wetel serve: %v\n", err)
		return 1
	}
	if err := srv.Serve(ctx, ln); err != nil {
		log.Error("server stopped", "err", err)
		return 1
	}
	return 0
}

// safeURL is a URL's scheme, host and path: never its user info or query,
// where a credential may sit.
func safeURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "(not a URL)"
	}
	return (&url.URL{Scheme: u.Scheme, Host: u.Host, Path: u.Path}).String()
}

// knownLevel accepts the four level names, in any case, and not the
// offsets ("info+2") slog would also take.
func knownLevel(s string) bool {
	switch strings.ToLower(s) {
	case "debug", "info", "warn", "error":
		return true
	}
	return false
}

func envOr(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}

// envFloat reads a number from the environment, else def. A value that is
// not a number is -1, which the command refuses with the flag's name.
func envFloat(name string, def float64) float64 {
	v := os.Getenv(name)
	if v == "" {
		return def
	}
	f, err := strconv.ParseFloat(v, 64)
	if err != nil {
		return -1
	}
	return f
}
