package outbound

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"strconv"
	"syscall"
)

// approvedKey carries, in the dial's context, the one address the guard
// approved for that dial, for controlApproved to compare with.
type approvedKey struct{}

// dialContext is the HTTP transport's only way to open a connection. Rule:
// "Dial via a custom DialContext that resolves with the injected resolver,
// filters each candidate address through the guard (allowlist first), and
// dials the allowed IP literally", so the address checked is the address
// connected to and DNS rebinding has no second lookup to exploit.
func (g *guard) dialContext(ctx context.Context, network, address string) (net.Conn, error) {
	hostPart, portPart, err := net.SplitHostPort(address)
	if err != nil {
		return nil, err
	}
	port, err := strconv.ParseUint(portPart, 10, 16)
	if err != nil {
		return nil, fmt.Errorf("outbound: port %q of %s is not a number from 0 to 65535", portPart, address)
	}
	h, err := parseHost(hostPart)
	if err != nil {
		return nil, reject(&RefusedError{Host: hostPart, Reason: err.Error()})
	}
	h.port = uint16(port)
	addrs, err := g.approve(ctx, network, h)
	if err != nil {
		var re *RefusedError
		if errors.As(err, &re) {
			return nil, reject(re)
		}
		return nil, err
	}
	var firstErr error
	for _, a := range addrs {
		target := netip.AddrPortFrom(a, uint16(port)).String()
		conn, err := g.dialer.DialContext(context.WithValue(ctx, approvedKey{}, a), network, target)
		if err == nil {
			return conn, nil
		}
		if firstErr == nil {
			firstErr = err
		}
		if ctx.Err() != nil {
			break
		}
	}
	return nil, firstErr
}

// controlApproved runs just before each connect(2) and refuses any address
// but the one dialContext approved. It is the second line of defence: if a
// change to the transport ever let a dial through another path (a dialer
// that resolves by itself, a proxy), the connection still fails.
func controlApproved(ctx context.Context, network, address string, _ syscall.RawConn) error {
	approved, ok := ctx.Value(approvedKey{}).(netip.Addr)
	got, err := netip.ParseAddrPort(address)
	if ok && err == nil && got.Addr().WithZone("").Unmap() == approved.WithZone("").Unmap() {
		return nil
	}
	hostPart, _, _ := net.SplitHostPort(address)
	return reject(&RefusedError{
		Host:   hostPart,
		Addr:   got.Addr(),
		Reason: fmt.Sprintf("the %s connection to %s was not to an address the guard approved", network, address),
	})
}
