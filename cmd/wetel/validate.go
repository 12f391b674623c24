package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/wetel/wetel/graph"
	"github.com/wetel/wetel/node"
)

// report is what `wetel validate --json` prints.
type report struct {
	File        string          `json:"file"`
	Publishable bool            `json:"publishable"`
	Errors      []graph.Problem `json:"errors"`
	Diagnostics []graph.Problem `json:"diagnostics"`
}

func cmdValidate(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("validate", stderr)
	asJSON := fs.Bool("json", false, "print the report as JSON")
	pos, code, ok := parseCommand(fs, args, stdout)
	if !ok {
		return code
	}
	if len(pos) != 1 {
		fmt.Fprintln(stderr, usageLine("validate"))
		return 2
	}
	rep := report{File: pos[0], Errors: []graph.Problem{}, Diagnostics: []graph.Problem{}}
	g, err := loadGraph(pos[0])
	if err != nil {
		rep.Errors = append(rep.Errors, graph.Problem{Code: "INVALID_DOCUMENT", Message: err.Error()})
	} else {
		rep.Errors = append(rep.Errors, graph.CheckPublish(g, node.Default)...)
		rep.Diagnostics = append(rep.Diagnostics, graph.Diagnose(g, node.Default, graph.At(node.Offline))...)
	}
	rep.Publishable = len(rep.Errors) == 0
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		_ = enc.Encode(rep)
	} else {
		printReport(stdout, rep)
	}
	if !rep.Publishable {
		return 1
	}
	return 0
}

func printReport(w io.Writer, rep report) {
	for _, p := range rep.Errors {
		fmt.Fprintf(w, "error %s: %s\n", p.Code, p.Message)
	}
	for _, p := range rep.Diagnostics {
		fmt.Fprintf(w, "diagnostic %s: %s\n", p.Code, p.Message)
	}
	if rep.Publishable {
		fmt.Fprintf(w, "%s: publishable, %d diagnostic(s)\n", rep.File, len(rep.Diagnostics))
	} else {
		fmt.Fprintf(w, "%s: publishing would be refused, %d error(s), %d diagnostic(s)\n", rep.File, len(rep.Errors), len(rep.Diagnostics))
	}
}

func loadGraph(path string) (*graph.Graph, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, graph.MaxDocumentBytes+1))
	if err != nil {
		return nil, err
	}
	return graph.Decode(data)
}
