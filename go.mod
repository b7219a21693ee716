module github.com/conform-suite/conform

go 1.26

require (
	github.com/google/gofuzz v1.2.0
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.2
	pgregory.net/rapid v1.3.0
)

require golang.org/x/text v0.14.0 // indirect
