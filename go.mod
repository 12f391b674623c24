module github.com/wetel/wetel

go 1.26.8

require (
	github.com/expr-lang/expr v1.17.8 // indirect
	github.com/google/go-cmp v0.7.0 // indirect
	github.com/mailgun/raymond/v2 v2.0.48 // indirect
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.3 // indirect
	github.com/sirupsen/logrus v1.8.1 // indirect
	go.yaml.in/yaml/v3 v3.0.6 // indirect
	golang.org/x/sys v0.5.0 // indirect
	golang.org/x/text v0.14.0 // indirect
)
