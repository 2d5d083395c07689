// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/seed5ae3614e/perceptron"
	"github.com/seed5ae3614e/perceptron/data"
)

// topics are the words of the texts of each class of topicLines, and of
// all of them.
var topics = map[string][]string{
	"sport":    {"team", "match", "goal", "coach", "players", "cup", "final", "won", "league", "score"},
	"politics": {"parliament", "vote", "minister", "budget", "law", "government", "debate", "party", "election", "policy"},
	"science":  {"planet", "vaccine", "particle", "astronomers", "physicists", "trial", "water", "mass", "theory", "laboratory"},
	"":         {"the", "a", "of", "in", "after", "new", "on", "its", "and", "with", "Again,", "Today:", "It's"},
}

// topicLines returns n lines of text of the three topics, each of five to
// twelve words, mostly of its topic, a few of another, and some common to
// all, with the topic of each.
func topicLines(rnd *rand.Rand, n int) (texts, labels []string) {
	names := []string{"sport", "politics", "science"}
	for i := range n {
		topic := names[i%3]
		var words []string
		for range 5 + rnd.IntN(8) {
			from := topic
			switch r := rnd.IntN(10); {
			case r < 4:
				from = ""
			case r == 4:
				from = names[rnd.IntN(3)]
			}
			w := topics[from][rnd.IntN(len(topics[from]))]
			if rnd.IntN(8) == 0 {
				w = strings.ToUpper(w[:1]) + w[1:]
			}
			words = append(words, w)
		}
		texts, labels = append(texts, strings.Join(words, " ")), append(labels, topic)
	}
	return texts, labels
}

// fastText returns the texts with their labels in fastText's format, and
// tabbed as a label, a tab and the text.
func fastText(texts, labels []string) (ft, tabbed []byte) {
	var a, b bytes.Buffer
	for i, s := range texts {
		fmt.Fprintf(&a, "__label__%s %s\n", labels[i], s)
		fmt.Fprintf(&b, "%s\t%s\n", labels[i], s)
	}
	return a.Bytes(), b.Bytes()
}

// A Go program that loads a model that train saved on text, with
// data.LoadModel, predicts the lines of a file, read by data.Text with the
// model's Hashing or made rows by the Hashing's Transform, as predict
// does, which needs no flags: the same classes, and the same scores to the
// bit. The model is the one that package data's Model fits to the rows
// that data.Text reads, with the steps and the settings that the command
// documents. (TestText trains with the default flags, whose 2^19 columns
// take seconds to save and load.)
func TestTextGoPredictsAsCommand(t *testing.T) {
	dir := t.TempDir()
	texts, labels := topicLines(rand.New(rand.NewPCG(31, 31)), 150)
	ft, tabbed := fastText(texts, labels)
	files := map[string]string{
		"fastText": writeFile(t, dir, "t.txt", ft),
		"gzipped":  writeFile(t, dir, "t.txt.gz", gzipped(ft)),
		"tab":      writeFile(t, dir, "tabbed", tabbed),
	}
	for _, c := range []struct {
		file, classifier string
		flags            []string
		hashing          data.Hashing // that the flags give
		idf, normalize   bool
	}{
		{"gzipped", "averaged", []string{"-bits", "12"}, data.Hashing{NGrams: 2, Bits: 12, NoNorm: true}, true, true},
		{"tab", "averaged", []string{"-ngrams", "3", "-bits", "10", "-idf=false"}, data.Hashing{NGrams: 3, Bits: 10, NoNorm: true}, false, true},
		{"fastText", "ovr:perceptron", []string{"-ngrams", "1", "-bits", "8", "-normalize=false"}, data.Hashing{NGrams: 1, Bits: 8, NoNorm: true}, true, false},
		{"tab", "kernel", []string{"-bits", "9"}, data.Hashing{NGrams: 2, Bits: 9, NoNorm: true}, true, true},
	} {
		file := files[c.file]
		model := filepath.Join(dir, "m.json.gz")
		args := append(append([]string{"train", "-classifier", c.classifier, "-o", model}, c.flags...), file)
		if code, _, errs := runCmd(args...); code != 0 {
			t.Fatalf("%q: exit %d: %s", args, code, errs)
		}
		code, out, errs := runCmd("predict", "-score", "-model", model, file)
		if code != 0 || errs != "Accuracy = "+predictedAccuracy(t, out, labels)+"\n" {
			t.Fatalf("%s %q: predict: exit %d, stderr %q", c.file, c.flags, code, errs)
		}
		m, err := data.LoadModel(model)
		if err != nil {
			t.Fatal(err)
		}
		if m.Hashing == nil || *m.Hashing != c.hashing {
			t.Fatalf("%q: the model's Hashing is %+v, want %+v", c.flags, m.Hashing, c.hashing)
		}
		f := mustOpen(t, file)
		set, err := data.Text{Hashing: *m.Hashing, Tab: c.file == "tab", Classes: m.Classes}.Read(f)
		if err != nil {
			t.Fatal(err)
		}
		made, err := m.Hashing.Transform(texts)
		if err != nil {
			t.Fatal(err)
		}
		for _, X := range []*perceptron.CSR{set.X.(*perceptron.CSR), made} {
			if got := goPredictions(t, m, X); got != strings.SplitAfterN(out, "\n", 2)[1] {
				t.Errorf("%s %s %q: the command predicts\n%.300s\nand Go\n%.300s", c.file, c.classifier, c.flags, out, got)
			}
		}

		// The model of the command is that of data.Model of the
		// documented steps and settings, fitted to the rows that
		// data.Text reads.
		want := &data.Model{Hashing: &c.hashing, Normalize: c.normalize}
		if c.idf {
			if want.Scaler, err = data.NewIDF(set.X); err != nil {
				t.Fatal(err)
			}
		}
		// The command gives the classifiers the class values of the
		// labels, as Labels.
		stop, values := &perceptron.Stop{Tol: 1e-3, NoChange: 5}, []float64{0, 1, 2}
		switch c.classifier {
		case "averaged":
			want.Classifier = &perceptron.Averaged{Labels: values, Stop: stop, Rand: rand.New(rand.NewPCG(1, 1))}
		case "ovr:perceptron":
			want.Classifier = &perceptron.OneVsRest{Labels: values, New: func() perceptron.Scorer {
				return &perceptron.Perceptron{Labels: values, Stop: stop, Rand: rand.New(rand.NewPCG(1, 1))}
			}}
		case "kernel":
			want.Classifier = &perceptron.Kernel{Func: perceptron.RBF{}, Prediction: perceptron.PredictAveraged, Labels: values, Stop: stop, Rand: rand.New(rand.NewPCG(1, 1))}
		}
		if err := want.Fit(set); err != nil {
			t.Fatal(err)
		}
		if err := perceptron.PredictOnly(want.Classifier); err != nil { // as train saves it
			t.Fatal(err)
		}
		mine, _ := json.Marshal(m.Classifier)
		theirs, _ := json.Marshal(want.Classifier)
		if !bytes.Equal(mine, theirs) {
			t.Errorf("%s %s %q: the command trains\n%.300s\nand data.Model\n%.300s", c.file, c.classifier, c.flags, mine, theirs)
		}
	}
}

// goPredictions returns what predict -score writes after its header of
// the rows X, as the model m predicts and scores them.
func goPredictions(t *testing.T, m *data.Model, X *perceptron.CSR) string {
	t.Helper()
	pred, err := m.Predict(X)
	if err != nil {
		t.Fatal(err)
	}
	scores, err := m.Score(X)
	if err != nil {
		t.Fatal(err)
	}
	S := len(scores) / len(pred)
	var b strings.Builder
	for i, k := range pred {
		b.WriteString(m.Classes[int(k)])
		for _, v := range scores[i*S : (i+1)*S] {
			b.WriteString("\t" + strconv.FormatFloat(v, 'g', -1, 64))
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// predictedAccuracy returns the accuracy that predict writes of the
// classes that it wrote in out, under a header, of the rows of labels.
func predictedAccuracy(t *testing.T, out string, labels []string) string {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")[1:]
	if len(lines) != len(labels) {
		t.Fatalf("%d lines predicted of %d", len(lines), len(labels))
	}
	right := 0
	for i, l := range lines {
		if strings.HasPrefix(l, labels[i]+"\t") {
			right++
		}
	}
	return fmt.Sprintf("%s%% (%d/%d)", strconv.FormatFloat(100*float64(right)/float64(len(labels)), 'g', 6, 64), right, len(labels))
}

// train, predict and eval take text, in fastText's format or tabbed, told
// by its content or by -format; predict, eval -model and train -model
// read text as the model's training did, with no flags.
func TestText(t *testing.T) {
	dir := t.TempDir()
	texts, labels := topicLines(rand.New(rand.NewPCG(32, 32)), 300)
	trainFt, trainTab := fastText(texts[:240], labels[:240])
	testFt, testTab := fastText(texts[240:], labels[240:])
	train := writeFile(t, dir, "train.txt", trainFt)
	test := writeFile(t, dir, "test.txt", testFt)

	// The default flags: pairs of words into 2^19 features, which the
	// model's Hashing keeps.
	model := filepath.Join(dir, "m.json")
	code, out, errs := runCmd("train", "-o", model, train)
	if code != 0 || !strings.Contains(out, "train.txt: 240 rows, 524288 features, ") ||
		!strings.Contains(out, "%), the words and the pairs of words of each line hashed into 2^19 features, each feature weighed by its inverse document frequency on the training rows, each row scaled to unit length; 3 classes: \"politics\", \"science\", \"sport\"\n") {
		t.Fatalf("train: exit %d:\n%s%s", code, out, errs)
	}
	if b, _ := os.ReadFile(model); !bytes.Contains(b, []byte(`,"hashing":{"ngrams":2,"bits":19,"seed":0,"signed":false,"values":"","noNorm":true},`)) {
		t.Fatalf("the model's hashing: %.200s", b)
	}
	// Lines without labels, in a file whose name says nothing.
	news := writeFile(t, dir, "news", []byte("The team scored a goal in the final\nParliament passed the budget law\nAstronomers measured the mass of a planet, again\n"))
	code, out, errs = runCmd("predict", "-q", "-model", model, news)
	if code != 0 || out != "sport\npolitics\nscience\n" || errs != "" {
		t.Errorf("predict of new lines: exit %d, stdout %q, stderr %q", code, out, errs)
	}

	// The test lines, read as text as the model says, whose accuracy eval
	// measures as predict does, of a model of fewer bits, which take less
	// time to save and load.
	small := filepath.Join(dir, "small.json")
	if code, _, errs := runCmd("train", "-resumable", "-q", "-bits", "12", "-o", small, train); code != 0 {
		t.Fatal(errs)
	}
	code, want, errs := runCmd("predict", "-model", small, test)
	var right, total int
	if _, err := fmt.Sscanf(errs, "Accuracy = %s (%d/%d)", new(string), &right, &total); code != 0 || err != nil || total != 60 || right < 50 {
		t.Fatalf("predict of the test lines: exit %d: %s", code, errs)
	}
	// Standard input, in either format, gzipped or not.
	defer func() { stdin = os.Stdin }()
	for _, in := range [][]byte{testFt, testTab, gzipped(testTab)} {
		stdin = bytes.NewReader(in)
		if code, out, errs := runCmd("predict", "-model", small, "-"); code != 0 || out != want {
			t.Errorf("predict of standard input %.30q: exit %d: %s", in, code, errs)
		}
	}
	acc := percent(float64(right) / float64(total))
	for _, args := range [][]string{
		{"eval", "-classifier", "averaged", "-bits", "12", train, test},
		{"eval", "-model", small, test},
	} {
		code, out, errs := runCmd(args...)
		if code != 0 || parseTable(t, out)[0].test != acc {
			t.Errorf("%q: exit %d, test accuracy %s, want %s:\n%s%s", args, code, parseTable(t, out)[0].test, acc, out, errs)
		}
		if !strings.Contains(out, "the words and the pairs of words of each line hashed into 2^12 features, each feature weighed") {
			t.Errorf("%q: the steps are not described:\n%s", args, out)
		}
	}
	for _, args := range [][]string{
		{"eval", "-classifier", "perceptron", "-ngrams", "1", "-bits", "10", train},
		{"eval", "-classifier", "averaged", "-ngrams", "3", "-bits", "10", "-folds", "3", train},
	} {
		if code, out, errs := runCmd(args...); code != 0 || !strings.Contains(out, "of each line hashed into 2^10 features") {
			t.Errorf("%q: exit %d:\n%s%s", args, code, out, errs)
		}
	}
	// The same lines, tabbed, in a file named as CSV, which -format text
	// reads, train the same model.
	tabbed := filepath.Join(dir, "tabbed.json")
	if code, _, errs := runCmd("train", "-resumable", "-q", "-format", "text", "-bits", "12", "-o", tabbed, writeFile(t, dir, "train.csv", trainTab)); code != 0 {
		t.Fatal(errs)
	}
	a, _ := os.ReadFile(small)
	b, _ := os.ReadFile(tabbed)
	if !bytes.Equal(a, b) {
		t.Error("the lines tabbed train another model")
	}
	// train -model goes on training on more lines, read as the model reads
	// them.
	code, out, errs = runCmd("train", "-model", small, "-o", small, test)
	if code != 0 || !strings.Contains(out, "trained an averaged model of 4096 features further") {
		t.Errorf("train -model: exit %d:\n%s%s", code, out, errs)
	}
}

// A file whose name does not tell its format is read as its first line
// tells it: CSV and LIBSVM files as the same files named so, whatever
// text their lines hold, and text as -format text reads it; a first line
// that could be two formats is refused, with exit status 2.
func TestFormatByContent(t *testing.T) {
	dir := t.TempDir()
	X, y := randomData(rand.New(rand.NewPCG(33, 33)), 40, 3)
	svm := libsvmOf(X, signs(y))
	var tabs, commented, qid bytes.Buffer
	for i, l := range strings.Split(strings.TrimSuffix(string(svm), "\n"), "\n") {
		tabs.WriteString(strings.Replace(l, " ", "\t", 1+i%2*len(l)) + "\n") // a tab after the label, or tabs alone
		label, rest, _ := strings.Cut(l, " ")
		fmt.Fprintf(&commented, "%s # row %d: a note, of words\n", l, i+1)
		fmt.Fprintf(&qid, "%s qid:%d %s\n", label, i/10+1, rest)
	}
	spaced := append([]byte("\"width, in cm\",height in cm,depth,\"the class, of a row\"\n"), csvNamed(X, signs(y), 3, false)...)
	var words bytes.Buffer
	for i := range 40 {
		fmt.Fprintf(&words, "%g,%g,%g,\"%s\"\n", X.At(i, 0), X.At(i, 1), X.At(i, 2), []string{"yes, it is", "no, it is not"}[i%2])
	}
	texts, labels := topicLines(rand.New(rand.NewPCG(34, 34)), 30)
	var colons, middle, tabbed bytes.Buffer
	for i, s := range texts {
		fmt.Fprintf(&colons, "__label__%s Note: %s at 12:30\n", labels[i], s)
		fmt.Fprintf(&middle, "%s __label__%s %s\n", s[:strings.Index(s, " ")], labels[i], s[strings.Index(s, " ")+1:])
		fmt.Fprintf(&tabbed, "%s\t12:30, %s\n", labels[i], s)
	}
	for _, c := range []struct {
		name    string
		content []byte
		flags   []string
		text    bool
	}{
		{"d.csv", csvNamed(X, signs(y), 3, false), nil, false},
		{"spaced.csv", spaced, []string{"-header"}, false},
		{"words.csv", words.Bytes(), nil, false},
		{"d.svm", svm, nil, false},
		{"tabs.svm", tabs.Bytes(), nil, false},
		{"commented.svm", append([]byte("# 40 rows\n\n"), commented.Bytes()...), nil, false},
		{"qid.svm", qid.Bytes(), nil, false},
		{"colons", colons.Bytes(), []string{"-bits", "10"}, true},
		{"middle", middle.Bytes(), []string{"-bits", "10"}, true},
		{"tabbed", tabbed.Bytes(), []string{"-bits", "10"}, true},
	} {
		named := writeFile(t, dir, c.name, c.content)
		bare := writeFile(t, dir, strings.ReplaceAll(c.name, ".", "-"), c.content)
		var models [][]byte
		for _, args := range [][]string{
			{named},
			{bare},
			{"-format", "text", named},
		} {
			if args[0] == "-format" && !c.text {
				args = []string{"-format", map[string]string{".csv": "csv", ".svm": "libsvm"}[filepath.Ext(c.name)], bare}
			}
			model := filepath.Join(dir, fmt.Sprintf("m%d.json", len(models)))
			args = append(append([]string{"train", "-classifier", "perceptron", "-o", model}, c.flags...), args...)
			if code, _, errs := runCmd(args...); code != 0 {
				t.Fatalf("%q: exit %d: %s", args, code, errs)
			}
			b, _ := os.ReadFile(model)
			models = append(models, b)
		}
		if !bytes.Equal(models[0], models[1]) || !bytes.Equal(models[0], models[2]) {
			t.Errorf("%s: the file named so and not, and with -format, train other models", c.name)
		}
		if bytes.Contains(models[0], []byte(`"hashing"`)) != c.text {
			t.Errorf("%s: read as text %v", c.name, !c.text)
		}
		// And so does standard input.
		stdin = bytes.NewReader(c.content)
		model := filepath.Join(dir, "m.json")
		args := append(append([]string{"train", "-classifier", "perceptron", "-o", model}, c.flags...), "-")
		code, _, errs := runCmd(args...)
		stdin = os.Stdin
		if b, _ := os.ReadFile(model); code != 0 || !bytes.Equal(b, models[0]) {
			t.Errorf("%s on standard input: exit %d, %s", c.name, code, errs)
		}
	}
	for _, bad := range []string{"a\tb\n", "1.5\t2\t0\n", "spam\tBuy now\tcheap\n", "1 2 3\n"} {
		file := writeFile(t, dir, "bad", []byte(bad))
		if code, _, errs := runCmd("train", "-o", filepath.Join(dir, "m.json"), file); code != 2 || !strings.Contains(errs, `from its name nor from its first line: use -format csv, libsvm, idx or text`) {
			t.Errorf("%q: exit %d: %s", bad, code, errs)
		}
	}
}

// The flags of text go with training on text alone, with exit status 2
// before the data are read; a model of text reads text, and a model of
// rows of features refuses it.
func TestTextFlags(t *testing.T) {
	dir := t.TempDir()
	texts, labels := topicLines(rand.New(rand.NewPCG(35, 35)), 30)
	ft, _ := fastText(texts, labels)
	text := writeFile(t, dir, "t.txt", ft)
	X, y := randomData(rand.New(rand.NewPCG(36, 36)), 30, 2)
	csv := writeFile(t, dir, "d.csv", csvNamed(X, signs(y), 2, false))
	svm := writeFile(t, dir, "d.svm", libsvmOf(X, signs(y)))
	textModel, csvModel := filepath.Join(dir, "t.json"), filepath.Join(dir, "c.json")
	for _, args := range [][]string{{"-bits", "8", "-o", textModel, text}, {"-o", csvModel, csv}} {
		if code, _, errs := runCmd(append([]string{"train"}, args...)...); code != 0 {
			t.Fatal(errs)
		}
	}
	defer func() { stdin = os.Stdin }()
	for _, c := range []struct {
		args  []string
		stdin []byte
		code  int
		want  string
	}{
		{[]string{"train", "-ngrams", "3", "-o", textModel, csv}, nil, 2, `-ngrams: only text is read into word n-grams, and "` + csv[:30]},
		{[]string{"eval", "-bits", "12", svm}, nil, 2, "-bits: only text is read into word n-grams"},
		{[]string{"train", "-bits", "12", "-o", textModel, "-"}, libsvmOf(X, signs(y)), 2, `-bits: only text is read into word n-grams, and "standard input" is libsvm`},
		{[]string{"eval", "-model", textModel, "-ngrams", "2", text}, nil, 2, "-ngrams: eval -model tests a saved model, and takes only"},
		{[]string{"train", "-model", textModel, "-o", textModel, "-bits", "8", text}, nil, 2, "-bits: train -model goes on training a saved model, and takes only"},
		{[]string{"predict", "-model", textModel, "-ngrams", "2", text}, nil, 2, "flag provided but not defined: -ngrams"},
		{[]string{"predict", "-model", textModel, "-format", "csv", text}, nil, 2, "-format csv: the model was trained on text, and reads its rows as text"},
		{[]string{"predict", "-model", csvModel, "-format", "text", text}, nil, 2, "-format text: the model was not trained on text: it takes rows of features"},
		{[]string{"predict", "-model", csvModel, text}, nil, 1, "t.txt: lines of text, and the model was not trained on text: it takes rows of 2 features"},
		{[]string{"eval", "-model", csvModel, "-"}, ft, 1, "standard input: lines of text, and the model was not trained on text"},
		{[]string{"eval", csv, text}, nil, 1, "t.txt: lines of text, and the model was not trained on text"},
		{[]string{"eval", "-bits", "8", text, svm}, nil, 1, "d.svm: read as text, as TRAIN is, the lines have no labels to test on"},
	} {
		if c.stdin != nil {
			stdin = bytes.NewReader(c.stdin)
		}
		code, out, errs := runCmd(c.args...)
		if code != c.code || out != "" || !strings.Contains(errs, c.want) || strings.Count(errs, "\n") != 1 {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit %d and %q", c.args, code, out, errs, c.code, c.want)
		}
	}
	// A model of text reads a file of any name as text, and so does the
	// test file of eval of a training file of text.
	named := writeFile(t, dir, "t.csv", ft)
	_, want, _ := runCmd("predict", "-model", textModel, text)
	if code, out, errs := runCmd("predict", "-model", textModel, named); code != 0 || out != want {
		t.Errorf("predict of text in a file named CSV: exit %d: %s", code, errs)
	}
	if code, _, errs := runCmd("eval", "-classifier", "averaged", "-bits", "8", text, named); code != 0 {
		t.Errorf("eval of a test file of text named CSV: exit %d: %s", code, errs)
	}
}

// Under Go's memory limit, text whose hashing the memory left does not
// hold is refused with the figures and exit status 1, and no model file.
func TestTextMemory(t *testing.T) {
	dir := t.TempDir()
	text := writeFile(t, dir, "t.txt", []byte("__label__a one two three\n__label__b four five\n"))
	model := filepath.Join(dir, "m.json")
	withRoom(t, 1<<30)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-bits", "30"}, "t.txt: weighing 1073741824 columns needs 8.0 GiB of memory"},
		{[]string{"-bits", "30", "-idf=false", "-classifier", "perceptron"}, "t.txt: training perceptron: a model of 2 classes on 1073741824 columns, trained on 2 rows, needs 8.0 GiB of memory"},
	} {
		args := append(append([]string{"train", "-o", model}, c.args...), text)
		code, out, errs := runCmd(args...)
		if code != 1 || out != "" || !strings.Contains(errs, c.want) || !strings.Contains(errs, "left under Go's memory limit") {
			t.Errorf("%q: exit %d, stderr %q", c.args, code, errs)
		}
		if _, err := os.Stat(model); err == nil {
			t.Errorf("%q: a model file was written", c.args)
		}
	}
}
