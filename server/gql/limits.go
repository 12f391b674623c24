package gql

// Limits on what the API accepts, enforced where input enters.
const (
	// MaxMessageBytes bounds a user message.
	MaxMessageBytes = 32 << 10
	// MaxNameBytes bounds names (workflows, agents, keys).
	MaxNameBytes = 200
	// maxDescriptionBytes bounds descriptions, personas and failure replies.
	maxDescriptionBytes = 16 << 10
	// maxIdentityBytes bounds an identity, a client id or a channel.
	maxIdentityBytes = 512
	// maxPage is the largest page a listing returns.
	maxPage = 200
)

func checkWorkflowText(name, description, failureResponse string) error {
	if err := checkText("name", name, MaxNameBytes); err != nil {
		return err
	}
	if err := checkText("description", description, maxDescriptionBytes); err != nil {
		return err
	}
	return checkText("failureResponse", failureResponse, maxDescriptionBytes)
}

func checkAgentText(name, persona, model string) error {
	if err := checkText("name", name, MaxNameBytes); err != nil {
		return err
	}
	if err := checkText("persona", persona, maxDescriptionBytes); err != nil {
		return err
	}
	return checkText("defaultModel", model, MaxNameBytes)
}

func checkSessionText(identity, clientExternalID, channel string) error {
	if err := checkText("identity", identity, maxIdentityBytes); err != nil {
		return err
	}
	if err := checkText("clientExternalId", clientExternalID, maxIdentityBytes); err != nil {
		return err
	}
	return checkText("channel", channel, maxIdentityBytes)
}

// pageSize reads first: 1 to maxPage.
func pageSize(first *int) (int, error) {
	if first == nil {
		return 50, nil
	}
	if *first < 1 || *first > maxPage {
		return 0, Errorf(CodeValidation, "first: must be 1 to %d", maxPage)
	}
	return *first, nil
}
