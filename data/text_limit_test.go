// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package data_test

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/seed5ae3614e/perceptron"
	"github.com/seed5ae3614e/perceptron/data"
	"github.com/seed5ae3614e/perceptron/internal/limit"
)

// textChildEnv names the input that TestTextChild, run alone in a child
// of the test binary, reads.
const textChildEnv = "DATA_TEXT_CHILD"

// TestTextChild is the child of TestTextBombs: unless the environment
// names an input, it does nothing. It reads its standard input as text,
// and writes what child in limit_test.go writes, and exits as it does.
func TestTextChild(t *testing.T) {
	name := os.Getenv(textChildEnv)
	if name == "" {
		t.Skip("the child of TestTextBombs")
	}
	f := data.Text{}
	if name == "ngrams" {
		f.Hashing.NGrams = 1 << 20
	}
	_, err := f.Read(os.Stdin)
	fmt.Printf("too large: %v\npeak: %d KiB\n", errors.Is(err, perceptron.ErrTooLarge), procKiB("VmHWM"))
	if err == nil {
		os.Exit(0)
	}
	fmt.Fprintf(os.Stderr, "%s: %v\n", name, err)
	os.Exit(1)
}

// TestTextBombs reads text in a child under a limit of address space 256
// MiB above what the test binary holds at its start, as TestBombs does:
// lines that expand to gigabytes, a line of 8 MiB whose n-grams would
// take terabytes, and a line just over the 16 MiB that Read takes by
// default. Each must end in an error, of kind ErrTooLarge if it does not
// fit, for the rows whichever of their arrays meets the limit first, or
// that its line is too long, within a minute; for the long line
// the child holds at most 3.5 times it, as the other readers, and as much
// again in the garbage of the arrays that growing left behind.
func TestTextBombs(t *testing.T) {
	if !limit.Supported() {
		t.Skip("no RLIMIT_AS here")
	}
	if startSize == 0 {
		t.Skip("no /proc/self/status here")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name     string
		in       []byte
		tooLarge bool
		msg      string
		peak     int // in MiB, or 0
	}{
		{"rows", gzipTimes(t, nil, []byte(strings.Repeat("__label__a one two three four\n__label__b five six\n", 1<<16)), 800), true, " up to it needs ", 0},
		{"ngrams", gzipped(t, []byte(strings.Repeat("a ", 1<<22)+"\n")), true, "line 1: holding the ", 0},
		{"line", gzipped(t, []byte("__label__a "+strings.Repeat("b ", 1<<23)+"\n")), false, "line 1: longer than 16777216 bytes", 7 * 16},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r, err := limit.Run(time.Minute, startSize+256<<10, tc.in, []string{textChildEnv + "=" + tc.name}, exe, "-test.run=^TestTextChild$")
			if err != nil {
				t.Fatal(err)
			}
			out, errs := string(r.Stdout), string(r.Stderr)
			t.Logf("%d KiB of input; in %v: exit %d, %s%s", len(tc.in)>>10, r.Elapsed.Round(time.Millisecond), r.Code, out, errs)
			if r.Code != 1 || r.Fatal() || len(errs) > 2048 || !strings.Contains(errs, tc.msg) {
				t.Fatalf("exit %d, stderr %.600q: want exit 1 and an error holding %q", r.Code, errs, tc.msg)
			}
			if want := fmt.Sprintf("too large: %v\n", tc.tooLarge); !strings.Contains(out, want) {
				t.Errorf("stdout %q, want %q", out, want)
			}
			var peak int
			if _, after, ok := strings.Cut(out, "peak: "); !ok {
				t.Fatalf("stdout %q: no peak", out)
			} else if _, err := fmt.Sscanf(after, "%d KiB", &peak); err != nil {
				t.Fatalf("stdout %q: %v", out, err)
			}
			if tc.peak > 0 && peak > tc.peak<<10 {
				t.Errorf("peak of %d MiB resident, want at most %d", peak>>10, tc.peak)
			}
		})
	}
}
