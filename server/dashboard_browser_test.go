package server

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// chromium finds Debian's headless browser; the browser tests skip
// without it (.ci/run installs it).
func chromium(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("WETEL_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Skip("no chromium on PATH (apt-get install chromium); skipping the dashboard's browser test")
	return ""
}

// browser is one headless Chromium tab with the page's console errors and
// CSP refusals collected.
type browser struct {
	t        *testing.T
	ctx      context.Context
	deadline time.Time
	shots    string
	mu       sync.Mutex
	errs     []string
}

type action = chromedp.Action[chromedp.Void]

func newBrowser(t *testing.T) *browser {
	t.Helper()
	exe := chromium(t)
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(exe),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1280, 800),
	}
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelC := chromedp.NewContext(actx)
	t.Cleanup(func() { cancelC(); cancelA() })
	b := &browser{t: t, ctx: ctx, deadline: time.Now().Add(120 * time.Second), shots: filepath.Join(t.TempDir(), "shots")}
	if err := os.MkdirAll(b.shots, 0o755); err != nil {
		t.Fatal(err)
	}
	// Cleanups run last-in first-out: this copy runs before the temporary
	// folder goes, also when the test failed.
	t.Cleanup(func() {
		if dir := os.Getenv("WETEL_DASHBOARD_SHOTS"); dir != "" {
			copyShots(t, b.shots, dir)
		}
	})
	// The first run starts the browser and must not carry a timeout (it
	// would stop the browser); later steps share one deadline.
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(1280, 800)); err != nil {
		t.Fatalf("starting chromium: %v", err)
	}
	go func() {
		for m, err := range chromedp.Console(ctx) {
			if err != nil {
				return
			}
			if m.Type == chromedp.ConsoleError || m.Type == chromedp.ConsoleException {
				b.mu.Lock()
				b.errs = append(b.errs, m.String())
				b.mu.Unlock()
			}
		}
	}()
	return b
}

func (b *browser) run(what string, actions ...action) {
	b.t.Helper()
	ctx, cancel := context.WithDeadline(b.ctx, b.deadline)
	defer cancel()
	if err := chromedp.Do(ctx, actions...); err != nil {
		hctx, hcancel := context.WithTimeout(b.ctx, 2*time.Second)
		html, _ := chromedp.Run(hctx, chromedp.Evaluate[string](`document.querySelector('main') ? document.querySelector('main').outerHTML : document.body.outerHTML`))
		hcancel()
		b.shot("failed-" + strings.ReplaceAll(what, " ", "-"))
		b.t.Fatalf("%s: %v\nmain: %.3000s", what, err, html)
	}
}

// eval runs JavaScript and returns its value.
func eval[T any](b *browser, expr string) T {
	b.t.Helper()
	ctx, cancel := context.WithDeadline(b.ctx, b.deadline)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		b.t.Fatalf("%s: %v", expr, err)
	}
	return v
}

// shot saves the viewport (1280×800) as name.png.
func (b *browser) shot(name string) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 5*time.Second)
	defer cancel()
	buf, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		b.t.Logf("screenshot %s: %v", name, err)
		return
	}
	if err := os.WriteFile(filepath.Join(b.shots, name+".png"), buf, 0o644); err != nil {
		b.t.Error(err)
	}
}

// js runs a statement for its effect.
func js(expr string) action {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := chromedp.Evaluate[bool]("(() => { "+expr+"; return true })()")(ctx, t)
		return err
	})
}

// setValue types into a React-controlled input: set the value with the
// native setter, then fire input, as a keystroke would.
func setValue(sel, value string) action {
	v, _ := json.Marshal(value)
	s, _ := json.Marshal(sel)
	return js(fmt.Sprintf(`const el = document.querySelector(%s);
		if (!el) throw new Error('no element ' + %s);
		const proto = el instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
		Object.getOwnPropertyDescriptor(proto, 'value').set.call(el, %s);
		el.dispatchEvent(new Event('input', {bubbles: true}))`, s, s, v))
}

func poll(expr string) action {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := chromedp.Poll[bool](expr, chromedp.WithPollingTimeout(30*time.Second))(ctx, t)
		return err
	})
}

// waitText waits until the element's text contains want.
func waitText(sel, want string) action {
	s, _ := json.Marshal(sel)
	w, _ := json.Marshal(want)
	return poll(fmt.Sprintf(`(() => { const el = document.querySelector(%s); return !!el && el.textContent.includes(%s) })()`, s, w))
}

// waitCount waits until at least n elements match sel.
func waitCount(sel string, n int) action {
	s, _ := json.Marshal(sel)
	return poll(fmt.Sprintf(`document.querySelectorAll(%s).length >= %d`, s, n))
}

// waitFor waits until an element matches sel.
func waitFor(sel string) action { return waitCount(sel, 1) }

// click clicks the first element that matches sel, with a real mouse event.
// React may replace the element between the query and the click (a graph
// redrawn after a save); the click then looks it up again.
func click(sel string) action {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		var err error
		for range 5 {
			if _, err = chromedp.Click(chromedp.CSS(sel), chromedp.NodeVisible)(ctx, t); err == nil || !strings.Contains(err.Error(), "Could not find node") {
				return err
			}
		}
		return err
	})
}

// selectNode clicks a node until the detail panel shows it: a click that
// lands while the graph is redrawn after a save may miss.
func selectNode(id, title string) action {
	s, _ := json.Marshal(title)
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		var err error
		for range 3 {
			if _, err = click(fmt.Sprintf(`.wnode[data-node-id=%q]`, id))(ctx, t); err != nil {
				return err
			}
			_, err = chromedp.Poll[bool](fmt.Sprintf(`(() => { const h = document.querySelector('.panel h2'); return !!h && h.textContent.includes(%s) })()`, s),
				chromedp.WithPollingTimeout(5*time.Second))(ctx, t)
			if err == nil {
				return nil
			}
		}
		return err
	})
}

// retried runs a gesture until cond holds (up to three times): a gesture
// that starts while the graph is redrawn after a save may miss.
func retried(gesture action, cond string) action {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		var err error
		for range 3 {
			if _, err = gesture(ctx, t); err != nil {
				return err
			}
			if _, err = chromedp.Poll[bool](cond, chromedp.WithPollingTimeout(5*time.Second))(ctx, t); err == nil {
				return nil
			}
		}
		return err
	})
}

// drag presses the mouse on the centre of one element, moves it in steps
// to the centre of another and releases it there, as a hand would.
func drag(from, to string) action {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		centre := func(sel string) (x, y float64, err error) {
			s, _ := json.Marshal(sel)
			p, err := chromedp.Evaluate[[]float64](fmt.Sprintf(`(() => { const r = document.querySelector(%s).getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2] })()`, s))(ctx, t)
			if err != nil {
				return 0, 0, err
			}
			return p[0], p[1], nil
		}
		x0, y0, err := centre(from)
		if err != nil {
			return err
		}
		x1, y1, err := centre(to)
		if err != nil {
			return err
		}
		steps := []action{
			chromedp.MouseEvent(chromedp.MouseMoved, x0, y0),
			chromedp.MouseEvent(chromedp.MousePressed, x0, y0, chromedp.ButtonLeft, chromedp.ClickCount(1)),
		}
		for i := 1; i <= 10; i++ {
			f := float64(i) / 10
			steps = append(steps, chromedp.MouseEvent(chromedp.MouseMoved, x0+(x1-x0)*f, y0+(y1-y0)*f, chromedp.ButtonLeft))
		}
		steps = append(steps, chromedp.MouseEvent(chromedp.MouseReleased, x1, y1, chromedp.ButtonLeft, chromedp.ClickCount(1)))
		_, err = chromedp.Steps(steps...)(ctx, t)
		return err
	})
}

// clickText clicks the first enabled button or link whose text is text.
func clickText(text string) action {
	w, _ := json.Marshal(text)
	return js(fmt.Sprintf(`const b = [...document.querySelectorAll('button, a')].find((x) => x.textContent.trim() === %s && !x.disabled);
		if (!b) throw new Error('no enabled button ' + %s);
		b.click()`, w, w))
}

// TestDashboard drives the embedded dashboard in headless Chromium against a
// real server: sign in, see the demo graph, edit and publish, a bad edge
// label refused on that edge, chat until the question and answer it with a
// button, the run's path on the graph, the version diff and a rollback, a
// 200-node graph, and sign out.
func TestDashboard(t *testing.T) {
	if raceDetector {
		t.Skip("chromedp races with itself in SendKeys; the race detector covers the server in the other tests")
	}
	b := newBrowser(t)
	ts := startServer(t, Config{})
	began := time.Now()

	b.run("sign-in page", chromedp.Navigate(ts.url+"/"), waitFor("#apikey"))
	b.shot("01-sign-in")
	b.run("a wrong key",
		chromedp.SendKeys(chromedp.CSS("#apikey"), "wtl_not_a_key_of_this_server_000"),
		click(`button[type="submit"]`),
		waitFor(`.signin [role="alert"]`),
	)
	b.shot("01b-wrong-key")
	b.run("sign in",
		setValue("#apikey", ""),
		chromedp.SendKeys(chromedp.CSS("#apikey"), testKey),
		click(`button[type="submit"]`),
		waitText("table.list", "Help desk"),
		waitText("header", "Demo"),
	)
	stored := eval[string](b, `sessionStorage.getItem('wetel.apiKey') + '|' + localStorage.length`)
	if stored != testKey+"|0" {
		t.Errorf("storage after sign-in: %q, want the key in sessionStorage only", stored)
	}
	b.run("workflow list status", waitText("table.list", "published v1"))
	b.shot("02-workflows")

	b.run("open the demo workflow",
		clickText("Help desk"),
		waitCount(".react-flow__node .wnode", 9),
		waitFor(`.wnode[data-node-id="ask"]`),
		waitCount(".react-flow__edge", 8),
		waitText(".react-flow__edges", "unanswered"),
	)
	b.shot("03-graph")
	// Keyboard: a node takes focus and Enter opens it.
	b.run("keyboard focus",
		js(`document.querySelector('.react-flow__node[data-id="menu"]').focus()`),
		poll(`document.activeElement && document.activeElement.getAttribute('data-id') === 'menu'`),
	)
	b.run("keyboard selection", chromedp.KeyEvent("\r"), waitText(".panel h2", "Menu"))

	const newText = "You chose {{topic.label}}. Returns are free for 60 days: reply with the order number."
	b.run("edit a response in the form",
		selectNode("return_reply", "Returns Reply"),
		waitFor(`textarea[data-field="messageTemplate"]`),
		setValue(`textarea[data-field="messageTemplate"]`, newText),
		waitText(".toolbar .status", "Unsaved changes"),
	)
	b.shot("04-node-form")
	b.run("publish", clickText("Publish"), waitText(".toolbar .status", "Published version 2"))

	// A bad edit: the await_reply's answered edge relabelled. The save is
	// refused, and the refusal shows on that edge.
	b.run("relabel an edge",
		waitFor(`.wnode[data-node-id="ask"]`),
		click(`.react-flow__edge[data-id="e3"] .react-flow__edge-textwrapper`),
		waitFor("#edge-label"),
		setValue("#edge-label", "bogus"),
		clickText("Save draft"),
		waitText(".toolbar .status", "Not saved"),
		waitFor(`.react-flow__edge.edge-problem[data-id="e3"]`),
		waitText(`.panel [role="alert"]`, "no outgoing edge labeled 'answered'"),
	)
	b.shot("05-bad-edge-label")
	b.run("fix the edge", clickText("answered"), clickText("Save draft"), waitText(".toolbar .status", "Draft saved"))

	// Add a node after the selected one (it is connected from it), save,
	// then delete it and save again.
	b.run("add a node",
		selectNode("track_reply", "Tracking Reply"),
		js(`const s = document.querySelector('#addtype'); Object.getOwnPropertyDescriptor(HTMLSelectElement.prototype, 'value').set.call(s, 'end_session'); s.dispatchEvent(new Event('change', {bubbles: true}))`),
		clickText("Add node"),
		waitFor(`.wnode[data-node-id="end_session_1"]`),
		waitFor(`.react-flow__edge[aria-label^="edge e_1 from track_reply to end_session_1"]`),
		clickText("Save draft"),
		waitText(".toolbar .status", "Draft saved"),
	)
	b.shot("05b-added-node")
	var draft struct {
		Workflow struct {
			Draft struct{ Nodes, Edges []map[string]any }
		} `json:"workflow"`
	}
	do(t, ts.c, `{ workflow(id: 1) { draft } }`, nil, &draft)
	if n, e := len(draft.Workflow.Draft.Nodes), len(draft.Workflow.Draft.Edges); n != 13 || e != 13 {
		t.Errorf("after adding a node the draft has %d nodes and %d edges, want 13 and 13 (the demo's 12 and 12, and one more)", n, e)
	}
	b.run("delete the node",
		selectNode("end_session_1", "end_session_1"),
		clickText("Delete node"),
		chromedp.WaitNotPresent(chromedp.CSS(`.wnode[data-node-id="end_session_1"]`)),
		clickText("Save draft"),
		waitText(".toolbar .status", "Draft saved"),
	)

	// A bad config value: the save error shows on the node and in its field.
	b.run("a bad field",
		selectNode("return_reply", "Returns Reply"),
		waitFor(`input[data-field="maxVisits"]`),
		setValue(`input[data-field="maxVisits"]`, "500"),
		clickText("Save draft"),
		waitFor(`.wnode.node-error[data-node-id="return_reply"]`),
		waitText(".field-error", "exceeding the maximum of 100"),
	)
	b.shot("05d-bad-field")
	b.run("fix the field", setValue(`input[data-field="maxVisits"]`, ""), clickText("Save draft"), waitText(".toolbar .status", "Draft saved"))

	// Connect two nodes by dragging from one's outgoing handle to the
	// other's incoming one; the new edge opens with the source's labels.
	b.run("connect two nodes",
		retried(drag(`.react-flow__node[data-id="person_reply"] .react-flow__handle.source`, `.react-flow__node[data-id="track_reply"] .react-flow__handle.target`),
			`document.querySelector('.react-flow__edge[aria-label^="edge e_1 from person_reply to track_reply"]') !== null`),
		waitText(".panel h2", "Edge e_1"),
		clickText("Save draft"),
		waitText(".toolbar .status", "Draft saved"),
	)
	b.shot("05c-connected")
	b.run("delete the edge", clickText("Delete edge"), clickText("Save draft"), waitText(".toolbar .status", "Draft saved"))

	b.run("playground",
		chromedp.Navigate(ts.url+"/playground?agent=1"),
		clickText("Start session"),
		waitFor("#composer"),
		chromedp.SendKeys(chromedp.CSS("#composer"), "hello"),
		click(`.composer button[type="submit"]`),
		waitCount("button.option", 3),
		waitText(".transcript", "What can I help you with?"),
		waitText(".event-log", "NodeExecuting"),
		waitText(".event-log", "TurnComplete"),
	)
	b.shot("06-playground-question")
	b.run("answer with an option",
		clickText("2. Return an item"),
		waitText(".transcript", "Returns are free for 60 days"),
		waitText(".event-log", "Route By Topic"),
	)
	b.shot("07-playground-answered")

	b.run("open the run",
		click(`a.last-run`),
		waitFor(`.wnode.visited[data-node-id="return_reply"]`),
		waitFor(`.wnode.visited[data-node-id="route"]`),
		waitFor(`.react-flow__edge.taken[data-id="e6"]`),
		waitFor(`.react-flow__edge.taken[data-id="e3"]`),
		waitText("table.trace", "return_reply"),
		waitText(".title-row", "resumed from run"),
	)
	notTaken := eval[int](b, `document.querySelectorAll('.react-flow__edge.taken[data-id="e5"], .wnode.visited[data-node-id="track"]').length`)
	if notTaken != 0 {
		t.Errorf("%d untaken elements are highlighted", notTaken)
	}
	b.shot("08-run")

	b.run("session runs",
		click(`.title-row a[href^="/sessions/"]`),
		waitCount("table.list tbody tr", 2),
		waitText("table.list", "AWAITING_INPUT"),
	)
	b.shot("09-session")

	// A run with a handled failure and a refused visit: both marked on the
	// graph and in the table.
	runID := loopRun(t, ts)
	b.run("marked run",
		chromedp.Navigate(fmt.Sprintf("%s/runs/%d", ts.url, runID)),
		waitFor(`.wnode[data-node-id="w"] .badge-FAILED_HANDLED`),
		waitFor(`.wnode[data-node-id="c"] .badge-VISIT_LIMIT_REACHED`),
		waitText(`.wnode[data-node-id="s"]`, "×2"),
		waitFor(`.react-flow__edge.taken[data-id="e_fail"]`),
		waitText("table.trace", "visit 1 of 1"),
		// The guard refused the webhook before sending it (127.0.0.1 is not
		// allowlisted): UNREACHABLE, with a retry outcome that says so.
		waitText("table.trace", "refused"),
		waitText("table.trace", "UNREACHABLE"),
	)
	if n := eval[int](b, `document.querySelectorAll('.react-flow__edge.taken[data-id="e_ok"]').length`); n != 0 {
		t.Error("the success edge of a node whose failure was handled is highlighted")
	}
	b.run("pick a node's rows", click(`.wnode[data-node-id="s"]`), waitCount(`table.trace tr[aria-current="true"]`, 2))
	b.shot("08b-run-marks")
	b.run("a workflow's runs", chromedp.Navigate(ts.url+"/workflows/1?tab=runs"), waitText("table.list", "Run 2"), waitText("table.list", "Run 1"))

	// An approval waits in the inbox; approving it continues its run, and
	// the page shows what the session was told.
	refunds := publishedAgent(t, ts.c, "refunds", refundFlow)
	var sess struct{ StartSession struct{ ID int } }
	do(t, ts.c, `mutation($a: Int!) { startSession(input: {agentId: $a}) { id } }`, map[string]any{"a": refunds}, &sess)
	send(t, ts, sess.StartSession.ID, "order 7")
	b.run("approvals",
		chromedp.Navigate(ts.url+"/approvals"),
		waitText("table.approvals", "Refund for order 7?"),
		setValue(`input[aria-label^="note for approval"]`, "checked"),
	)
	b.shot("12-approvals")
	b.run("approve", clickText("Approve"), waitText(`table.approvals [role="status"]`, "Approved: the session was told “Refunded (checked, by "))
	b.shot("13-approved")

	b.run("version diff",
		chromedp.Navigate(ts.url+"/workflows/1?tab=versions"),
		waitText("table.list", "v2"),
		clickText("Diff v1"),
		waitFor(`.wnode.diff-changed[data-node-id="return_reply"]`),
		waitText(".diff-summary", "return_reply"),
	)
	b.shot("10-version-diff")
	b.run("rollback", clickText("Roll back to v1"), waitText(".versions .status", "published again as version 3"), waitText("table.list", "v3"))
	b.shot("11-rollback")
	var wf struct {
		Workflow struct{ PublishedVersion int } `json:"workflow"`
	}
	do(t, ts.c, `{ workflow(id: 1) { publishedVersion } }`, nil, &wf)
	if wf.Workflow.PublishedVersion != 3 {
		t.Errorf("after the rollback the published version is %d, want 3", wf.Workflow.PublishedVersion)
	}

	// A 200-node graph: time from navigation to every node drawn.
	g := fanGraph(200)
	var created struct {
		CreateWorkflow struct{ ID int } `json:"createWorkflow"`
	}
	do(t, ts.c, `mutation($g: JSON) { createWorkflow(input: {name: "Big", graph: $g}) { id } }`, map[string]any{"g": g}, &created)
	start := time.Now()
	b.run("200 nodes", chromedp.Navigate(fmt.Sprintf("%s/workflows/%d", ts.url, created.CreateWorkflow.ID)), waitCount(".react-flow__node .wnode", 200))
	firstRender := time.Since(start)
	// Measured and reported, not asserted: a loaded machine would fail a
	// timing bound that says nothing about the code (the target is 1 s).
	t.Logf("a 200-node graph rendered in %v", firstRender)
	b.shot("12-200-nodes")
	// Pan it by dragging the pane, recording the frames drawn meanwhile.
	b.run("pan 200 nodes",
		js(`window.__frames = []; window.__panFrom = document.querySelector('.react-flow__viewport').style.transform;
			const tick = (t) => { window.__frames.push(t); if (window.__frames.length < 10000 && !window.__stop) requestAnimationFrame(tick) }; requestAnimationFrame(tick)`),
		drag(`.react-flow__pane`, `.panel`),
		js(`window.__stop = true`),
	)
	pan := eval[[]float64](b, `(() => { const f = window.__frames; let worst = 0; for (let i = 1; i < f.length; i++) worst = Math.max(worst, f[i] - f[i - 1]);
		return [f.length, worst, document.querySelector('.react-flow__viewport').style.transform === window.__panFrom ? 0 : 1] })()`)
	t.Logf("panning a 200-node graph: %.0f frames, the longest %.0f ms", pan[0], pan[1])
	if pan[2] != 1 {
		t.Error("dragging the pane did not pan the graph")
	}

	b.run("list after the rollback", chromedp.Navigate(ts.url+"/workflows"), waitText("table.list", "published v3"), waitText("table.list", "draft changed"))
	b.run("no approvals", chromedp.Navigate(ts.url+"/approvals"), waitText("main", "No run is waiting for approval"))

	b.shot("13-approvals")
	b.run("sign out", clickText("Sign out"), waitFor("#apikey"))
	if n := eval[int](b, `sessionStorage.length`); n != 0 {
		t.Errorf("sessionStorage holds %d items after sign-out", n)
	}

	b.mu.Lock()
	wrongKey := false
	for _, e := range b.errs {
		// The browser logs the wrong key's refusal; that one is meant.
		if !wrongKey && strings.Contains(e, "401 (Unauthorized)") {
			wrongKey = true
			continue
		}
		t.Errorf("browser: %s", e)
	}
	b.mu.Unlock()
	t.Logf("the browser test took %v; screenshots in %s (set WETEL_DASHBOARD_SHOTS=DIR to keep them)", time.Since(began), b.shots)
}

// loopRun publishes a workflow whose webhook fails into its failure edge
// (the SSRF guard refuses loopback) and whose loop runs into a visit limit,
// runs it once, and returns the run's id.
func loopRun(t *testing.T, ts *testServer) int {
	t.Helper()
	g := map[string]any{
		"nodes": []map[string]any{
			{"id": "start", "type": "start", "label": "Start", "config": map[string]any{}},
			{"id": "w", "type": "webhook", "label": "Notify", "config": map[string]any{"url": "http://127.0.0.1:9/hook"}},
			{"id": "s", "type": "set_variable", "label": "Count", "config": map[string]any{"maxVisits": 3, "assignments": []any{map[string]any{"var": "n", "value": 1}}}},
			{"id": "c", "type": "condition", "label": "Again?", "config": map[string]any{"expression": "true"}},
			{"id": "f", "type": "response", "label": "Never", "config": map[string]any{"messageTemplate": "never"}},
		},
		"edges": []map[string]any{
			{"id": "e0", "source": "start", "target": "w"},
			{"id": "e_ok", "source": "w", "target": "s", "label": "success"},
			{"id": "e_fail", "source": "w", "target": "s", "label": "failure"},
			{"id": "e2", "source": "s", "target": "c"},
			{"id": "e3", "source": "c", "target": "s", "label": "true"},
			{"id": "e4", "source": "c", "target": "f", "label": "false"},
		},
	}
	var out struct {
		CreateWorkflow struct{ ID int } `json:"createWorkflow"`
		CreateAgent    struct{ ID int } `json:"createAgent"`
		StartSession   struct{ ID int } `json:"startSession"`
		SendMessage    struct {
			Runs []struct {
				ID     int
				Status string
			}
		} `json:"sendMessage"`
	}
	do(t, ts.c, `mutation($g: JSON) { createWorkflow(input: {name: "Loop", graph: $g}) { id } }`, map[string]any{"g": g}, &out)
	wf := out.CreateWorkflow.ID
	do(t, ts.c, `mutation($w: Int!) { publishWorkflow(id: $w) { number } }`, map[string]any{"w": wf}, &out)
	do(t, ts.c, `mutation($w: Int!) { createAgent(input: {name: "Looper", workflowId: $w}) { id } }`, map[string]any{"w": wf}, &out)
	do(t, ts.c, `mutation($a: Int!) { startSession(input: {agentId: $a}) { id } }`, map[string]any{"a": out.CreateAgent.ID}, &out)
	do(t, ts.c, `mutation($s: Int!) { sendMessage(sessionId: $s, text: "go") { runs { id status } } }`, map[string]any{"s": out.StartSession.ID}, &out)
	if len(out.SendMessage.Runs) != 1 {
		t.Fatalf("the loop workflow ran %d runs, want 1", len(out.SendMessage.Runs))
	}
	return out.SendMessage.Runs[0].ID
}

// fanGraph is n nodes without positions, so the dashboard lays it out:
// start, a router, and branches of ten response nodes, one per route.
func fanGraph(n int) map[string]any {
	nodes := []map[string]any{
		{"id": "start", "type": "start", "label": "Start", "config": map[string]any{}},
		{"id": "route", "type": "router", "label": "Route", "config": map[string]any{"variable": "topic"}},
	}
	edges := []map[string]any{{"id": "e0", "source": "start", "target": "route"}}
	prev := ""
	for i := 2; i < n; i++ {
		id := fmt.Sprintf("n%d", i)
		nodes = append(nodes, map[string]any{"id": id, "type": "response", "label": fmt.Sprintf("Step %d", i), "config": map[string]any{"messageTemplate": "step"}})
		e := map[string]any{"id": fmt.Sprintf("e%d", i), "source": prev, "target": id}
		if (i-2)%10 == 0 {
			e["source"], e["label"] = "route", fmt.Sprintf("branch%d", (i-2)/10)
		}
		edges = append(edges, e)
		prev = id
	}
	return map[string]any{"nodes": nodes, "edges": edges}
}

func copyShots(t *testing.T, from, to string) {
	if err := os.MkdirAll(to, 0o755); err != nil {
		t.Error(err)
		return
	}
	list, _ := os.ReadDir(from)
	for _, f := range list {
		b, err := os.ReadFile(filepath.Join(from, f.Name()))
		if err == nil {
			err = os.WriteFile(filepath.Join(to, f.Name()), b, 0o644)
		}
		if err != nil {
			t.Error(err)
		}
	}
}
