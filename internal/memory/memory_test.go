// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package memory

import (
	"errors"
	"runtime/debug"
	"testing"
)

func TestGoLimit(t *testing.T) {
	old := debug.SetMemoryLimit(-1)
	defer debug.SetMemoryLimit(old)
	debug.SetMemoryLimit(goMemoryNow() + 64<<20)
	room, limit := Room()
	if limit != goLimit || room > 64<<20 || room < 32<<20 {
		t.Fatalf("Room() = %v, %q under a limit 64 MiB above the memory in use", room, limit)
	}
	if err := Check(1 << 20); err != nil {
		t.Errorf("Check(1 MiB) = %v", err)
	}
	err := Check(1 << 30)
	var e *Error
	if !errors.As(err, &e) || e.Need != 1<<30 || e.Limit != goLimit {
		t.Fatalf("Check(1 GiB) = %v, want an *Error of Go's limit", err)
	}
}

func goMemoryNow() int64 {
	// What Go holds free is returned first, as it would be once a limit set
	// near it is reached, leaving more room than the limit means.
	debug.FreeOSMemory()
	return int64(goMemory())
}

func TestBytes(t *testing.T) {
	for _, c := range []struct {
		b    float64
		want string
	}{
		{0, "0 B"}, {1023, "1023 B"}, {1024, "1.0 KiB"}, {1536, "1.5 KiB"},
		{1 << 40, "1.0 TiB"}, {1 << 62, "4.0 EiB"}, {1 << 72, "4096.0 EiB"},
	} {
		if got := Bytes(c.b); got != c.want {
			t.Errorf("Bytes(%v) = %q, want %q", c.b, got, c.want)
		}
	}
}
