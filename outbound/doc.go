// Package outbound is the one HTTP client every outbound call of the engine
// goes through (the webhook node, the action node, MCP over Streamable
// HTTP), with a guard against server-side request forgery (SSRF).
//
// # Threat model
//
// Workflow authors write URLs, often from templates filled with what end
// users type, and the engine calls them from inside the operator's network.
// Without a guard, a URL can reach what only the engine's host can reach:
// the cloud metadata service that hands out credentials
// (169.254.169.254), the database on 10.0.0.5, an admin port on localhost.
//
// The guard refuses, unless the operator's allowlist opens them:
//   - schemes other than http and https;
//   - loopback, private (RFC 1918), link-local, carrier-grade NAT,
//     unique-local, unspecified, multicast, broadcast, reserved,
//     benchmarking and documentation addresses, and cloud metadata
//     addresses and host names (see Blocked);
//   - IPv6 addresses that embed such an IPv4 address (IPv4-mapped, NAT64,
//     6to4, Teredo).
//
// The tricks it defeats:
//   - other spellings of an address (2130706433, 0177.0.0.1, 0x7f.1,
//     [::ffff:7f00:1], LOCALHOST.) are read as inet_aton(3) and browsers
//     read them, then judged as the address they mean;
//   - userinfo and fragment confusion (http://example.com@127.0.0.1/) is
//     judged on the host net/url parses, which is the host dialled;
//   - a public-looking name that resolves to an internal address is judged
//     on the addresses it resolves to, when the call connects;
//   - DNS rebinding (public at the check, private at the call): the name is
//     looked up once per connection, by the guard, and the connection goes
//     to the very address judged; a Control hook on the dialer refuses any
//     other;
//   - redirects: each one is judged again, at most MaxRedirects of them,
//     and one from https to http is refused as it would send the request in
//     clear text;
//   - Unicode host names, which the HTTP transport would map through IDNA
//     (full-width digits become ASCII ones), are refused: write the xn--
//     form;
//   - proxies from the environment are ignored, as a proxy would make the
//     connection for us, to an address the guard never saw.
//
// A refusal is a *failure.Error with Code failure.Rejected and Sent false,
// wrapping a *RefusedError that says why in plain words.
//
// The guard does not cover what it does not dial: a service that is public
// but trusts the engine's address, or a public host that forwards requests
// inward. Those are the operator's to restrict at the network edge.
package outbound
