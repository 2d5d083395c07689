// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/seed5ae3614e/perceptron/data"
)

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// zeroBomb writes to w a gzip file of size bytes of zeros: members of a
// mebibyte each, which gzip readers read one after the other, so that the
// file is about a thousandth of its content.
func zeroBomb(t *testing.T, w io.Writer, size int) {
	var member bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&member, gzip.BestCompression)
	zw.Write(make([]byte, 1<<20))
	zw.Close()
	for range size >> 20 {
		if _, err := w.Write(member.Bytes()); err != nil {
			t.Fatal(err)
		}
	}
}

// A model file of 2 GiB of zero bytes, gzipped into 2 MB, is refused at
// once: the command reads a few kilobytes of it.
func TestModelBomb(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "bomb.json.gz")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	zeroBomb(t, f, 2<<30)
	f.Close()
	fi, _ := os.Stat(path)
	if fi.Size() > 4<<20 {
		t.Fatalf("the bomb is %d bytes", fi.Size())
	}
	in, _ := os.Open(path)
	defer in.Close()
	c := &countingReader{r: in}
	_, err = readModel(c, 1<<40)
	if err == nil || !strings.Contains(err.Error(), "not a model") || c.n > 64<<10 {
		t.Errorf("read %d bytes of the file: %v", c.n, err)
	}
	data := writeFile(t, dir, "d.csv", []byte("1,2,1\n"))
	start := time.Now()
	if code, _, errs := runCmd("predict", "-model", path, data); code != 1 || !strings.Contains(errs, "not a model") {
		t.Errorf("exit %d, stderr %q", code, errs)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("the refusal took %v", d)
	}
}

// A model whose text is longer than the limit, white space that JSON
// allows, is refused once the limit is read.
func TestModelLimit(t *testing.T) {
	text := "{" + strings.Repeat(" ", 4<<20) + "}"
	c := &countingReader{r: strings.NewReader(text)}
	_, err := readModel(c, 1<<20)
	if !errors.As(err, new(tooLong)) || c.n > 2<<20 {
		t.Errorf("read %d bytes: %v", c.n, err)
	}
	// Within the limit, the same text is not a model, but not too long.
	if _, err := readModel(strings.NewReader(text), 8<<20); err == nil || errors.As(err, new(tooLong)) {
		t.Errorf("within the limit: %v", err)
	}
	// The limit follows the memory available.
	if modelLimit(5<<30) != 1<<30 {
		t.Errorf("the limit of 5 GiB is %d", modelLimit(5<<30))
	}
}

// trainedModels returns the model files of every classifier trained on
// two and on three classes, as train saves them.
func trainedModels(t testing.TB) [][]byte {
	dir := t.TempDir()
	var files [][]byte
	for _, file := range []string{"1,2,a\n-1,-2,b\n2,1,a\n-2,0,b\n0,3,a\n", "1,2,x\n-1,-2,y\n2,1,z\n-2,0,x\n0,3,y\n3,3,z\n"} {
		p := filepath.Join(dir, "d.csv")
		os.WriteFile(p, []byte(file), 0o644)
		for _, c := range classifiers {
			m := filepath.Join(dir, "m.json")
			if code := run([]string{"train", "-classifier", c.name, "-epochs", "5", "-o", m, p}, io.Discard, io.Discard); code != 0 {
				t.Fatalf("train %s: exit %d", c.name, code)
			}
			b, _ := os.ReadFile(m)
			files = append(files, b)
		}
	}
	return files
}

// A model file that loads saves to one that loads to the same bytes: the
// old failing input of FuzzDecodeModel, a class label " a", which no
// reader gives, is refused, and labels and names with spaces inside load
// and save as they were.
func TestModelResaves(t *testing.T) {
	base := trainedModels(t)[0]
	for _, c := range []struct {
		from, to string
		ok       bool
	}{
		{`"classes":["a","b"]`, `"classes":[" a","b"]`, false},
		{`"classes":["a","b"]`, `"classes":["a\tb","b"]`, false},
		{`"classes":["a","b"]`, `"classes":["a","a"]`, false},
		{`"classes":["a","b"]`, `"classes":["1","1.0"]`, false},
		{`"classes":["a","b"]`, `"classes":["a b","b"],"names":["first one","b"]`, true},
	} {
		b := bytes.Replace(base, []byte(c.from), []byte(c.to), 1)
		if bytes.Equal(b, base) {
			t.Fatalf("no %s in %s", c.from, base)
		}
		s, err := readModel(bytes.NewReader(b), 1<<30)
		if (err == nil) != c.ok {
			t.Errorf("%s: %v", c.to, err)
			continue
		}
		if err != nil {
			if !strings.Contains(err.Error(), "class label") {
				t.Errorf("%s: %v", c.to, err)
			}
			continue
		}
		out, err := s.encode()
		if err != nil {
			t.Fatal(err)
		}
		s2, err := readModel(bytes.NewReader(out), 1<<30)
		if err != nil {
			t.Fatalf("saved %s, which does not load: %v", out, err)
		}
		again, _ := s2.encode()
		if !bytes.Equal(again, out) || s2.classes.names[0] != "first one" || s2.classes.labels[0] != "a b" {
			t.Errorf("saved %s, then %s", out, again)
		}
	}
}

// FuzzDecodeModel checks that a model file that loads takes rows of its
// features and saves to a file that loads to the same bytes.
func FuzzDecodeModel(f *testing.F) {
	for _, b := range trainedModels(f) {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		s, err := readModel(bytes.NewReader(b), 1<<20)
		if err != nil {
			return
		}
		ds := &dataset{name: "zero", Set: &data.Set{X: mat.NewDense(1, s.features, nil)}}
		if _, err := applyModel(s, ds); err == nil {
			classify(s.m, ds, nil, "", true)
		}
		out, err := s.encode()
		if err != nil {
			t.Fatalf("loaded %s, cannot save it: %v", b, err)
		}
		s2, err := readModel(bytes.NewReader(out), 1<<30)
		if err != nil {
			t.Fatalf("saved %s, cannot load it: %v", out, err)
		}
		again, err := s2.encode()
		if err != nil || !bytes.Equal(again, out) {
			t.Fatalf("saved %s, then %s (%v)", out, again, err)
		}
	})
}

// FuzzClassNames checks that a -classes file that reads names every label
// a number once, with a name of one line, each name once.
func FuzzClassNames(f *testing.F) {
	f.Add([]byte("0 admin 1479\n1 devel 3541\n2 doc 4471\n"))
	f.Add([]byte("T-shirt/top\nTrouser\nPullover\n"))
	f.Add([]byte("# comment\n\n0 a b 3\n1 c\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		names, err := readClassNames(bytes.NewReader(b))
		if err != nil {
			return
		}
		seen := map[string]bool{}
		for label, name := range names {
			if _, err := strconv.Atoi(label); err != nil {
				t.Errorf("label %q", label)
			}
			if !validText(name) || seen[name] {
				t.Errorf("name %q", name)
			}
			seen[name] = true
		}
	})
}

// bigIndex writes a file of ten lines of ten classes, one of whose
// features has the index 67108864: the weights of ten classes take 5 GiB,
// and the averaged perceptron's twice that.
func bigIndex(t *testing.T, dir string) string {
	var b strings.Builder
	for k := range 10 {
		b.WriteString(strconv.Itoa(k) + " 1:1")
		if k == 9 {
			b.WriteString(" 67108864:1")
		}
		b.WriteString("\n")
	}
	return writeFile(t, dir, "big.svm", []byte(b.String()))
}

// The command refuses, with the figures and exit status 1, a model that
// would not fit in memory, before it allocates it.
func TestMemoryRefusal(t *testing.T) {
	dir := t.TempDir()
	big := bigIndex(t, dir)
	model := filepath.Join(dir, "m.json")
	// Saving the model would take 100 GiB on any machine.
	code, out, errs := runCmd("train", "-classifier", "averaged", "-o", model, big)
	if code != 1 || out != "" || !strings.Contains(errs, "averaged on 10 rows of 67108864 features and 10 classes would need about") ||
		!strings.Contains(errs, "weights and their sums 10.0 GiB") || !strings.Contains(errs, "the model file's text") {
		t.Errorf("exit %d, stderr %q", code, errs)
	}
	if _, err := os.Stat(model); err == nil {
		t.Error("a model file was written")
	}
	// eval, which saves nothing, with 1 GiB available.
	defer func(f func() (uint64, string)) { memoryAvailable = f }(memoryAvailable)
	memoryAvailable = func() (uint64, string) { return 1 << 30, "the test" }
	code, _, errs = runCmd("eval", "-classifier", "averaged", big, big)
	if code != 1 || !strings.Contains(errs, "1.0 GiB is available (the test): too much to hold") {
		t.Errorf("eval: exit %d, stderr %q", code, errs)
	}
	// Loading a model file is bounded by the memory too.
	X, y := randomData(rand.New(rand.NewPCG(1, 2)), 20, 2)
	good := writeFile(t, dir, "d.csv", csvNamed(X, signs(y), 2, false))
	memoryAvailable = func() (uint64, string) { return 1 << 40, "the test" }
	if code, _, errs := runCmd("train", "-o", model, good); code != 0 {
		t.Fatal(errs)
	}
	memoryAvailable = func() (uint64, string) { return 1000, "the test" }
	if code, _, errs := runCmd("predict", "-model", model, good); code != 1 || !strings.Contains(errs, "the model's text is longer than 200 B") {
		t.Errorf("predict: exit %d, stderr %q", code, errs)
	}
}

// child runs the test binary as the command with args, in mode, and
// returns the command.
func child(t *testing.T, mode string, env []string, args ...string) *exec.Cmd {
	exe, err := os.Executable()
	if err != nil {
		t.Skip(err)
	}
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), append(env, "PERCEPTRON_TEST_CHILD="+mode, "PERCEPTRON_TEST_ARGS="+strings.Join(args, "\x1f"))...)
	return cmd
}

// Under a limit of address space, RLIMIT_AS, the command refuses a model
// that would not fit in it.
func TestAddressSpaceLimit(t *testing.T) {
	dir := t.TempDir()
	big := bigIndex(t, dir)
	cmd := child(t, "rlimit", []string{"PERCEPTRON_TEST_RLIMIT=" + strconv.Itoa(2<<30)}, "eval", "-classifier", "averaged", big, big)
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 1 || !strings.Contains(string(out), "RLIMIT_AS (ulimit -v) less the address space in use") {
		t.Errorf("%v: %s", err, out)
	}
}

// SIGINT and SIGTERM while the model is written leave no temporary file,
// and no model.
func TestSignalLeavesNoTemp(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		dir := t.TempDir()
		X, y := randomData(rand.New(rand.NewPCG(1, 3)), 20, 2)
		file := writeFile(t, dir, "d.csv", csvNamed(X, signs(y), 2, false))
		cmd := child(t, "pause", nil, "train", "-o", filepath.Join(dir, "m.json"), file)
		stderr, _ := cmd.StderrPipe()
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		line, err := bufio.NewReader(stderr).ReadString('\n')
		if err != nil || !strings.HasPrefix(line, "temporary file ") {
			cmd.Process.Kill()
			t.Fatalf("the child wrote %q, %v", line, err)
		}
		tmp := strings.TrimSpace(strings.TrimPrefix(line, "temporary file "))
		if _, err := os.Stat(tmp); err != nil {
			t.Fatalf("no temporary file: %v", err)
		}
		cmd.Process.Signal(sig)
		err = cmd.Wait()
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			t.Fatalf("%v: the child ended with %v", sig, err)
		}
		if ws, ok := ee.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() || ws.Signal() != sig {
			t.Errorf("%v: the child ended with %v", sig, err)
		}
		if names := listDir(t, dir); len(names) != 1 || names[0] != "d.csv" {
			t.Errorf("%v: files left: %v", sig, names)
		}
	}
}
