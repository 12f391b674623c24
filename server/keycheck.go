package server

import (
	"context"
	"fmt"

	"github.com/wetel/wetel/secrets"
)

// keyCheckSetting names the stored check value of the key credentials are
// sealed with.
const keyCheckSetting = "secret-key-check"

// keyCheckText is what the check value seals; its aad binds it to its use.
const keyCheckText, keyCheckAAD = "wetel: credentials are sealed with this key", "settings:" + keyCheckSetting

// checkSecretKey refuses to start a server whose key cannot open what the
// database's first server sealed: replicas with different WETEL_SECRET_KEYs
// would each seal credentials that the others cannot read. The first server
// stores a value sealed with its key; every later start must open it (a key
// rotated with the old one kept in WETEL_SECRET_OLD_KEYS still does).
func (s *Server) checkSecretKey(ctx context.Context, box *secrets.Box) error {
	mine, err := box.Seal([]byte(keyCheckText), keyCheckAAD)
	if err != nil {
		return err
	}
	stored, err := s.store.AgreeSetting(ctx, keyCheckSetting, mine)
	if err != nil {
		return err
	}
	if got, err := box.Open(stored, keyCheckAAD); err != nil || string(got) != keyCheckText {
		return fmt.Errorf("%s: this server's key (id %s) cannot open the credentials this database holds, which another key sealed: "+
			"every server of one database needs the same %s (to rotate it, keep the old one in %s)", secrets.EnvKey, box.KeyID(), secrets.EnvKey, secrets.EnvOldKeys)
	}
	return nil
}
