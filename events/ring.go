package events

import "time"

// ring holds a session's most recent events, oldest first. Its events have
// consecutive seqs (every published event is pushed), which makes finding
// "everything after seq k" an index computation. The buffer grows on demand
// up to max and is released when the ring empties, so thousands of quiet
// sessions do not each hold max events of memory.
type ring struct {
	buf   []Event
	start int // index of the oldest event in buf
	n     int
	max   int
}

// push appends ev, overwriting the oldest event when the ring is full.
func (r *ring) push(ev Event) {
	if r.n == len(r.buf) {
		if len(r.buf) == r.max {
			r.buf[r.start] = ev
			r.start = (r.start + 1) % len(r.buf)
			return
		}
		r.grow()
	}
	r.buf[(r.start+r.n)%len(r.buf)] = ev
	r.n++
}

func (r *ring) grow() {
	buf := make([]Event, min(max(2*len(r.buf), 8), r.max))
	for i := range r.n {
		buf[i] = r.at(i)
	}
	r.buf, r.start = buf, 0
}

func (r *ring) at(i int) Event { return r.buf[(r.start+i)%len(r.buf)] }

// expire drops the events stamped before cutoff (retention).
func (r *ring) expire(cutoff time.Time) {
	for r.n > 0 && r.buf[r.start].At.Before(cutoff) {
		r.buf[r.start] = Event{} // let the payload go
		r.start = (r.start + 1) % len(r.buf)
		r.n--
	}
	if r.n == 0 {
		r.buf, r.start = nil, 0
	}
}

// firstSeq returns the seq of the oldest event held, or 0 when empty.
func (r *ring) firstSeq() int64 {
	if r.n == 0 {
		return 0
	}
	return r.buf[r.start].Seq
}

// after returns a copy of the held events with Seq > seq, oldest first.
func (r *ring) after(seq int64) []Event {
	if r.n == 0 {
		return nil
	}
	skip := max(seq-r.firstSeq()+1, 0)
	if skip >= int64(r.n) {
		return nil
	}
	out := make([]Event, 0, r.n-int(skip))
	for i := int(skip); i < r.n; i++ {
		out = append(out, r.at(i))
	}
	return out
}
