package reply

import (
	"strings"
	"testing"
)

func BenchmarkMatchToken(b *testing.B) {
	opts := benchList()
	b.ReportAllocs()
	for b.Loop() {
		if o, tier, ok := Match("architect", opts); !ok || tier != TierToken || o.Slot != 1 {
			b.Fatalf("Match = %+v, %d, %v", o, tier, ok)
		}
	}
}

func BenchmarkMatchSlot(b *testing.B) {
	opts := benchList()
	b.ReportAllocs()
	for b.Loop() {
		if _, tier, ok := Match("2", opts); !ok || tier != TierSlot {
			b.Fatal("no match")
		}
	}
}

func BenchmarkMatchSentence(b *testing.B) {
	opts := benchList()
	b.ReportAllocs()
	for b.Loop() {
		if _, tier, ok := Match("I'd like the Solution Architect role", opts); !ok || tier != TierToken {
			b.Fatal("no match")
		}
	}
}

// BenchmarkMatchLongReply measures a pasted paragraph that names one
// option near its end.
func BenchmarkMatchLongReply(b *testing.B) {
	opts := benchList()
	reply := strings.Repeat("Thanks for getting back to me so quickly. ", 20) + "I'd go for the data scientist one."
	b.ReportAllocs()
	for b.Loop() {
		if o, _, ok := Match(reply, opts); !ok || o.Slot != 3 {
			b.Fatal("no match")
		}
	}
}

func BenchmarkBuildOptions(b *testing.B) {
	data := shippingData()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := BuildOptions("orderLookup.data", data, true, "order_id", "description"); err != nil {
			b.Fatal(err)
		}
	}
}
