package migrate

import (
	"testing"
	"testing/fstest"
)

func TestLoad(t *testing.T) {
	fsys := fstest.MapFS{
		"m/0002_more.sql": {Data: []byte("two")},
		"m/0001_init.sql": {Data: []byte("one")},
		"m/README.md":     {Data: []byte("not a migration")},
	}
	got, err := Load(fsys, "m")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Version != 1 || got[0].SQL != "one" || got[1].Version != 2 || got[1].Name != "0002_more.sql" {
		t.Errorf("Load = %+v", got)
	}
	for name, bad := range map[string]fstest.MapFS{
		"duplicate": {"m/0001_a.sql": {}, "m/1_b.sql": {}},
		"no number": {"m/init.sql": {}},
		"zero":      {"m/0000_x.sql": {}},
	} {
		if _, err := Load(bad, "m"); err == nil {
			t.Errorf("%s: Load accepted it", name)
		}
	}
}
