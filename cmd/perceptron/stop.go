// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"
)

// Training stops on SIGINT or SIGTERM: while a data.Model trains, the
// signals cancel the context of its FitContext or LearnContext, which
// returns soon after, and the command ends as the signal would have,
// having written no file, after a line that says so. Before and after,
// they end the command at once, as they do by default, or as
// catchSignals says while it writes files.

// beforeTraining, if not nil, is called as the Model starts training:
// tests send signals then.
var beforeTraining func()

// stopped is the error of training that a signal stopped.
type stopped struct{ sig os.Signal }

func (e stopped) Error() string { return fmt.Sprintf("%v: training stopped", e.sig) }

// catchTraining returns a context that SIGINT or SIGTERM cancels, for
// the training that it is to stop, and the function that stops catching
// them once training has returned err: it returns the error of the
// signal that came, if one did, and err otherwise.
func catchTraining() (context.Context, func(err error) error) {
	c := make(chan os.Signal, 1)
	signal.Notify(c, syscall.SIGINT, syscall.SIGTERM)
	ctx, cancel := context.WithCancel(context.Background())
	got := make(chan os.Signal, 1)
	go func() {
		sig, ok := <-c
		if ok {
			cancel()
		}
		got <- sig
	}()
	if beforeTraining != nil {
		beforeTraining()
	}
	return ctx, func(err error) error {
		signal.Stop(c) // c receives no more
		close(c)
		cancel()
		if sig := <-got; sig != nil {
			return stopped{sig}
		}
		return err
	}
}
