package scenario

import (
	"encoding/xml"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Suffixes are the file names a directory walk takes as scenarios, so a
// scenario can sit beside the graph it tests: shipping.scenario.yaml next
// to shipping.json. A file named on the command line is read whatever its
// name.
var Suffixes = []string{".scenario.yaml", ".scenario.yml", ".scenario.json"}

// Collect expands files and directories into the scenario files to run,
// in a stable order: each named file as given, each directory's scenario
// files (by Suffixes, at any depth) sorted by path.
func Collect(paths []string) ([]string, error) {
	var out []string
	for _, p := range paths {
		info, err := os.Stat(p)
		if err != nil {
			return nil, err
		}
		if !info.IsDir() {
			out = append(out, p)
			continue
		}
		var found []string
		err = filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.IsDir() && IsScenarioName(d.Name()) {
				found = append(found, path)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		if len(found) == 0 {
			return nil, fmt.Errorf("%s: no scenario files (%s) in it", p, strings.Join(Suffixes, ", "))
		}
		sort.Strings(found)
		out = append(out, found...)
	}
	return out, nil
}

// IsScenarioName says whether a file name has a scenario suffix.
func IsScenarioName(name string) bool {
	for _, s := range Suffixes {
		if strings.HasSuffix(strings.ToLower(name), s) {
			return true
		}
	}
	return false
}

// Report prints a result: one line when it passed, else each turn that
// differs with its problems, indented.
func Report(w io.Writer, r *Result) {
	if r.Passed() {
		fmt.Fprintf(w, "ok   %s (%d turn(s))\n", label(r), len(r.Turns))
		return
	}
	fmt.Fprintf(w, "FAIL %s\n", label(r))
	for _, t := range r.Turns {
		if len(t.Problems) == 0 {
			continue
		}
		fmt.Fprintf(w, "  turn %d (line %d) %q:\n", t.Index+1, t.Turn.Line, t.Turn.Message)
		for _, p := range t.Problems {
			fmt.Fprintf(w, "    %s\n", strings.ReplaceAll(p, "\n", "\n    "))
		}
	}
	if r.Err != nil {
		fmt.Fprintf(w, "  %s\n", strings.ReplaceAll(r.Err.Error(), "\n", "\n  "))
	}
}

func label(r *Result) string {
	if r.File == nil {
		return "(unreadable)"
	}
	if r.File.Name != "" && r.File.Name != strings.TrimSuffix(filepath.Base(r.File.Path), filepath.Ext(r.File.Path)) {
		return fmt.Sprintf("%s: %s", r.File.Path, r.File.Name)
	}
	return r.File.Path
}

// JUnit writes the results as JUnit XML: one suite, one test case per
// scenario, a failure holding the same text Report prints.
func JUnit(w io.Writer, results []*Result) error {
	type failure struct {
		Message string `xml:"message,attr"`
		Text    string `xml:",chardata"`
	}
	type testcase struct {
		Name      string   `xml:"name,attr"`
		Classname string   `xml:"classname,attr"`
		Time      string   `xml:"time,attr"`
		Failure   *failure `xml:"failure,omitempty"`
	}
	type suite struct {
		XMLName  xml.Name   `xml:"testsuite"`
		Name     string     `xml:"name,attr"`
		Tests    int        `xml:"tests,attr"`
		Failures int        `xml:"failures,attr"`
		Time     string     `xml:"time,attr"`
		Cases    []testcase `xml:"testcase"`
	}
	s := suite{Name: "wetel test", Tests: len(results)}
	var total float64
	for _, r := range results {
		secs := r.Elapsed.Seconds()
		total += secs
		c := testcase{Name: label(r), Classname: "scenario", Time: fmt.Sprintf("%.3f", secs)}
		if r.File != nil {
			c.Classname = strings.TrimSuffix(filepath.ToSlash(r.File.Path), filepath.Ext(r.File.Path))
			c.Name = r.File.Name
		}
		if !r.Passed() {
			s.Failures++
			var b strings.Builder
			Report(&b, r)
			c.Failure = &failure{Message: firstLine(r), Text: b.String()}
		}
		s.Cases = append(s.Cases, c)
	}
	s.Time = fmt.Sprintf("%.3f", total)
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(s); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

func firstLine(r *Result) string {
	if r.Err != nil {
		return strings.SplitN(r.Err.Error(), "\n", 2)[0]
	}
	for _, t := range r.Turns {
		if len(t.Problems) > 0 {
			return fmt.Sprintf("turn %d: %s", t.Index+1, strings.SplitN(t.Problems[0], "\n", 2)[0])
		}
	}
	return "failed"
}
