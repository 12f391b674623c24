package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"

	"github.com/wetel/wetel/server"
)

func cmdServe(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", envOr("WETEL_ADDR", "127.0.0.1:8080"), "where to listen (WETEL_ADDR)")
	data := fs.String("data", envOr("WETEL_DATA_DIR", "wetel-data"), "the folder of the embedded SQLite store (WETEL_DATA_DIR)")
	database := fs.String("database", os.Getenv("WETEL_DATABASE_URL"), "a postgres:// URL to use PostgreSQL instead (WETEL_DATABASE_URL)")
	logFormat := fs.String("log-format", envOr("WETEL_LOG_FORMAT", "text"), "text or json (WETEL_LOG_FORMAT)")
	allow := fs.String("allow-host", os.Getenv("WETEL_OUTBOUND_ALLOW"), "internal hosts and CIDRs (with :port to open one port) outbound calls may reach, comma-separated (WETEL_OUTBOUND_ALLOW)")
	introspect := fs.Bool("anonymous-introspection", os.Getenv("WETEL_ANONYMOUS_INTROSPECTION") == "true", "let callers without an API key introspect the schema (WETEL_ANONYMOUS_INTROSPECTION=true)")
	if pos, err := parseInterspersed(fs, args); err != nil {
		return 2
	} else if len(pos) > 0 {
		fmt.Fprintf(stderr, "wetel serve: unexpected argument %q\n", pos[0])
		return 2
	}
	var h slog.Handler
	switch *logFormat {
	case "text":
		h = slog.NewTextHandler(stderr, nil)
	case "json":
		h = slog.NewJSONHandler(stderr, nil)
	default:
		fmt.Fprintf(stderr, "wetel serve: --log-format must be text or json, not %q\n", *logFormat)
		return 2
	}
	log := slog.New(h)
	srv, err := server.New(ctx, server.Config{Addr: *addr, DataDir: *data, DatabaseURL: *database,
		BootstrapKey: os.Getenv("WETEL_BOOTSTRAP_API_KEY"), AllowHosts: *allow, AnonymousIntrospection: *introspect, Logger: log, Out: stdout})
	if err != nil {
		fmt.Fprintf(stderr, "wetel serve: %v\n", err)
		return 1
	}
	if err := srv.ListenAndServe(ctx); err != nil {
		log.Error("server stopped", "err", err)
		return 1
	}
	return 0
}

func envOr(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}
