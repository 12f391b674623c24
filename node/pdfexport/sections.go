package pdfexport

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The limits of one document. Over any of them the node fails, naming the
// limit; nothing is cut silently.
const (
	MaxSections      = 50         // sections in the array
	MaxHeadingChars  = 200        // characters of one heading
	MaxBodyChars     = 10000      // characters of one body
	MaxBullets       = 30         // bullets of one section
	MaxBulletChars   = 500        // characters of one bullet
	MaxTextBytes     = 200 << 10  // all headings, bodies, bullets and the title together, in UTF-8 bytes
	MaxTitleChars    = 200        // characters of the rendered title
	MaxImages        = 20         // sections with an image
	MaxImageBytes    = 4 << 20    // one image's content
	MaxImagesBytes   = 16 << 20   // all images' content together
	MaxImagePixels   = 16_000_000 // one image's width × height
	MaxDocumentBytes = 24 << 20   // the finished PDF
)

// section is one entry of the sections array.
type section struct {
	heading string
	body    string
	bullets []string
	imageID int64 // 0: none
}

// sectionKeys are the fields a section may have.
var sectionKeys = []string{"heading", "body", "bullets", "imageArtifactId"}

// parseSections reads the sections variable's value: an array of objects,
// or a string holding one as JSON (what an llm node's reply is). The error
// names the entry and field, and the rule or limit.
func parseSections(v any) ([]section, error) {
	if s, ok := v.(string); ok {
		var parsed any
		if err := json.Unmarshal([]byte(s), &parsed); err != nil {
			return nil, fmt.Errorf("is text that is not a JSON array of sections")
		}
		v = parsed
	}
	list, ok := v.([]any)
	if !ok {
		if m, ok := v.([]map[string]any); ok {
			for _, x := range m {
				list = append(list, x)
			}
		} else {
			return nil, fmt.Errorf("must be an array of sections {heading, body, bullets, imageArtifactId}, got %s", kindOf(v))
		}
	}
	if len(list) == 0 {
		return nil, fmt.Errorf("is an empty array: a document needs at least one section")
	}
	if len(list) > MaxSections {
		return nil, fmt.Errorf("has %d sections: the limit is %d", len(list), MaxSections)
	}
	out := make([]section, len(list))
	textBytes, images := 0, 0
	for i, e := range list {
		at := fmt.Sprintf("[%d]", i)
		m, ok := e.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("%s: must be an object {heading, body, bullets, imageArtifactId}, got %s", at, kindOf(e))
		}
		for k := range m {
			if !slices.Contains(sectionKeys, k) {
				return nil, fmt.Errorf("%s: unknown field %q: a section has heading, body, bullets and imageArtifactId", at, k)
			}
		}
		s := &out[i]
		var err error
		if s.heading, err = textField(m, "heading", at, MaxHeadingChars); err != nil {
			return nil, err
		}
		if s.body, err = textField(m, "body", at, MaxBodyChars); err != nil {
			return nil, err
		}
		if b, ok := m["bullets"]; ok && b != nil {
			items, ok := b.([]any)
			if !ok {
				return nil, fmt.Errorf("%s.bullets: must be an array of text, got %s", at, kindOf(b))
			}
			if len(items) > MaxBullets {
				return nil, fmt.Errorf("%s.bullets: has %d bullets: the limit is %d", at, len(items), MaxBullets)
			}
			for j, it := range items {
				t, ok := scalarText(it)
				if !ok {
					return nil, fmt.Errorf("%s.bullets[%d]: must be text, got %s", at, j, kindOf(it))
				}
				if n := utf8.RuneCountInString(t); n > MaxBulletChars {
					return nil, fmt.Errorf("%s.bullets[%d]: %d characters: the limit is %d", at, j, n, MaxBulletChars)
				}
				s.bullets = append(s.bullets, t)
				textBytes += len(t)
			}
		}
		if id, ok := m["imageArtifactId"]; ok && id != nil {
			if s.imageID, err = artifactID(id); err != nil {
				return nil, fmt.Errorf("%s.imageArtifactId: %w", at, err)
			}
			images++
		}
		if s.heading == "" && s.body == "" && len(s.bullets) == 0 && s.imageID == 0 {
			return nil, fmt.Errorf("%s: is empty: a section needs a heading, a body, bullets or an image", at)
		}
		textBytes += len(s.heading) + len(s.body)
	}
	if textBytes > MaxTextBytes {
		return nil, fmt.Errorf("holds %d bytes of text: the limit is %d", textBytes, MaxTextBytes)
	}
	if images > MaxImages {
		return nil, fmt.Errorf("has %d images: the limit is %d", images, MaxImages)
	}
	return out, nil
}

// textField reads an optional text field of a section (a number or
// boolean is written as text).
func textField(m map[string]any, name, at string, limit int) (string, error) {
	v, ok := m[name]
	if !ok || v == nil {
		return "", nil
	}
	s, ok := scalarText(v)
	if !ok {
		return "", fmt.Errorf("%s.%s: must be text, got %s", at, name, kindOf(v))
	}
	if n := utf8.RuneCountInString(s); n > limit {
		return "", fmt.Errorf("%s.%s: %d characters: the limit is %d", at, name, n, limit)
	}
	return s, nil
}

func scalarText(v any) (string, bool) {
	switch x := v.(type) {
	case string:
		return x, true
	case bool:
		return strconv.FormatBool(x), true
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64), true
	case json.Number:
		return x.String(), true
	case int:
		return strconv.Itoa(x), true
	case int64:
		return strconv.FormatInt(x, 10), true
	}
	return "", false
}

// artifactID reads a positive integer id: a JSON number, an int, or its
// decimal text.
func artifactID(v any) (int64, error) {
	var f float64
	switch x := v.(type) {
	case int:
		f = float64(x)
	case int64:
		f = float64(x)
	case float64:
		f = x
	case json.Number:
		n, err := x.Int64()
		if err != nil {
			return 0, fmt.Errorf("must be a positive integer, got %s", x)
		}
		f = float64(n)
	case string:
		n, err := strconv.ParseInt(strings.TrimSpace(x), 10, 64)
		if err != nil {
			return 0, fmt.Errorf("must be a positive integer, got %q", x)
		}
		f = float64(n)
	default:
		return 0, fmt.Errorf("must be a positive integer, got %s", kindOf(v))
	}
	if f < 1 || f != math.Trunc(f) || f > 1<<53 {
		return 0, fmt.Errorf("must be a positive integer, got %v", v)
	}
	return int64(f), nil
}

func kindOf(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case string:
		return "text"
	case bool:
		return "a boolean"
	case float64, int, int64, json.Number:
		return "a number"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("a %T", v)
}
