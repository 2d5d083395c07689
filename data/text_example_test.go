// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package data_test

import (
	"encoding/json"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strings"

	"github.com/seed5ae3614e/perceptron"
	"github.com/seed5ae3614e/perceptron/data"
)

// Headlines of three topics, in fastText's format.
const headlines = `__label__sport The home team won the match in the final minute
__label__sport A late goal decided the cup final
__label__sport The coach praised his players after the match
__label__politics Parliament passed the budget after a long debate
__label__politics The minister resigned after the vote in parliament
__label__politics The government lost the vote on the new law
__label__science Astronomers found water on a distant planet
__label__science A new vaccine passed its first trial
__label__science Physicists measured the mass of the particle again
`

// Read labelled text, train an averaged perceptron on the hashed words
// and pairs of words of each line, and predict the topics of new
// headlines, turned into rows by the same Hashing, which is what a model
// file keeps of the text.
func ExampleText() {
	text := data.Text{Hashing: data.Hashing{NGrams: 2, Bits: 16}}
	train, err := text.Read(strings.NewReader(headlines))
	if err != nil {
		log.Fatal(err)
	}
	var clf perceptron.Averaged
	if err := clf.Fit(train.X, train.Y); err != nil {
		log.Fatal(err)
	}

	news := []string{
		"The team lost the final",
		"Parliament will vote on the budget",
		"A planet with water",
	}
	X, err := text.Hashing.Transform(news)
	if err != nil {
		log.Fatal(err)
	}
	for i, c := range clf.PredictRows(nil, X) {
		fmt.Printf("%-36s %s\n", news[i], train.Classes[int(c)])
	}
	saved, err := json.Marshal(text.Hashing)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%s\n", saved)

	// Output:
	// The team lost the final              sport
	// Parliament will vote on the budget   politics
	// A planet with water                  science
	// {"ngrams":2,"bits":16,"seed":0,"signed":false,"values":"","noNorm":false}
}

// A Model of text keeps its Hashing, which its file saves: the Model
// loaded from the file turns new texts into the rows that training made
// of texts, and predicts from them.
func ExampleModel_text() {
	h := data.Hashing{NGrams: 2, Bits: 16}
	train, err := data.Text{Hashing: h}.Read(strings.NewReader(headlines))
	if err != nil {
		log.Fatal(err)
	}
	m := &data.Model{Classifier: &perceptron.Averaged{}, Hashing: &h}
	if err := m.Fit(train); err != nil {
		log.Fatal(err)
	}
	dir, err := os.MkdirTemp("", "example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "topics.json")
	if err := m.Save(path); err != nil {
		log.Fatal(err)
	}

	loaded, err := data.LoadModel(path)
	if err != nil {
		log.Fatal(err)
	}
	news := []string{"The team lost the final", "Parliament will vote on the budget"}
	X, err := loaded.Hashing.Transform(news)
	if err != nil {
		log.Fatal(err)
	}
	pred, err := loaded.Predict(X)
	if err != nil {
		log.Fatal(err)
	}
	for i, c := range pred {
		fmt.Printf("%-36s %s\n", news[i], loaded.Classes[int(c)])
	}

	// Output:
	// The team lost the final              sport
	// Parliament will vote on the budget   politics
}
