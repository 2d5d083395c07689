// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Command ipm trains a perceptron or an averaged perceptron by iterative
// parameter mixing on Apache Beam, with package ipm: the shards are the
// LIBSVM files that a glob matches, one shard a file, in the order of
// their names, and the model is written as package perceptron saves it,
// which perceptron.Unmarshal loads.
//
// Usage:
//
//	ipm -shards 'data/part-*.svm' -output model.json [flags] [Beam's flags]
//
// Its flags:
//
//	-shards glob       the shards' files, local or on a file system of Beam's (gs://, s3://)
//	-output path       the model file, written when the training has succeeded, and only then
//	-model name        perceptron or averaged (default perceptron)
//	-epochs n          the most epochs, each a round of mixing; 0 means 1000
//	-mix how           uniform, or mistakes to weight each shard by its mistakes
//	-rate r            the learning rate; 0 means 1
//	-nobias            train through the origin
//	-cols n            the width of the rows; 0 finds it in the shards
//	-classes a,b,...   the classes; empty finds them in the shards
//	-work dir          where the models pass between epochs; empty is beside -output
//	-log_level level   Beam's logs: debug, info, warn or error (default warn)
//
// and Beam's, as --runner: prism (the default, in this process), direct,
// flink, spark, dataflow or universal, with the runner's own flags, as
// README.md says. -h lists ipm's flags, then Beam's.
//
// ipm writes a line to stderr after each epoch, with its mistakes and its
// time. On SIGINT or SIGTERM it stops the run, which removes its files,
// and exits with 130 or 143, leaving out Beam's logs of the stopped run;
// on a second signal, or if the run has not stopped within a minute, it
// exits at once and says where the files of the run are. SIGKILL leaves
// them: ipm names those of other runs as it starts. It runs Go's garbage
// collector at GOGC=50 unless GOGC is set.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	beamlog "github.com/apache/beam/sdks/v2/go/pkg/beam/log"
	// The file systems of s3:// paths; beamx registers gs:// and local ones.
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/s3"
	// Beam's runners, for --runner, and the file systems of local and gs:// paths.
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/x/beamx"

	"github.com/seed5ae3614e/perceptron"
	"github.com/seed5ae3614e/perceptron/beam/ipm"
)

var (
	shards   = flag.String("shards", "", "the shards' LIBSVM files, a glob: one shard a file, in the order of the names")
	output   = flag.String("output", "", "the file of the model, written only when the training succeeds")
	model    = flag.String("model", "perceptron", "the classifier: perceptron or averaged")
	epochs   = flag.Int("epochs", 0, "the most epochs, each a round of mixing; 0 means 1000")
	mix      = flag.String("mix", "uniform", "the mixing: uniform, or mistakes to weight each shard by its mistakes in the epoch")
	rate     = flag.Float64("rate", 0, "the learning rate; 0 means 1")
	noBias   = flag.Bool("nobias", false, "train through the origin")
	cols     = flag.Int("cols", 0, "the width of the rows; 0 finds it in the shards")
	classes  = flag.String("classes", "", "the classes, separated by commas; empty finds them in the shards")
	work     = flag.String("work", "", "the folder where the models pass between epochs, which the workers and this program reach; empty is beside -output")
	logLevel = flag.String("log_level", "warn", "the level of Beam's logs: debug, info, warn or error")
)

// own are the names of the flags of ipm, which -h shows before Beam's.
var own = []string{"shards", "output", "model", "epochs", "mix", "rate", "nobias", "cols", "classes", "work", "log_level"}

// usage writes the help of -h: ipm's flags, then Beam's.
func usage() {
	out := flag.CommandLine.Output()
	ours := flag.NewFlagSet("ipm", flag.ContinueOnError)
	beams := flag.NewFlagSet("beam", flag.ContinueOnError)
	flag.VisitAll(func(f *flag.Flag) {
		set := beams
		if slices.Contains(own, f.Name) {
			set = ours
		}
		set.Var(f.Value, f.Name, f.Usage)
		set.Lookup(f.Name).DefValue = f.DefValue
	})
	fmt.Fprintf(out, "Usage: ipm -shards 'data/part-*.svm' -output model.json [flags] [Beam's flags]\n\n")
	fmt.Fprintf(out, "ipm trains a perceptron or an averaged perceptron by iterative parameter mixing on Apache Beam.\n\nIts flags:\n")
	ours.SetOutput(out)
	ours.PrintDefaults()
	fmt.Fprintf(out, "\nBeam's flags, of which --runner picks the runner (README.md says which each runner needs):\n")
	beams.SetOutput(out)
	beams.PrintDefaults()
}

// grace is how long ipm waits, after SIGINT or SIGTERM, for the run to
// stop and remove its files.
const grace = time.Minute

// gcPercent is the garbage collector's GOGC for ipm, unless GOGC is set:
// ipm's memory is mostly a few large arrays of numbers, which a
// collection does not scan, so that collecting when the heap has grown by
// half, not when it has doubled, costs little time and keeps the process
// nearer the memory it holds. Less returns memory to the system so often
// that it costs more in faults of pages than it saves.
const gcPercent = 50

func main() {
	if _, set := os.LookupEnv("GOGC"); !set {
		debug.SetGCPercent(gcPercent)
	}
	flag.Usage = usage
	flag.Parse()
	beamlog.LogLevel = *logLevel
	// On a runner that starts this program as its worker, Init runs the
	// worker and does not return.
	beam.Init()
	// The steps that fail as a signal stops the run, and the runner's
	// report of the failed pipeline, are Beam's logs of the stop, some KB
	// of plans, which tell the user nothing that ipm's lines do not. Prism
	// gives each job a logger of the default handler as the job starts.
	logs := &stoppable{Handler: slog.Default().Handler(), stopped: new(atomic.Bool)}
	slog.SetDefault(slog.New(logs))
	ctx, cancel := context.WithCancel(context.Background())
	signals := make(chan os.Signal, 2)
	signal.Notify(signals, os.Interrupt, syscall.SIGTERM)
	var got os.Signal
	var mu sync.Mutex
	go func() {
		s := <-signals
		logs.stopped.Store(true)
		mu.Lock()
		got = s
		mu.Unlock()
		fmt.Fprintf(os.Stderr, "ipm: %v: stopping the run, which removes its files\n", s)
		cancel()
		select {
		case <-signals:
		case <-time.After(grace):
		}
		fmt.Fprintf(os.Stderr, "ipm: stopped before the run removed its files: they are %s\n", runFiles())
		os.Exit(exitCode(s))
	}()
	err := run(ctx)
	mu.Lock()
	s := got
	mu.Unlock()
	switch {
	case err == nil:
		// The run ended, and wrote the model, before the signal stopped it.
	case s != nil:
		fmt.Fprintf(os.Stderr, "ipm: %v: stopped", s)
		if strings.Contains(err.Error(), "could not remove") {
			fmt.Fprintf(os.Stderr, ": %v", err)
		}
		fmt.Fprintln(os.Stderr)
		os.Exit(exitCode(s))
	default:
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// stoppable is a handler of logs that writes nothing once stopped is set.
type stoppable struct {
	slog.Handler
	stopped *atomic.Bool
}

func (h *stoppable) Enabled(ctx context.Context, l slog.Level) bool {
	return !h.stopped.Load() && h.Handler.Enabled(ctx, l)
}

func (h *stoppable) Handle(ctx context.Context, r slog.Record) error {
	if h.stopped.Load() {
		return nil
	}
	return h.Handler.Handle(ctx, r)
}

func (h *stoppable) WithAttrs(attrs []slog.Attr) slog.Handler {
	return &stoppable{h.Handler.WithAttrs(attrs), h.stopped}
}

func (h *stoppable) WithGroup(name string) slog.Handler {
	return &stoppable{h.Handler.WithGroup(name), h.stopped}
}

// exitCode returns the status of a program that a signal stopped, as a
// shell gives it: 128 and the signal's number.
func exitCode(s os.Signal) int {
	if n, ok := s.(syscall.Signal); ok {
		return 128 + int(n)
	}
	return 1
}

// runFiles returns the pattern of the files of a run of the flags.
func runFiles() string {
	if *work != "" {
		return strings.TrimSuffix(*work, "/") + "/ipm-*"
	}
	return *output + ".ipm-*"
}

func run(ctx context.Context) error {
	c := ipm.Config{Epochs: *epochs, Rate: *rate, NoBias: *noBias, Cols: *cols, Output: *output, Work: *work}
	switch *model {
	case "perceptron":
	case "averaged":
		c.Averaged = true
	default:
		return fmt.Errorf("ipm: -model %q, want perceptron or averaged", *model)
	}
	switch *mix {
	case "uniform":
	case "mistakes":
		c.ByMistakes = true
	default:
		return fmt.Errorf("ipm: -mix %q, want uniform or mistakes", *mix)
	}
	if *classes != "" {
		c.Classes = strings.Split(*classes, ",")
	}
	switch {
	case *shards == "":
		return errors.New("ipm: no -shards")
	case *output == "":
		return errors.New("ipm: no -output")
	case flag.NArg() > 0:
		return fmt.Errorf("ipm: arguments %q after the flags: quote the glob of -shards", flag.Args())
	}
	files, err := ipm.Glob(ctx, *shards)
	if err != nil {
		return err
	}
	// A run that SIGKILL or a crash ended leaves its files, which ipm
	// cannot tell from those of a run that goes on, on another machine or
	// on a file system without locks: it names them.
	if left, err := ipm.Glob(ctx, runFiles()); err == nil {
		fmt.Fprintf(os.Stderr, "ipm: %s are %d files of runs that were killed or still run: remove them if no run of this -output or -work goes on\n", runFiles(), len(left))
	}
	c.Shards = files
	c.OnEpoch = func(e, mistakes int, took time.Duration) {
		fmt.Fprintf(os.Stderr, "ipm: epoch %d: %d mistakes, %v\n", e, mistakes, took.Round(time.Millisecond))
	}
	res, err := ipm.Run(ctx, c)
	if err != nil {
		return err
	}
	st := res.Model.(interface{ Stats() perceptron.Stats }).Stats()
	fmt.Printf("%s: %s of %d classes on %d columns, %d shards, %d epochs, converged %t, mistakes by epoch %v\n",
		c.Output, *model, len(res.Classes), res.Cols, len(files), st.Epochs, st.Converged, st.EpochMistakes)
	pairs := make([]string, len(res.Classes))
	for k, name := range res.Classes {
		pairs[k] = fmt.Sprintf("%s=%v", name, res.Labels[k])
	}
	fmt.Printf("classes, as the shards write them and as the model's: %s\n", strings.Join(pairs, " "))
	return nil
}
