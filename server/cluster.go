package server

import (
	"context"
	"strconv"
	"time"

	"github.com/wetel/wetel/store"
)

// listenCluster acts on what the other replicas of a cluster tell this
// one, until ctx ends: interrupt a turn running here, forget a revoked key
// (so a revocation holds everywhere at once, not after the cache's 10 s).
// A store no other process shares tells nothing.
func (s *Server) listenCluster(ctx context.Context) {
	cl, ok := s.store.(store.Cluster)
	if !ok {
		<-ctx.Done()
		return
	}
	_ = cl.Listen(ctx, func(channel, payload string) {
		switch channel {
		case store.ChannelInterrupt:
			s.turns.InterruptNotice(payload)
		case store.ChannelKeyRevoked:
			if id, err := strconv.ParseInt(payload, 10, 64); err == nil {
				s.auth.forget(id)
			}
		}
	})
}

// forgetKey drops a revoked key from this replica's cache and tells the
// others to drop it from theirs.
func (s *Server) forgetKey(keyID int64) {
	s.auth.forget(keyID)
	if cl, ok := s.store.(store.Cluster); ok {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := cl.Notify(ctx, store.ChannelKeyRevoked, strconv.FormatInt(keyID, 10)); err != nil {
			s.log.Warn("telling the other replicas of a revoked key; they forget it within 10 s", "key", keyID, "err", err)
		}
	}
}
