package callout

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/wetel/wetel/failure"
	"github.com/wetel/wetel/tmpl"
)

// URLTemplate is a URL with {{path}} expressions, as a webhook's url and a
// custom action's url are written. Each {{x}} is escaped for where it sits,
// so a value can never change the URL's host or add a path segment or a
// query parameter: in the path it is path-escaped (a value of "." or ".."
// too), in the query query-escaped, in the fragment path-escaped, and in
// the host it must be a host name (letters, digits, dots and hyphens).
// {{{x}}} and {{&x}} insert the value unescaped, as the author's explicit
// choice (a whole URL from a variable, a prepared query string). The scheme
// must be written out unless the value that supplies it is unescaped, and
// block helpers ({{#if}}, {{#each}}) are refused: compute such a value with
// a set_variable node first. Safe for concurrent use.
type URLTemplate struct {
	src   string
	parts []urlPart
}

type urlPart struct {
	lit string
	t   *tmpl.Template // nil for a literal
	raw bool
	at  urlPosition
}

type urlPosition int

const (
	urlStart urlPosition = iota // before the scheme is written
	urlHost
	urlPath
	urlQuery
	urlFragment
)

// ParseURLTemplate compiles src.
func ParseURLTemplate(src string) (*URLTemplate, error) {
	u := &URLTemplate{src: src}
	var seen strings.Builder // the literal text so far, which fixes a value's position
	rest := src
	for rest != "" {
		i := strings.Index(rest, "{{")
		if i < 0 {
			u.addLiteral(rest, &seen)
			break
		}
		u.addLiteral(rest[:i], &seen)
		rest = rest[i:]
		closer := "}}"
		if strings.HasPrefix(rest, "{{{") {
			closer = "}}}"
		}
		j := strings.Index(rest[len(closer):], closer)
		if j < 0 {
			return nil, fmt.Errorf("%q is not closed", rest[:min(len(rest), 20)])
		}
		seg := rest[:len(closer)+j+len(closer)]
		rest = rest[len(seg):]
		if err := u.addValue(seg, closer == "}}}", position(seen.String())); err != nil {
			return nil, err
		}
	}
	return u, nil
}

func (u *URLTemplate) addLiteral(s string, seen *strings.Builder) {
	if s == "" {
		return
	}
	seen.WriteString(s)
	u.parts = append(u.parts, urlPart{lit: s})
}

func (u *URLTemplate) addValue(seg string, triple bool, at urlPosition) error {
	inner := strings.TrimSpace(strings.Trim(strings.Trim(seg, "{}"), "~"))
	switch {
	case strings.HasPrefix(inner, "!"):
		return nil // a comment prints nothing
	case inner == "" || strings.ContainsAny(inner[:1], "#/^>") || inner == "else" || strings.HasPrefix(inner, "else "):
		return fmt.Errorf("%s: block helpers are not supported in a URL; compute the value with a set_variable node first", seg)
	}
	raw := triple || strings.HasPrefix(inner, "&")
	if !raw && at == urlStart {
		return fmt.Errorf("%s: write the URL's scheme and host out (https://api.example.com/...), or insert a whole URL unescaped with {{{...}}}", seg)
	}
	t, err := tmpl.Parse(seg)
	if err != nil {
		return err
	}
	u.parts = append(u.parts, urlPart{t: t, raw: raw, at: at})
	return nil
}

// position says where a value that follows the literal text seen sits.
func position(seen string) urlPosition {
	i := strings.Index(seen, "://")
	if i < 0 {
		return urlStart
	}
	after := seen[i+3:]
	switch {
	case strings.Contains(after, "#"):
		return urlFragment
	case strings.Contains(after, "?"):
		return urlQuery
	case strings.Contains(after, "/"):
		return urlPath
	}
	return urlHost
}

// Source returns the text the template was parsed from.
func (u *URLTemplate) Source() string { return u.src }

// Render renders the URL with vars. Its errors are INVALID_DATA.
func (u *URLTemplate) Render(vars map[string]any) (string, error) {
	if len(u.parts) == 1 && u.parts[0].t == nil {
		return u.parts[0].lit, nil
	}
	var b strings.Builder
	for _, p := range u.parts {
		if p.t == nil {
			b.WriteString(p.lit)
			continue
		}
		v, err := p.t.Render(vars)
		if err != nil {
			return "", &failure.Error{Code: failure.InvalidData, Message: "rendering the url", Err: err}
		}
		if !p.raw {
			if v, err = escapeAt(v, p.at); err != nil {
				return "", err
			}
		}
		b.WriteString(v)
	}
	return b.String(), nil
}

var errNotHost = &failure.Error{Code: failure.InvalidData, Message: "rendering the url: a value in the host part is not a host name (letters, digits, dots and hyphens)"}

func escapeAt(v string, at urlPosition) (string, error) {
	switch at {
	case urlHost:
		for i := 0; i < len(v); i++ {
			c := v[i]
			if !(c == '.' || c == '-' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z') {
				return "", errNotHost
			}
		}
		return v, nil
	case urlQuery:
		return url.QueryEscape(v), nil
	}
	// Path and fragment: a value is one segment, and "." or ".." must not
	// climb the path.
	switch v {
	case ".":
		return "%2E", nil
	case "..":
		return "%2E%2E", nil
	}
	return url.PathEscape(v), nil
}
