package turn

import (
	"sync"

	"github.com/wetel/wetel/store"
)

// maxCachedTranscripts bounds the transcripts a Service keeps in memory.
const maxCachedTranscripts = 10000

// transcript is what a Service keeps of a session's transcript between
// turns, so a turn reads only the messages added since its last one
// instead of the whole transcript (messages are append-only). The entries
// are the {role, text} maps conversationHistory holds, shared by every run
// and never written to.
type transcript struct {
	ws     int64
	items  []any
	users  int
	lastID int64
}

// transcripts is the Service's cache, by session.
type transcripts struct {
	mu sync.Mutex
	m  map[int64]*transcript
}

// since returns the message id to read the session's transcript after,
// with the cached part (nil and 0 when none is cached).
func (c *transcripts) since(ws, sessionID int64) (*transcript, int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if t := c.m[sessionID]; t != nil && t.ws == ws {
		return t, t.lastID
	}
	return nil, 0
}

// extend returns the cached transcript followed by the messages just read,
// and keeps it for the session's next turn. The caller holds the session's
// turn, so no other turn of the session extends it meanwhile.
func (c *transcripts) extend(ws, sessionID int64, t *transcript, read []store.Message) *transcript {
	if t == nil {
		t = &transcript{ws: ws}
	}
	if len(read) > 0 {
		// A new backing array when it must grow; the runs that shared the
		// old one keep their copies (facts copies the slice anyway).
		for _, m := range read {
			t.items = append(t.items, map[string]any{"role": m.Role, "text": m.Text})
			if m.Role == "user" {
				t.users++
			}
			t.lastID = max(t.lastID, m.ID)
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = make(map[int64]*transcript)
	}
	if _, ok := c.m[sessionID]; !ok && len(c.m) >= maxCachedTranscripts {
		for id := range c.m { // forget an arbitrary one: it is read whole next time
			delete(c.m, id)
			break
		}
	}
	c.m[sessionID] = t
	return t
}

// forget drops a session's transcript (it ended).
func (c *transcripts) forget(sessionID int64) {
	c.mu.Lock()
	delete(c.m, sessionID)
	c.mu.Unlock()
}
