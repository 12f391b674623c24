package models_test

import (
	"net/http"

	"github.com/wetel/wetel/outbound"
)

// outboundDefault is the guarded client with no allowlist.
func outboundDefault() (*http.Client, error) {
	c, err := outbound.New(outbound.Config{})
	if err != nil {
		return nil, err
	}
	return c.HTTP(), nil
}
