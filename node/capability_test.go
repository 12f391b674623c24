package node_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/wetel/wetel/failure"
	"github.com/wetel/wetel/node"
)

type greeter interface{ Greet() string }

type english struct{}

func (english) Greet() string { return "hello" }

func TestServicesLookup(t *testing.T) {
	t.Parallel()
	greeters := node.NewKey[greeter]("greeter")
	other := node.NewKey[greeter]("greeter") // same name, another capability
	count := node.NewKey[*int]("counter")

	if _, ok := greeters.Get(nil); ok {
		t.Error("nil Services provided a greeter")
	}
	if _, ok := greeters.Get(&node.Services{}); ok {
		t.Error("empty Services provided a greeter")
	}

	s := node.NewServices(greeters.With(english{}))
	if g, ok := greeters.Get(s); !ok || g.Greet() != "hello" {
		t.Errorf("Get = %v, %v", g, ok)
	}
	if _, ok := other.Get(s); ok {
		t.Error("a key of the same name found another key's capability")
	}

	var zero greeter
	greeters.Provide(s, zero) // a nil interface removes the capability
	if _, ok := greeters.Get(s); ok {
		t.Error("a nil greeter is still provided")
	}

	var empty node.Services // the zero value takes provisions
	n := 3
	count.Provide(&empty, &n)
	if p, ok := count.Get(&empty); !ok || *p != 3 {
		t.Errorf("Get = %v, %v", p, ok)
	}
	count.Provide(&empty, nil) // a nil pointer stays: the caller checks it
	if p, ok := count.Get(&empty); !ok || p != nil {
		t.Errorf("Get = %v, %v after providing nil", p, ok)
	}

	if greeters.String() != "greeter" || (node.Key[int]{}).String() != "unnamed capability" {
		t.Errorf("names %q, %q", greeters.String(), node.Key[int]{}.String())
	}
}

func TestUnavailable(t *testing.T) {
	t.Parallel()
	err := node.Unavailable("tool", "lookup", "no MCP connectors are registered here")
	if failure.Classify(err) != failure.Unknown || !strings.HasPrefix(err.Error(), `tool node "lookup": no MCP connectors`) {
		t.Errorf("Unavailable = %v (%s)", err, failure.Classify(err))
	}
}

// A package that offers a capability declares its key; the node type that
// needs it looks it up when it runs and says what is missing when it is not
// there. The engine never looks inside Services.
func ExampleKey() {
	clockKey := node.NewKey[func() string]("wall clock")
	needsClock := func(x *node.Exec) error {
		now, ok := clockKey.Get(x.Services)
		if !ok {
			return node.Unavailable(x.NodeType, x.NodeID, "no wall clock is configured here")
		}
		fmt.Println("it is", now())
		return nil
	}
	x := &node.Exec{NodeType: "greet", NodeID: "g", Services: node.NewServices(clockKey.With(func() string { return "noon" }))}
	_ = needsClock(x)
	x.Services = nil
	fmt.Println(needsClock(x))
	// Output:
	// it is noon
	// greet node "g": no wall clock is configured here
}
