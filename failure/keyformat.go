package failure

// keyFormatRules recognise credentials by their vendor's format wherever
// they appear, with no name or header around them. The vendor prefix stays
// so a reader can tell which credential leaked; the minimum lengths keep
// "sk-[REDACTED]" and similar from matching again. Each pattern starts with
// a literal, which Go's regexp searches for quickly, and wordStart stands
// in for a leading \b.
var keyFormatRules = []redactRule{
	// Rule: redact "OpenAI-style sk-..., sk-proj-..., Anthropic sk-ant-...".
	newRule(`sk-(?:(?:ant|proj|svcacct|admin)-)?(?:(?:api|admin)\d\d-)?(?P<s>[A-Za-z0-9_\-]{16,})`, wordStart),
	// Rule: redact "Stripe sk_live_/rk_live_/sk_test_" secret and
	// restricted keys.
	newRule(`sk_(?:live|test)_(?P<s>[A-Za-z0-9]{10,})`, wordStart),
	newRule(`rk_(?:live|test)_(?P<s>[A-Za-z0-9]{10,})`, wordStart),
	// Rule: redact "AWS AKIA/ASIA access key ids".
	newRule(`AKIA(?P<s>[A-Z0-9]{16})\b`, wordStart),
	newRule(`ASIA(?P<s>[A-Z0-9]{16})\b`, wordStart),
	// Rule: redact "GitHub ghp_/gho_/ghu_/ghs_/ghr_" tokens.
	newRule(`gh[pousr]_(?P<s>[A-Za-z0-9]{20,})`, wordStart),
	// Rule: redact GitHub fine-grained "github_pat_" tokens.
	newRule(`github_pat_(?P<s>[A-Za-z0-9_]{20,})`, wordStart),
	// Rule: redact "Slack xox[abprs]-..." tokens.
	newRule(`xox[abprs]-(?P<s>[A-Za-z0-9\-]{10,})`, wordStart),
	// Rule: redact "Google AIza..." API keys.
	newRule(`AIza(?P<s>[0-9A-Za-z_\-]{30,})`, wordStart),
	// Rule: redact "JWTs (three base64url segments starting eyJ)"; the
	// signature may be empty for an unsigned token.
	newRule(`(?P<s>eyJ[A-Za-z0-9_\-]{4,}\.[A-Za-z0-9_\-]{4,}\.[A-Za-z0-9_\-]*)`, wordStart),
}
