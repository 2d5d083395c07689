module github.com/seed5ae3614e/perceptron

go 1.25.0

require (
	golang.org/x/sys v0.47.0
	gonum.org/v1/gonum v0.17.0
)
