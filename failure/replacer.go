package failure

import (
	"strings"
	"sync"
)

// maxCachedReplacers bounds the replacers kept for recent secret sets.
const maxCachedReplacers = 128

// replacers caches the replacer of each recent set of secrets. A failing
// node fails with the same secrets turn after turn, and building the
// replacer of a dozen forms per secret costs several times more than
// running it over a message. The process holds these values already (they
// are the headers it sends); the cache adds no new place they live beyond
// its lifetime.
var replacers = struct {
	sync.Mutex
	m map[string]*strings.Replacer
}{m: make(map[string]*strings.Replacer)}

// secretReplacer returns a replacer that removes every form of secrets
// (see secretForms), or nil when there is nothing to remove.
func secretReplacer(secrets []string) *strings.Replacer {
	if len(secrets) == 0 {
		return nil
	}
	key := strings.Join(secrets, "\x00")
	replacers.Lock()
	r, ok := replacers.m[key]
	replacers.Unlock()
	if ok {
		return r
	}
	if forms := secretForms(secrets); len(forms) > 0 {
		pairs := make([]string, 0, 2*len(forms))
		for _, f := range forms {
			pairs = append(pairs, f, Redacted)
		}
		r = strings.NewReplacer(pairs...)
	}
	replacers.Lock()
	if len(replacers.m) >= maxCachedReplacers {
		clear(replacers.m)
	}
	replacers.m[key] = r
	replacers.Unlock()
	return r
}
