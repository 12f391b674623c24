package client

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
)

// Event is one event of a session's stream.
type Event struct {
	Seq  int64
	Type string
	Data json.RawMessage
}

// Events streams a session's events after afterSeq to fn until ctx ends,
// the server closes the stream, or fn returns false. It returns the last
// seq seen, so a caller can reconnect without missing any.
func (c *Client) Events(ctx context.Context, sessionID, afterSeq int64, fn func(Event) bool) (int64, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, fmt.Sprintf("%s/api/sessions/%d/events", c.BaseURL, sessionID), nil)
	if err != nil {
		return afterSeq, err
	}
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("Authorization", "Bearer "+c.Key)
	if afterSeq > 0 {
		req.Header.Set("Last-Event-ID", strconv.FormatInt(afterSeq, 10))
	}
	resp, err := c.HTTP.Do(req)
	if err != nil {
		return afterSeq, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return afterSeq, fmt.Errorf("events of session %d: HTTP %d", sessionID, resp.StatusCode)
	}
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 64<<10), 4<<20)
	var ev Event
	last := afterSeq
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
			if ev.Type != "" {
				last = max(last, ev.Seq)
				if !fn(ev) {
					return last, nil
				}
			}
			ev = Event{}
		case strings.HasPrefix(line, "id: "):
			ev.Seq, _ = strconv.ParseInt(line[4:], 10, 64)
		case strings.HasPrefix(line, "event: "):
			ev.Type = line[7:]
		case strings.HasPrefix(line, "data: "):
			ev.Data = json.RawMessage(line[6:])
		}
	}
	if err := sc.Err(); err != nil && ctx.Err() == nil {
		return last, err
	}
	return last, nil
}
