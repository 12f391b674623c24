package failure

// keyFormatRules recognise credentials by their vendor's format wherever
// they appear, with no name or header around them. The vendor prefix stays
// so a reader can tell which credential leaked; the minimum lengths keep
// "sk-[REDACTED]" and similar from matching again.
var keyFormatRules = []redactRule{
	// Rule: redact "OpenAI-style sk-..., sk-proj-..., Anthropic sk-ant-...".
	newRule(`\bsk-(?:(?:ant|proj|svcacct|admin)-)?(?:(?:api|admin)\d\d-)?(?P<s>[A-Za-z0-9_\-]{16,})`, nil),
	// Rule: redact "Stripe sk_live_/rk_live_/sk_test_" secret and
	// restricted keys.
	newRule(`\b(?:sk|rk)_(?:live|test)_(?P<s>[A-Za-z0-9]{10,})`, nil),
	// Rule: redact "AWS AKIA/ASIA access key ids".
	newRule(`\b(?:AKIA|ASIA)(?P<s>[A-Z0-9]{16})\b`, nil),
	// Rule: redact "GitHub ghp_/gho_/ghu_/ghs_/ghr_" tokens.
	newRule(`\bgh[pousr]_(?P<s>[A-Za-z0-9]{20,})`, nil),
	// Rule: redact GitHub fine-grained "github_pat_" tokens.
	newRule(`\bgithub_pat_(?P<s>[A-Za-z0-9_]{20,})`, nil),
	// Rule: redact "Slack xox[abprs]-..." tokens.
	newRule(`\bxox[abprs]-(?P<s>[A-Za-z0-9\-]{10,})`, nil),
	// Rule: redact "Google AIza..." API keys.
	newRule(`\bAIza(?P<s>[0-9A-Za-z_\-]{30,})`, nil),
	// Rule: redact "JWTs (three base64url segments starting eyJ)"; the
	// signature may be empty for an unsigned token.
	newRule(`\b(?P<s>eyJ[A-Za-z0-9_\-]{4,}\.[A-Za-z0-9_\-]{4,}\.[A-Za-z0-9_\-]*)`, nil),
}
