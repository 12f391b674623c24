package vocab

// Turn facts: the context variables every run starts with (PLATFORM §3).
// The resuming turn supplies them fresh, so a pause never carries them.
const (
	FactUserMessage         = "userMessage"
	FactConversationHistory = "conversationHistory"
	FactSessionID           = "sessionId"
	FactTenantID            = "tenantId"
	FactAgentID             = "agentId"
	FactTurnIndex           = "turnIndex"
	FactClientExternalID    = "clientExternalId"
	FactAttachment          = "attachment"
	FactChannel             = "channel"
	FactAttachmentURL       = "attachmentUrl"
	FactAttachmentMime      = "attachmentMime"
	FactAttachmentFilename  = "attachmentFilename"
)

// TurnFacts lists every turn fact.
var TurnFacts = []string{
	FactUserMessage, FactConversationHistory, FactSessionID, FactTenantID, FactAgentID, FactTurnIndex,
	FactClientExternalID, FactAttachment, FactChannel, FactAttachmentURL, FactAttachmentMime, FactAttachmentFilename,
}

// AwaitReplyOptions is the name the option list has in an await_reply
// question's promptTemplate, for that one render only; it is reserved.
const AwaitReplyOptions = "awaitReplyOptions"

// ReservedReason says why name may not be an output variable (outputVar,
// resultVar, saveAs, var), or "" when it may: PLATFORM §3, "the turn facts,
// every name the engine writes that starts with _, and awaitReplyOptions".
func ReservedReason(name string) string {
	if name == "" {
		return ""
	}
	if name[0] == '_' {
		return "names starting with _ are reserved for the engine"
	}
	if name == AwaitReplyOptions {
		return "awaitReplyOptions is reserved for rendering an await_reply question"
	}
	for _, f := range TurnFacts {
		if f == name {
			return "it is a turn fact the engine sets on every run"
		}
	}
	return ""
}
