package secrets_test

import (
	"bytes"
	"fmt"

	"github.com/wetel/wetel/secrets"
)

// A custom action's headers are sealed for storage, bound to the action,
// and shown back masked.
func Example() {
	// In the server the key comes from secrets.LoadKey(dataDir, os.Getenv).
	box, err := secrets.NewBox(bytes.Repeat([]byte{7}, secrets.KeySize))
	if err != nil {
		panic(err)
	}
	headers := map[string]string{"Authorization": "Bearer sk-proj-abcdefgh1234", "Accept": "application/json"}
	const where = "ws:3/customAction:41/header:"

	sealed, err := box.SealMap(headers, where)
	if err != nil {
		panic(err)
	}
	opened, err := box.OpenMap(sealed, where)
	fmt.Println(opened["Authorization"], err)

	// The same value does not open for another action.
	_, err = box.OpenMap(sealed, "ws:3/customAction:42/header:")
	fmt.Println(err)

	fmt.Println(secrets.MaskHeaders(opened)["Authorization"])
	// Output:
	// Bearer sk-proj-abcdefgh1234 <nil>
	// opening "Accept": opening secret: sealed secret does not authenticate
	// Bearer ****1234
}

func ExampleMask() {
	fmt.Println(secrets.Mask("Bearer eyJhbGciOiJIUzI1NiJ9.e30.c2lnbmF0dXJl"))
	fmt.Println(secrets.Mask("Basic dXNlcjpodW50ZXIy"))
	fmt.Println(secrets.Mask("hunter2"))
	// Output:
	// Bearer ****dXJl
	// Basic ****
	// ****
}
