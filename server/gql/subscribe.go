package gql

import (
	"context"

	"github.com/wetel/wetel/events"
)

// subscribe streams a session's events from the hub. The channel closes
// when the client goes away or falls too far behind (it then reconnects
// with afterSeq set to the last seq it saw, and misses nothing).
func (r *Resolver) subscribe(ctx context.Context, c Caller, sessionID int, afterSeq int64) (<-chan *SessionEvent, error) {
	sub, err := r.Hub.Subscribe(ctx, c.WorkspaceID, int64(sessionID), afterSeq)
	if err != nil {
		return nil, err
	}
	out := make(chan *SessionEvent, 16)
	go func() {
		defer close(out)
		defer sub.Close()
		for {
			var ev events.Event
			var ok bool
			select {
			case ev, ok = <-sub.C:
				if !ok {
					return
				}
			case <-ctx.Done():
				return
			case <-r.Closing:
				return
			}
			e := &SessionEvent{Seq: int(ev.Seq), Type: ev.Type, SessionID: sessionID, Data: JSON(ev.Payload), At: ev.At}
			select {
			case out <- e:
			case <-ctx.Done():
				return
			case <-r.Closing:
				return
			}
		}
	}()
	return out, nil
}
