// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package limit

import (
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/seed5ae3614e/perceptron/internal/memory"
)

// TestMain runs, as the child of TestRoom, the check of a size against
// the budget that the limit leaves, and as the child of TestCPULimit, a
// loop without end.
func TestMain(m *testing.M) {
	if os.Getenv("LIMIT_TEST_CHILD") == "spin" {
		for x := uint64(1); ; x = x*6364136223846793005 + 1 {
		}
	}
	if os.Getenv("LIMIT_TEST_CHILD") == "1" {
		err := memory.Check(1 << 40)
		var e *memory.Error
		if !errors.As(err, &e) || e.Room > 3<<30 {
			os.Stderr.WriteString("memory.Check(1 TiB) under ulimit -v: " + errString(err) + "\n")
			os.Exit(3)
		}
		// A slice of 2 GiB is more than the limit leaves: Go's allocator
		// ends the program, as the budget exists to prevent.
		_ = make([]byte, 2<<30)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func errString(err error) string {
	if err == nil {
		return "nil"
	}
	return err.Error()
}

func TestRoom(t *testing.T) {
	if !Supported() {
		t.Skip("no RLIMIT_AS here")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	r, err := Run(30*time.Second, 3000000, nil, []string{"LIMIT_TEST_CHILD=1"}, exe)
	if err != nil {
		t.Fatal(err)
	}
	if r.Code != 2 || !r.Fatal() {
		t.Fatalf("exit %d, stderr %.300q: want the budget to hold and the 2 GiB slice to be fatal", r.Code, r.Stderr)
	}
}

// TestCPULimit checks that Run ends a program at its limit of CPU time,
// however long a loaded machine makes it wait, and says so.
func TestCPULimit(t *testing.T) {
	if !Supported() {
		t.Skip("no RLIMIT_AS here")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	r, err := Run(time.Second, 3000000, nil, []string{"LIMIT_TEST_CHILD=spin"}, exe)
	if want := " did not end within 1s of CPU time"; err == nil || !strings.HasSuffix(err.Error(), want) || r.Code != -1 {
		t.Fatalf("a program that spins: exit %d after %v of CPU time, %v of wall time, error %v; want one that ends with %q", r.Code, r.CPU, r.Elapsed, err, want)
	}
}
