// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/seed5ae3614e/perceptron/data"
)

// predict, which reads its rows a block at a time, writes the scores that
// the model gives the rows all read at once, in memory, to the bit, on
// rows of several blocks: those of a kernel perceptron, which depend on
// the rows scored together, and of the averaged perceptron on sparse rows.
func TestPredictBlocksAsInMemory(t *testing.T) {
	dir := t.TempDir()
	rnd := rand.New(rand.NewPCG(3, 4))
	X, y := randomData(rnd, 2600, 5)
	csvPath := writeFile(t, dir, "r.csv", csvNamed(X, signs(y), 5, false))
	svmPath := writeFile(t, dir, "r.svm", libsvmOf(X, signs(y)))
	for _, c := range []struct {
		classifier, file string
		read             func(string) (*data.Set, error)
	}{
		{"kernel", csvPath, data.CSV{}.ReadFile},
		{"averaged", svmPath, data.LIBSVM{}.ReadFile},
	} {
		model := filepath.Join(dir, c.classifier+".json")
		if code, _, errs := runCmd("train", "-classifier", c.classifier, "-epochs", "3", "-o", model, c.file); code != 0 {
			t.Fatal(errs)
		}
		code, out, errs := runCmd("predict", "-score", "-model", model, c.file)
		if code != 0 {
			t.Fatal(errs)
		}
		m, err := data.LoadModel(model)
		if err != nil {
			t.Fatal(err)
		}
		set, err := c.read(c.file)
		if err != nil {
			t.Fatal(err)
		}
		scores, err := m.Score(set.X)
		if err != nil {
			t.Fatal(err)
		}
		pred, err := m.Predict(set.X)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
		if len(lines) != len(pred)+1 {
			t.Fatalf("%s: %d lines, want a header and %d", c.classifier, len(lines), len(pred))
		}
		for i, line := range lines[1:] {
			want := m.Classes[int(pred[i])] + "\t" + strconv.FormatFloat(scores[i], 'g', -1, 64)
			if line != want {
				t.Fatalf("%s: row %d: %q, in memory %q", c.classifier, i+1, line, want)
			}
		}
	}
}

// An error of a row in a later block names the row as the file counts
// it, and ends predict after the classes of the blocks before, which
// stdout keeps.
func TestPredictStreamError(t *testing.T) {
	dir := t.TempDir()
	bare := writeFile(t, dir, "bare.json", []byte(`{"type":"Perceptron","version":1,"settings":{"epochs":0,"rate":0,"noBias":false,"initWeights":null,"labels":null,"stop":null},"model":{"classes":[-1,1],"weights":[1,1],"biases":[0],"throughOrigin":false},"stats":{"epochs":1,"converged":true,"mistakes":0,"epochMistakes":[0],"epochLoss":[0]}}`))
	var b bytes.Buffer
	for range 1499 {
		b.WriteString("1,2,1\n")
	}
	b.WriteString("1.5e308,1.5e308,1\n1,2,1\n")
	rows := writeFile(t, dir, "r.csv", b.Bytes())
	code, out, errs := runCmd("predict", "-model", bare, rows)
	if code != 1 || out != strings.Repeat("1\n", data.BlockRows) || !strings.Contains(errs, "r.csv: row 1500: the model's score is +Inf") {
		t.Errorf("exit %d, %d bytes of stdout, stderr %q", code, len(out), errs)
	}
}

// Of standard input, predict writes each row's class as soon as it has
// read the row, before the next comes, with a model whose scores do not
// depend on the rows scored together; a kernel perceptron's it writes a
// block at a time.
func TestPredictAsRead(t *testing.T) {
	dir := t.TempDir()
	train := writeFile(t, dir, "t.csv", []byte("1,1,yes\n2,2,yes\n-1,-1,no\n-2,-1,no\n"))
	defer func() { stdin = os.Stdin }()
	for _, classifier := range []string{"averaged", "kernel"} {
		model := filepath.Join(dir, classifier+".json")
		if code, _, errs := runCmd("train", "-classifier", classifier, "-o", model, train); code != 0 {
			t.Fatal(errs)
		}
		pr, pw := io.Pipe()
		stdin = pr
		or, ow := io.Pipe()
		done := make(chan string)
		go func() {
			var errb bytes.Buffer
			code := run([]string{"predict", "-model", model, "-"}, ow, &errb)
			ow.Close()
			done <- fmt.Sprintf("exit %d: %s", code, errb.String())
		}()
		lines := make(chan string)
		go func() {
			sc := bufio.NewScanner(or)
			for sc.Scan() {
				lines <- sc.Text()
			}
			close(lines)
		}()
		fmt.Fprint(pw, "1.5,1.5,yes\n")
		select {
		case l := <-lines:
			if classifier == "kernel" || l != "yes" {
				t.Errorf("%s: the first row's class %q before the second row", classifier, l)
			}
		case <-time.After(2 * time.Second):
			// Long enough on a loaded machine for the class of one row: the
			// kernel perceptron's comes with the block.
			if classifier != "kernel" {
				t.Errorf("%s: no class of the first row before the second", classifier)
			}
		}
		fmt.Fprint(pw, "-1.5,-1.5,no\n")
		pw.Close()
		var got []string
		for l := range lines {
			got = append(got, l)
		}
		if res := <-done; !strings.HasPrefix(res, "exit 0: ") || classifier == "averaged" && strings.Join(got, " ") != "no" || classifier == "kernel" && strings.Join(got, " ") != "yes no" {
			t.Errorf("%s: %s, then %q", classifier, res, got)
		}
	}
}

// eval reads TEST a block at a time with -stream, and TRAIN, again for
// each epoch, to the results of the rows in memory in the order of the
// file, with labels of TEST that are no class of TRAIN.
func TestEvalStream(t *testing.T) {
	dir := t.TempDir()
	rnd := rand.New(rand.NewPCG(5, 6))
	X, y := classData(rnd, 3600, 4, 3)
	labels := make([]string, len(y))
	for i, c := range y {
		labels[i] = strconv.Itoa(c)
		if i > 1200 && i%500 == 0 {
			labels[i] = "9"
		}
	}
	train := writeFile(t, dir, "train.svm", libsvmOf(mat.DenseCopyOf(X.Slice(0, 1200, 0, 4)), labels[:1200]))
	test := writeFile(t, dir, "test.svm", libsvmOf(mat.DenseCopyOf(X.Slice(1200, 3600, 0, 4)), labels[1200:]))
	fitTime := regexp.MustCompile(` +[0-9.]+[^ 0-9.]*s\n`)
	for _, args := range [][]string{
		{"-classifier", "averaged", "-shuffle=false"},
		{"-classifier", "voted", "-shuffle=false", "-class-weight", "balanced"},
		{"-classifier", "ovr:averaged", "-shuffle=false", "-standardize"},
	} {
		args = append(args, train, test)
		code, mem, errs := runCmd(append([]string{"eval"}, args...)...)
		if code != 0 {
			t.Fatal(errs)
		}
		code, str, errs := runCmd(append([]string{"eval", "-stream"}, args...)...)
		if code != 0 {
			t.Fatal(errs)
		}
		a := fitTime.ReplaceAllString(mem, "\n")
		b := strings.Replace(fitTime.ReplaceAllString(str, "\n"), ", read a block at a time", "", 1)
		if a != b || !strings.Contains(str, "2400 test rows") {
			t.Errorf("eval %q:\n%s\nwith -stream:\n%s", args, mem, str)
		}
	}
	// The classifiers that train on rows in memory are left out of all.
	code, out, errs := runCmd("eval", "-stream", train, test)
	if rows := parseTable(t, out); code != 0 || len(rows) != 3 || rows[0].name != "perceptron" || rows[1].name != "averaged" || rows[2].name != "voted" || !strings.Contains(out, "pocket and kernel left out") {
		t.Errorf("eval -stream: exit %d: %s%s", code, out, errs)
	}
}

// train reads its file a block at a time with -stream, and again for each
// epoch, and makes, in the order of the file, the model that it makes of
// the rows in memory, to the byte of its file: of every format, with
// -pos and -neg, -classes, the weights of the classes and of the rows,
// and every classifier that trains on a stream; and train -model goes on
// training it, a block at a time, to the classifier of the rows in memory.
func TestTrainStream(t *testing.T) {
	dir := t.TempDir()
	rnd := rand.New(rand.NewPCG(7, 8))
	X, y := classData(rnd, 2500, 5, 4)
	labels := make([]string, len(y))
	rowWeights := make([]byte, 0, 4*len(y))
	for i, c := range y {
		labels[i] = []string{"10", "2", "3.0", "7"}[c]
		rowWeights = fmt.Appendf(rowWeights, "%g\n", float64(i%4)/2)
	}
	svm := writeFile(t, dir, "r.svm", libsvmOf(X, labels))
	csvPath := writeFile(t, dir, "r.csv", csvNamed(X, labels, 5, true))
	texts, topic := topicLines(rnd, 1500)
	ft, _ := fastText(texts, topic)
	text := writeFile(t, dir, "r.txt", ft)
	pix := make([]byte, 2000*16)
	lab := make([]byte, 2000)
	for i := range lab {
		lab[i] = byte(i % 3)
		for j := range 16 {
			pix[i*16+j] = byte(rnd.IntN(64) + 64*int(lab[i])*(j%2))
		}
	}
	images := writeFile(t, dir, "r-images-idx3-ubyte", idxFile(0x08, []int{2000, 4, 4}, pix))
	writeFile(t, dir, "r-labels-idx1-ubyte", idxFile(0x08, []int{2000}, lab))
	w := writeFile(t, dir, "w.txt", rowWeights)
	names := writeFile(t, dir, "names.txt", []byte("10 ten\n2 two\n3 three\n7 seven\n"))
	for _, c := range []struct {
		file string
		args []string
	}{
		{svm, []string{"-classifier", "averaged"}},
		{svm, []string{"-classifier", "perceptron", "-pos", "7", "-neg", "2"}},
		{svm, []string{"-classifier", "voted", "-classes", names, "-epochs", "3"}},
		{svm, []string{"-classifier", "ovr:averaged", "-class-weight", "balanced", "-idf=false"}},
		{svm, []string{"-classifier", "averaged", "-weights", w, "-w10", "2"}},
		{csvPath, []string{"-classifier", "averaged", "-header"}},
		{text, []string{"-classifier", "averaged", "-bits", "12"}},
		{images, []string{"-classifier", "perceptron", "-no-stop", "-epochs", "4"}},
	} {
		mem, str := filepath.Join(dir, "mem.json"), filepath.Join(dir, "str.json")
		args := append([]string{"train", "-resumable", "-shuffle=false"}, c.args...)
		if code, _, errs := runCmd(append(args, "-o", mem, c.file)...); code != 0 {
			t.Fatalf("%q: %s", c.args, errs)
		}
		code, out, errs := runCmd(append(args, "-stream", "-o", str, c.file)...)
		if code != 0 || !strings.Contains(out, "read a block at a time") {
			t.Fatalf("%q -stream: exit %d: %s%s", c.args, code, out, errs)
		}
		a, _ := os.ReadFile(mem)
		b, _ := os.ReadFile(str)
		if !bytes.Equal(a, b) {
			t.Errorf("%q: -stream saves\n%.1000s\nin memory\n%.1000s", c.args, b, a)
		}
		if slices.Contains(c.args, "-pos") {
			continue // train -model trains on the model's classes alone
		}
		// Training further, on the rows in memory or a block at a time,
		// learns the rows alike.
		more := []string{"train", "-resumable", "-model", mem, "-o", mem}
		if i := slices.Index(c.args, "-weights"); i >= 0 {
			more = append(more, c.args[i:i+2]...)
		}
		if i := slices.Index(c.args, "-header"); i >= 0 {
			more = append(more, "-header")
		}
		if code, _, errs := runCmd(append(more, c.file)...); code != 0 {
			t.Fatalf("%q -model: %s", c.args, errs)
		}
		more[3], more[5] = str, str
		if code, out, errs := runCmd(append(more, "-stream", c.file)...); code != 0 || !strings.Contains(out, "read a block at a time") {
			t.Fatalf("%q -model -stream: exit %d: %s%s", c.args, code, out, errs)
		}
		ma, err1 := data.LoadModel(mem)
		mb, err2 := data.LoadModel(str)
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		ja, _ := json.Marshal(ma.Classifier)
		jb, _ := json.Marshal(mb.Classifier)
		if !bytes.Equal(ja, jb) {
			t.Errorf("%q -model: -stream learns\n%.1000s\nin memory\n%.1000s", c.args, jb, ja)
		}
	}
}

// What takes rows in memory, -stream refuses, as the command does where it
// reads a file a block at a time by itself, saying why.
func TestStreamRefuses(t *testing.T) {
	dir := t.TempDir()
	svm := writeFile(t, dir, "r.svm", []byte("1 1:1\n-1 2:1\n1 1:2\n-1 2:2\n"))
	m := filepath.Join(dir, "m.json")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"train", "-stream", "-calibrate", "2", "-o", m, svm}, "-calibrate"},
		{[]string{"train", "-stream", "-classifier", "pocket", "-o", m, svm}, "-classifier pocket, which trains on rows in memory"},
		{[]string{"train", "-stream", "-classifier", "ovr:kernel", "-o", m, svm}, "-classifier ovr:kernel"},
		{[]string{"train", "-stream", "-validation", "0.5", "-o", m, svm}, "-validation"},
		{[]string{"train", "-stream", "-plot", filepath.Join(dir, "p.svg"), "-o", m, svm}, "-plot"},
		{[]string{"train", "-stream", "-o", m, "-"}, "standard input"},
		{[]string{"eval", "-stream", svm}, "name a TEST file"},
		{[]string{"eval", "-stream", "-folds", "2", svm}, "-folds"},
	} {
		if code, _, errs := runCmd(c.args...); code != 2 || !strings.Contains(errs, c.want) {
			t.Errorf("%q: exit %d, %s", c.args, code, errs)
		}
	}
}
