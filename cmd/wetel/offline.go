package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/wetel/wetel/clock"
	"github.com/wetel/wetel/engine"
	"github.com/wetel/wetel/graph"
	"github.com/wetel/wetel/node"
	"github.com/wetel/wetel/store"
	"github.com/wetel/wetel/store/sqlite"
	"github.com/wetel/wetel/turn"
)

// offline is one graph file run as a published workflow of a local store:
// `wetel run` and `wetel chat --graph` share it, so both take the same code
// path as a server would.
type offline struct {
	store   store.Store
	svc     *turn.Service
	ws      int64
	session store.Session
	capture *capture
	cleanup func()
}

type offlineOptions struct {
	graph           *graph.Graph
	dbPath          string // "" for a throwaway store
	sessionID       int64  // continue this session of dbPath; 0 starts one
	mock            bool
	failureResponse string
	// capture records each run's variables and node outputs for printing
	// (wetel run); a chat, which prints neither, leaves it off.
	capture bool
	// services are what the runs may call; nil builds the default: the
	// guarded HTTP client with WETEL_OUTBOUND_ALLOW and an outbox, no
	// custom actions or connectors. openOffline owns them either way and
	// closes them with the offline.
	services *offlineServices
	// registry, when set, replaces node.Default (wetel test's mock
	// sequences run through it).
	registry *node.Registry
	// clock, when set, is the time the runs and the store's expiries read
	// (wetel test's fixed clock); nil is the wall clock.
	clock clock.Clock
}

func openOffline(ctx context.Context, o offlineOptions) (*offline, error) {
	svcs := o.services
	if svcs == nil {
		allow, err := parseAllow(nil)
		if err != nil {
			return nil, err
		}
		if svcs, err = newOfflineServices(ctx, nil, allow, io.Discard); err != nil {
			return nil, err
		}
	}
	cleanup := svcs.Close
	path := o.dbPath
	if path == "" {
		dir, err := os.MkdirTemp("", "wetel-run-")
		if err != nil {
			svcs.Close()
			return nil, err
		}
		path, cleanup = filepath.Join(dir, "wetel.db"), func() { os.RemoveAll(dir); svcs.Close() }
	}
	st, err := sqlite.Open(path, sqlite.Options{})
	if err != nil {
		cleanup()
		return nil, err
	}
	off := &offline{store: st, cleanup: func() { st.Close(); cleanup() }}
	if err := off.setUp(ctx, o); err != nil {
		off.Close()
		return nil, err
	}
	eng, err := engine.New(engine.Options{Place: node.Offline, Logger: svcs.log, Clock: o.clock})
	if err != nil {
		off.Close()
		return nil, err
	}
	reg := node.Default
	if o.registry != nil {
		reg = o.registry
	}
	off.svc = &turn.Service{Store: st, Engine: eng, Registry: reg, Mock: o.mock, Services: svcs.svc, Clock: o.clock}
	if o.capture {
		off.capture = newCapture(o.graph, node.Default)
		off.svc.Observer = off.capture.observe
	}
	// A process that stopped mid-turn leaves no run RUNNING.
	if _, err := st.RecoverRuns(ctx, "the process stopped while this run was in flight"); err != nil {
		off.Close()
		return nil, err
	}
	return off, nil
}

// setUp finds or creates workspace 1, its workflow 1 holding the graph
// (published; an unchanged graph keeps its version), agent 1, and the session.
func (off *offline) setUp(ctx context.Context, o offlineOptions) error {
	st := off.store
	ws, err := st.Workspace(ctx, 1)
	if errors.Is(err, store.ErrNotFound) {
		ws, err = st.CreateWorkspace(ctx, "offline")
	}
	if err != nil {
		return err
	}
	off.ws = ws.ID
	doc, err := json.Marshal(o.graph)
	if err != nil {
		return err
	}
	wf, err := st.Workflow(ctx, ws.ID, 1)
	if errors.Is(err, store.ErrNotFound) {
		wf, err = st.CreateWorkflow(ctx, store.Workflow{WorkspaceID: ws.ID, Name: "offline", Draft: doc, FailureResponse: o.failureResponse})
	}
	if err != nil {
		return err
	}
	if err := st.SaveDraft(ctx, ws.ID, wf.ID, doc); err != nil {
		return err
	}
	if _, err := st.Publish(ctx, ws.ID, wf.ID, doc, "wetel run"); err != nil {
		return err
	}
	agent, err := st.Agent(ctx, ws.ID, 1)
	if errors.Is(err, store.ErrNotFound) {
		agent, err = st.CreateAgent(ctx, store.Agent{WorkspaceID: ws.ID, Name: "offline", WorkflowID: wf.ID})
	}
	if err != nil {
		return err
	}
	if o.sessionID != 0 {
		off.session, err = st.Session(ctx, ws.ID, o.sessionID)
		if err != nil {
			return fmt.Errorf("session %d: %w", o.sessionID, err)
		}
		return nil
	}
	off.session, err = st.CreateSession(ctx, store.Session{WorkspaceID: ws.ID, AgentID: agent.ID, Status: store.SessionOpen})
	return err
}

func (off *offline) Close() { off.cleanup() }

// setIdentity signs the session in (or out, with "").
func (off *offline) setIdentity(ctx context.Context, identity string) error {
	if err := off.store.SetIdentity(ctx, off.ws, off.session.ID, identity); err != nil {
		return err
	}
	off.session.Identity = identity
	return nil
}

func (off *offline) send(ctx context.Context, text string) (turn.TurnResult, error) {
	return off.svc.Send(ctx, off.ws, off.session.ID, text)
}
