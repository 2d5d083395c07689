// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/seed5ae3614e/perceptron/data"
)

// twoFeatures is a small training file of two features.
var twoFeatures = []byte("1,2,1\n-1,-2,-1\n2,1,1\n-2,0,-1\n")

// isModel reports whether the file at path holds a model that loads.
func isModel(t *testing.T, path string) bool {
	t.Helper()
	_, err := data.LoadModel(path)
	return err == nil
}

// A path that is a symbolic link stays one, to the same place: the file
// it points to is replaced, or created if the link dangles; the model and
// the plot alike.
func TestOutputThroughSymlink(t *testing.T) {
	dir, other := t.TempDir(), t.TempDir()
	data := writeFile(t, dir, "d.csv", twoFeatures)
	real := writeFile(t, other, "real.json", []byte("old"))
	link := filepath.Join(dir, "link.json")
	if err := os.Symlink(real, link); err != nil {
		t.Skip("no symbolic links:", err)
	}
	// A relative link to a link, and a dangling one.
	link2 := filepath.Join(dir, "link2.json")
	os.Symlink("link.json", link2)
	newReal := filepath.Join(other, "new.svg")
	dangling := filepath.Join(dir, "plot.svg")
	os.Symlink(newReal, dangling)

	code, out, errs := runCmd("train", "-o", link2, "-plot", dangling, data)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, l := range []struct{ link, to string }{{link, real}, {link2, "link.json"}, {dangling, newReal}} {
		fi, err := os.Lstat(l.link)
		if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			t.Fatalf("%s is no longer a link: %v", l.link, err)
		}
		if to, _ := os.Readlink(l.link); to != l.to {
			t.Errorf("%s points to %s, want %s", l.link, to, l.to)
		}
	}
	if !isModel(t, real) {
		t.Errorf("the link's target %s holds no model", real)
	}
	if b, err := os.ReadFile(newReal); err != nil || !bytes.Contains(b, []byte("<svg")) {
		t.Errorf("the dangling link's target: %.20q, %v", b, err)
	}
	if names := listDir(t, other); !slices.Equal(names, []string{"new.svg", "real.json"}) {
		t.Errorf("files beside the targets: %v", names)
	}
	if !strings.Contains(out, "saved the model to "+link2) {
		t.Errorf("train printed %q, want the path given", out)
	}
}

// A file that exists and is not a regular file is refused before any
// work, with exit status 1, and left as it was.
func TestOutputNotRegular(t *testing.T) {
	dir := t.TempDir()
	data := writeFile(t, dir, "d.csv", twoFeatures)
	sub := filepath.Join(dir, "sub")
	os.Mkdir(sub, 0o755)
	svgDir := filepath.Join(dir, "dir.svg")
	os.Mkdir(svgDir, 0o755)
	null, nullSVG := os.DevNull, filepath.Join(dir, "null.svg")
	if runtime.GOOS == "windows" || os.Symlink(null, nullSVG) != nil {
		null = ""
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"train", "-o", sub, data}, "-o " + sub + " is a directory"},
		{[]string{"train", "-o", filepath.Join(dir, "m.json"), "-plot", svgDir, data}, "-plot " + svgDir + " is a directory"},
		{[]string{"train", "-o", null, data}, "-o " + null + " is a device"},
		{[]string{"eval", "-plot", nullSVG, data}, "-plot " + nullSVG + " is a device"},
		{[]string{"demo", "-plot", svgDir}, "-plot " + svgDir + " is a directory"},
		{[]string{"train", "-o", filepath.Join(data, "m.json"), data}, "not a directory"},
	} {
		if null == "" && strings.Contains(strings.Join(c.args, " "), os.DevNull) {
			continue
		}
		before := listDir(t, dir)
		code, out, errs := runCmd(c.args...)
		if code != 1 || out != "" || !strings.Contains(errs, c.want) || strings.Count(errs, "\n") != 1 {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit 1 and %q", c.args, code, out, errs, c.want)
		}
		if after := listDir(t, dir); !slices.Equal(after, before) {
			t.Errorf("%q: files %v after, %v before", c.args, after, before)
		}
	}
	if fi, err := os.Stat(null); null != "" && (err != nil || fi.Mode().IsRegular()) {
		t.Errorf("%s is now %v, %v", null, fi.Mode(), err)
	}
}

// A file that the command would write and also reads is refused before
// any work, by its own name, through a symbolic link or a hard link, and
// the data are left as they were.
func TestOutputIsInput(t *testing.T) {
	dir := t.TempDir()
	data := writeFile(t, dir, "two.csv", twoFeatures)
	test := writeFile(t, dir, "test.csv", twoFeatures)
	sym := filepath.Join(dir, "sym.json")
	if err := os.Symlink("two.csv", sym); err != nil {
		t.Skip("no symbolic links:", err)
	}
	symSVG := filepath.Join(dir, "sym.svg")
	os.Symlink("two.csv", symSVG)
	hard := filepath.Join(dir, "hard.json")
	hardSVG := filepath.Join(dir, "hard.svg")
	if err := errors.Join(os.Link(data, hard), os.Link(test, hardSVG)); err != nil {
		t.Skip("no hard links:", err)
	}
	im := writeFile(t, dir, "a-images-idx3-ubyte", idxFile(0x08, []int{2, 1, 1}, []byte{0, 9}))
	lb := writeFile(t, dir, "a-labels-idx1-ubyte", idxFile(0x08, []int{2}, []byte{0, 1}))
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"train", "-o", data, data}, "-o " + data + " is the input file " + data},
		{[]string{"train", "-o", "two.csv", "two.csv"}, "-o two.csv is the input file two.csv"},
		{[]string{"train", "-o", sym, data}, "-o " + sym + " is the input file"},
		{[]string{"train", "-o", hard, data}, "-o " + hard + " is the input file"},
		{[]string{"train", "-o", filepath.Join(dir, "m.json"), "-plot", symSVG, data}, "-plot " + symSVG + " is the input file " + data},
		{[]string{"eval", "-plot", hardSVG, data, test}, "-plot " + hardSVG + " is the input file " + test},
		{[]string{"train", "-pos", "0", "-neg", "1", "-o", lb, im}, "-o " + lb + " is the input file " + lb},
	} {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			wd, _ := os.Getwd()
			os.Chdir(dir)
			defer os.Chdir(wd)
			before := listDir(t, dir)
			code, out, errs := runCmd(c.args...)
			if code != 2 || out != "" || !strings.Contains(errs, c.want) || strings.Count(errs, "\n") != 1 {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit 2 and %q", code, out, errs, c.want)
			}
			if after := listDir(t, dir); !slices.Equal(after, before) {
				t.Errorf("files %v after, %v before", after, before)
			}
			for _, p := range []string{data, test} {
				if b, _ := os.ReadFile(p); !bytes.Equal(b, twoFeatures) {
					t.Errorf("%s now holds %q", p, b)
				}
			}
		})
	}
}

// A file replaced keeps its permission bits; a new one gets those that
// os.Create gives.
func TestOutputPermissions(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no permission bits")
	}
	dir := t.TempDir()
	data := writeFile(t, dir, "d.csv", twoFeatures)
	model := writeFile(t, dir, "m.json", []byte("old"))
	plot := writeFile(t, dir, "p.svg", []byte("old"))
	if err := os.Chmod(model, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(plot, 0o640); err != nil {
		t.Fatal(err)
	}
	newModel := filepath.Join(dir, "new.json")
	for _, args := range [][]string{{"-o", model, "-plot", plot}, {"-o", newModel}} {
		if code, _, errs := runCmd(append(append([]string{"train"}, args...), data)...); code != 0 {
			t.Fatalf("exit %d: %s", code, errs)
		}
	}
	created, err := os.Create(filepath.Join(dir, "created"))
	if err != nil {
		t.Fatal(err)
	}
	created.Close()
	for path, want := range map[string]string{model: "0600", plot: "0640", newModel: modeOf(t, created.Name())} {
		if got := modeOf(t, path); got != want {
			t.Errorf("%s has mode %s, want %s", path, got, want)
		}
	}
	if !isModel(t, model) {
		t.Error("the 0600 model was not replaced")
	}
}

func modeOf(t *testing.T, path string) string {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("%#o", fi.Mode().Perm())
}

// An error in writing names the path given, not the temporary file.
func TestOutputErrorNamesPath(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("needs /proc, where no file can be made")
	}
	data := writeFile(t, t.TempDir(), "d.csv", twoFeatures)
	code, _, errs := runCmd("train", "-o", "/proc/m.json", data)
	if code != 1 || !strings.HasPrefix(errs, "perceptron: writing /proc/m.json: ") || strings.Contains(errs, "tmp") || strings.Count(errs, "\n") != 1 {
		t.Errorf("exit %d, stderr %q", code, errs)
	}
}

// SIGINT and SIGTERM while the model is written leave no temporary file,
// and no model.
func TestSignalLeavesNoTemp(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		dir := t.TempDir()
		X, y := randomData(rand.New(rand.NewPCG(1, 3)), 20, 2)
		file := writeFile(t, dir, "d.csv", csvNamed(X, signs(y), 2, false))
		cmd := child(t, "pause", "train", "-o", filepath.Join(dir, "m.json"), file)
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

// SIGINT and SIGTERM during training, by train or by train -model, stop
// it within a tenth of a second of CPU, which the library's cancellation
// allows, where the training would run for seconds: the command says so
// and ends as the signal would have, leaving no model and no temporary
// file. The time is the CPU time that the child takes from the moment it
// catches the signal to its end, so that the load of the machine, which
// delays the signal, the child and its end, does not count.
func TestSignalStopsTraining(t *testing.T) {
	const latency = 100 * time.Millisecond
	rnd := rand.New(rand.NewPCG(2, 8))
	dir := t.TempDir()
	X, y := randomData(rnd, 4000, 20)
	file := writeFile(t, dir, "d.csv", csvNamed(X, signs(y), 20, false))
	X, y = randomData(rnd, 30000, 20)
	more := writeFile(t, dir, "more.csv", csvNamed(X, signs(y), 20, false))
	model := filepath.Join(dir, "m.json")
	if code, _, errs := runCmd("train", "-classifier", "kernel", "-kernel", "rbf", "-epochs", "1", "-o", model, file); code != 0 {
		t.Fatal(errs)
	}
	inputs := []string{"d.csv", "m.json", "more.csv"}
	out := filepath.Join(dir, "out.json")
	for _, c := range []struct {
		sig  syscall.Signal
		args []string
	}{
		{syscall.SIGINT, []string{"train", "-classifier", "pocket", "-no-stop", "-o", out, file}},
		{syscall.SIGTERM, []string{"train", "-classifier", "pocket", "-no-stop", "-o", out, file}},
		{syscall.SIGINT, []string{"train", "-model", model, "-o", out, more}},
	} {
		cmd := child(t, "training", c.args...)
		stderr, _ := cmd.StderrPipe()
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		r := bufio.NewReader(stderr)
		line, err := r.ReadString('\n')
		if err != nil || line != "training\n" {
			cmd.Process.Kill()
			t.Fatalf("the child wrote %q, %v", line, err)
		}
		rest := make(chan string)
		go func() {
			b, _ := io.ReadAll(r)
			rest <- string(b)
		}()
		time.Sleep(2 * latency) // into the training's long loops
		select {
		case s := <-rest:
			t.Fatalf("%v: the child ended before the signal: %q", c.args, s)
		default:
		}
		cmd.Process.Signal(c.sig)
		msg := <-rest
		err = cmd.Wait()
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			t.Fatalf("%v: the child ended with %v", c.args, err)
		}
		if ws, ok := ee.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() || ws.Signal() != c.sig {
			t.Errorf("%v: the child ended with %v, want %v", c.args, err, c.sig)
		}
		caught, msg, _ := strings.Cut(msg, "\n")
		var at time.Duration
		if _, err := fmt.Sscanf(caught, "caught after %d ns of CPU", &at); err != nil {
			t.Fatalf("%v: the child wrote %q, %v", c.args, caught, err)
		}
		took := cpuTime(cmd.ProcessState.SysUsage().(*syscall.Rusage)) - at
		t.Logf("%v ended %v of CPU after %v", c.args, took, c.sig)
		if want := fmt.Sprintf("perceptron: %v: training stopped\n", c.sig); msg != want {
			t.Errorf("%v: the child wrote %q, want %q", c.args, msg, want)
		}
		if took >= latency {
			t.Errorf("%v: the child ended %v of CPU after %v, want less than %v", c.args, took, c.sig, latency)
		}
		if names := listDir(t, dir); !slices.Equal(names, inputs) {
			t.Errorf("%v: files %v, want %v", c.args, names, inputs)
		}
	}
}
