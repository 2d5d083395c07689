module github.com/seed5ae3614e/perceptron

go 1.25.0

require (
	github.com/klauspost/compress v1.20.5
	golang.org/x/sys v0.47.0
	gonum.org/v1/gonum v0.17.0
)

require golang.org/x/tools v0.30.0 // indirect
