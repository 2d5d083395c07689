// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"
)

// SIGINT and SIGTERM end the command whenever they come, also when it was
// started with them ignored, as a shell without job control starts a
// command run with &: catchSignals catches them from the start. While the
// library trains, they cancel the context of its Fit or Learn, which
// returns soon after, and the command ends as the signal would have,
// having written no file, after a line that says so; otherwise they end
// it at once, as endBySignal says.

// beforeTraining, if not nil, is called as the library starts training,
// and caughtSignal as a signal is caught: tests send signals then, and
// time the stop.
var (
	beforeTraining func()
	caughtSignal   func(os.Signal)
)

// stopped is the error of training that a signal stopped.
type stopped struct{ sig os.Signal }

func (e stopped) Error() string { return fmt.Sprintf("%v: training stopped", e.sig) }

// training is a training that a signal stops: the cancellation of its
// context, and the signal, once one came.
type training struct {
	cancel context.CancelCauseFunc
	sig    os.Signal
}

// caught holds the trainings under way, which a signal stops, and the
// start of the catching.
var caught struct {
	sync.Mutex
	once      sync.Once
	trainings map[*training]bool
}

// catchSignals makes SIGINT and SIGTERM, from now on until the command
// ends, stop the trainings under way, or, if there are none, or if a
// signal stopped them already, end the command by endBySignal: a second
// signal does not wait for the first's stop. It may be called any number
// of times.
func catchSignals() {
	caught.once.Do(func() {
		c := make(chan os.Signal, 1)
		signal.Notify(c, syscall.SIGINT, syscall.SIGTERM)
		go func() {
			for sig := range c {
				if caughtSignal != nil {
					caughtSignal(sig)
				}
				caught.Lock()
				stopping := 0
				for t := range caught.trainings {
					if t.sig == nil {
						t.sig = sig
						t.cancel(stopped{sig})
						stopping++
					}
				}
				caught.Unlock()
				if stopping == 0 {
					endBySignal(sig)
				}
			}
		}()
	})
}

// catchTraining returns a context that SIGINT or SIGTERM cancels, with
// the cause stopped, for the training that it is to stop, or for the
// server that it is to stop gracefully, and the function that stops catching
// them for it once training has returned err: it returns the error of the
// signal that came, if one did, and err otherwise.
func catchTraining() (context.Context, func(err error) error) {
	catchSignals()
	ctx, cancel := context.WithCancelCause(context.Background())
	t := &training{cancel: cancel}
	caught.Lock()
	if caught.trainings == nil {
		caught.trainings = map[*training]bool{}
	}
	caught.trainings[t] = true
	caught.Unlock()
	if beforeTraining != nil {
		beforeTraining()
	}
	return ctx, func(err error) error {
		caught.Lock()
		delete(caught.trainings, t)
		sig := t.sig
		caught.Unlock()
		cancel(nil)
		if sig != nil {
			return stopped{sig}
		}
		return err
	}
}

// ignored are the signals that the command was started with ignored. Once
// caught, such a signal cannot be given back its default action, which
// would end the command: the command ends on it with the exit status of a
// process that a signal ended, as a shell gives it, 128 and its number.
var ignored = map[os.Signal]bool{
	syscall.SIGINT:  signal.Ignored(syscall.SIGINT),
	syscall.SIGTERM: signal.Ignored(syscall.SIGTERM),
}

// endBySignal removes the temporary files and ends the command as sig, a
// signal that it caught, would have ended it: by the signal's default
// action, or, if it was started with sig ignored, with exit status
// 128+sig.
func endBySignal(sig os.Signal) {
	temps.Lock() // held until the exit: no new temporary file
	for name := range temps.names {
		os.Remove(name)
	}
	n := sig.(syscall.Signal)
	signal.Reset(sig)
	if !ignored[sig] {
		raise(n)
		// The signal ends the process, which gets it at once; a process
		// that the system does not let it end, ends here.
		time.Sleep(time.Second)
	}
	os.Exit(128 + int(n))
}

// temps are the temporary files being written, which a signal that ends
// the command removes.
var temps struct {
	sync.Mutex
	names map[string]bool
}

// afterTemp, if not nil, is called once a temporary file is made: tests
// send signals then.
var afterTemp func(name string)

// keepTemp records name as a temporary file, or forgets it.
func keepTemp(name string, keep bool) {
	temps.Lock()
	defer temps.Unlock()
	if temps.names == nil {
		temps.names = map[string]bool{}
	}
	if keep {
		temps.names[name] = true
	} else {
		delete(temps.names, name)
	}
}
