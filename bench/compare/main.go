// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Command compare runs this library's classifiers and their peers,
// scikit-learn, Weka and LIBLINEAR as installed, on the same data on the
// same machine, and prints for each data set a table of fit times, the
// ratio of each peer's time to this library's, and training and test
// accuracy. It checks that the peers and this library agree where they
// must, and says loudly when they do not.
//
// Run it from the root of the module:
//
//	go run ./bench/compare
//
// The data are the three Fashion-MNIST class pairs of bench/sets
// (Debian's dataset-fashion-mnist), a synthetic dense set of 100,000
// training rows of 100 features (internal/synth), and a sparse set, libs
// against libdevel of the Debian sections data set (bench/sets), read
// from the directory that -sparse names; and three sets of more than two
// classes (multiclass.go): fashion-10, every class of Fashion-MNIST,
// debian-35, every class of the Debian sections with each row scaled to
// unit length, and onevsrest, a check. One more set, fashion10-kernel
// (kernel_fashion.go), which -sets must name as the default leaves it out,
// times the multiclass Kernel against scikit-learn's SVC, which takes
// minutes, on all ten Fashion-MNIST classes. Another, calibration
// (calibration.go), which -sets must name too, sets the probabilities of
// data's Calibration of Averaged's scores beside those of scikit-learn's
// CalibratedClassifierCV on the same scores, on the 35 Debian sections, the
// Debian text that -text names and all of Fashion-MNIST. Every system
// trains on the same rows, with the same float64 values, in the same
// order, but on the
// multiclass sets that shuffle them: the command writes them into a
// temporary directory for scikit-learn, as raw float64 or, for sparse
// sets, as the raw slices of a CSR matrix, for Weka, as ARFF, and for
// LIBLINEAR, as a LIBSVM file, and removes it at the end. Weka's
// VotedPerceptron shuffles its training set with a fixed seed; the ARFF
// rows are written in the order that this shuffle turns into theirs.
//
// Only fitting is timed: this library by the clock around Fit,
// scikit-learn by time.perf_counter around fit in the Python script that
// the command embeds (sklearn_fit.py), Weka by its own "Time taken to
// build model", and LIBLINEAR by the wall time of liblinear-train, which
// reads the data from a file. The models that scikit-learn's Perceptron
// and SGDClassifier are set against are fitted -repeat times on each side
// and the fastest fit counts; every other model is fitted once. Ratios
// are per epoch: each time is divided by the number of epochs that the
// model ran. Kernel, Pocket and OneVsRest split their work over
// GOMAXPROCS goroutines, where scikit-learn's models, Weka's
// VotedPerceptron and LIBLINEAR use one core, as Perceptron, Averaged and
// Voted do, shuffled or not; GOMAXPROCS=1 go run ./bench/compare
// measures this library on one core throughout.
//
// The checks: with the same order and settings, Perceptron's weights and
// bias equal scikit-learn's Perceptron coef_ and intercept_; Averaged's
// predictions equal those of scikit-learn's averaged SGDClassifier; and
// Voted and Kernel poly 3 voted, fitted from the visit of Weka's first
// mistake on, classify as many training and test rows right as Weka's
// VotedPerceptron -E 1 and -E 3. (Weka takes a score of zero on a +1 row
// for no mistake, and this library for a mistake, so the two part at the
// first visits.) After the check on Weka -E 3, Kernel poly 3 voted's test
// accuracy is set against Weka's, reproduced as the check does it, over
// -orders shuffled orders: Weka's own order is a single draw. See
// check.go for what each peer computes and why the tolerances are what
// they are. The command exits with status 1 if a check fails or a peer
// fails to run.
//
// A peer that is not installed is skipped with a message that says how to
// install it, and a data set that is missing with a message that says
// where it should be. The command takes about half an hour on two cores,
// most of it in Weka (its evaluation of the voted rule on the training
// rows takes longer than its fit), the peers' support vector machines and
// LIBLINEAR; -skip leaves peers out, -orders 0 the comparison over
// orders, and -sets libs-libdevel runs the sparse set alone, in seconds.
//
// The sparse set runs Perceptron and Averaged and their scikit-learn
// peers only, and checks no weights: scikit-learn steps the intercept
// differently on sparse rows (see check.go). It checks the targets of
// check.go instead, and says loudly when one is missed: scikit-learn's
// time per epoch against ours, our epoch against the floor, and the
// memory during Fit against the CSR's own, where the memory during Fit is
// the CSR and what Fit allocates, which bounds how much the live heap can
// grow during Fit.
//
// On fashion-10 and debian-35 this library's Averaged learns the classes
// together, the multiclass perceptron, where scikit-learn's averaged
// SGDClassifier learns each class against the rest; both visit the rows
// in a fresh random order every epoch, each with a seeded generator of its
// own, for the same number of epochs. debian-35 adds LIBLINEAR's
// liblinear-train (Debian's liblinear-tools), its default solver and
// Crammer and Singer's, for their accuracy and time. The command checks
// the targets of multiclass.go: Averaged's test accuracy, and its epoch
// against the floor; it reports scikit-learn's fit time against
// Averaged's, with no target. On onevsrest, the first
// 10,000 training images of Fashion-MNIST with pixels the integers of the
// files, so that every sum is exact, it checks that OneVsRest over
// Perceptron and scikit-learn's Perceptron, which learns more than two
// classes one against the rest, end with the same weights and make the
// same predictions, every one.
package main

import (
	"cmp"
	"context"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/seed5ae3614e/perceptron"
	benchsets "github.com/seed5ae3614e/perceptron/bench/sets"
	"github.com/seed5ae3614e/perceptron/internal/simd"
)

// entry is one of this library's classifiers in the comparison.
type entry struct {
	name string

	// epochs is the number of epochs it runs; zero means the -epochs flag.
	epochs int

	// repeat fits it -repeat times, as its scikit-learn counterpart is.
	repeat bool

	// quadratic marks a model whose cost grows with the square of the
	// rows; it does not run on the synthetic set.
	quadratic bool

	new func(epochs int) perceptron.Scorer
}

// entries are this library's classifiers, with the settings that match
// their peers'.
var entries = []entry{
	{name: "Perceptron", repeat: true, new: func(e int) perceptron.Scorer {
		return &perceptron.Perceptron{Epochs: e}
	}},
	{name: "Averaged", repeat: true, new: func(e int) perceptron.Scorer {
		return &perceptron.Averaged{Epochs: e}
	}},
	{name: "Pocket", new: func(e int) perceptron.Scorer {
		return &perceptron.Pocket{Epochs: e}
	}},
	// Voted predicts with one dot product per distinct row that was a
	// mistake, so predicting the training set costs in proportion to the
	// square of the rows.
	{name: "Voted", epochs: 1, quadratic: true, new: func(e int) perceptron.Scorer {
		return &perceptron.Voted{Epochs: e}
	}},
	// Weka's kernel (x·z+1)^3 has no bias besides the kernel's constant.
	{name: "Kernel poly 3 voted", epochs: 1, quadratic: true, new: func(e int) perceptron.Scorer {
		return &perceptron.Kernel{Func: wekaPoly3, NoBias: true, Prediction: perceptron.PredictVoted, Epochs: e}
	}},
	{name: "Kernel poly 3 averaged", epochs: 1, quadratic: true, new: func(e int) perceptron.Scorer {
		return &perceptron.Kernel{Func: wekaPoly3, NoBias: true, Prediction: perceptron.PredictAveraged, Epochs: e}
	}},
	// An RBF kernel whose accuracy comes near SVC's on the class pairs,
	// against which it is there.
	{name: "Kernel rbf averaged", epochs: 2, quadratic: true, new: func(e int) perceptron.Scorer {
		return &perceptron.Kernel{Func: perceptron.RBF{Gamma: 0.04}, Prediction: perceptron.PredictAveraged, Epochs: e}
	}},
}

// wekaPoly3 is the kernel of Weka's VotedPerceptron -E 3.
var wekaPoly3 = perceptron.Poly{Degree: 3, Gamma: 1, Coef0: 1}

// peer is a model of another library.
type peer struct {
	system string // scikit-learn or Weka
	name   string // as printed
	key    string // the script's name for it, or Weka's exponent -E

	// vs names the entry whose time its time is set against; empty for a
	// model that is there for its accuracy.
	vs string

	// epochs is the number of epochs it runs: zero means the -epochs
	// flag, and noEpochs a model that does not train in epochs.
	epochs int

	repeat    bool
	quadratic bool
	group     string // its name for -skip
}

const noEpochs = -1

var peers = []peer{
	{system: "scikit-learn", name: "Perceptron", key: "perceptron", vs: "Perceptron", repeat: true, group: "sklearn"},
	{system: "scikit-learn", name: "SGDClassifier averaged", key: "sgd-avg", vs: "Averaged", repeat: true, group: "sklearn"},
	{system: "scikit-learn", name: "LinearSVC", key: "linearsvc", epochs: noEpochs, group: "svc"},
	{system: "scikit-learn", name: "SVC rbf C=10", key: "svc-rbf", epochs: noEpochs, quadratic: true, group: "svc"},
	{system: "scikit-learn", name: "SVC poly 3 C=10", key: "svc-poly", epochs: noEpochs, quadratic: true, group: "svc"},
	{system: "Weka", name: "VotedPerceptron -E 1 -I 1", key: "1", vs: "Voted", epochs: 1, quadratic: true, group: "weka"},
	{system: "Weka", name: "VotedPerceptron -E 3 -I 1", key: "3", vs: "Kernel poly 3 voted", epochs: 1, quadratic: true, group: "weka"},
}

// settingsNote says what each model name in the tables stands for.
const settingsNote = `Models (E is -epochs; rows visited in order, from zero, rate 1, with a bias):
  this library   Perceptron{Epochs: E}, Averaged{Epochs: E}, Pocket{Epochs: E} (the exact pocket),
                 Voted{Epochs: 1}
                 Kernel poly 3: Kernel{Func: Poly{Degree: 3, Gamma: 1, Coef0: 1}, NoBias: true, Epochs: 1},
                     Prediction PredictVoted or PredictAveraged
                 Kernel rbf: Kernel{Func: RBF{Gamma: 0.04}, Epochs: 2, Prediction: PredictAveraged}
  scikit-learn   Perceptron(shuffle=False, tol=None, eta0=1, max_iter=E)
                 SGDClassifier averaged: SGDClassifier(loss='perceptron', learning_rate='constant', eta0=1,
                     penalty=None, alpha=0, average=True, shuffle=False, tol=None, max_iter=E)
                 LinearSVC(random_state=0); SVC(kernel='rbf', C=10); SVC(kernel='poly', degree=3, C=10)
  Weka           weka.classifiers.functions.VotedPerceptron -I 1 -E 1|3 -S 1 (kernel (x·z+1)^E, at most
                     10000 perceptrons); the ARFF rows are written so that its shuffle visits them in order
`

// row is one line of a table.
type row struct {
	system, model string
	epochs        int // epochs run, or noEpochs
	fit           time.Duration
	train, test   float64
	vs            string        // the entry this row's time is set against
	mem           fitMemory     // of the last fit, for this library's models
	predict       time.Duration // the fastest PredictRows of the test rows, for this library's models
}

func main() {
	var (
		epochs  = flag.Int("epochs", 10, "epochs `E` of the linear models on both sides")
		repeat  = flag.Int("repeat", 5, "fits of the models set against scikit-learn's Perceptron and SGDClassifier, on each side; the fastest counts")
		orders  = flag.Int("orders", 10, "shuffled orders in which to compare Kernel poly 3 voted's test accuracy under this library's rule and under Weka's")
		sets    = flag.String("sets", "tshirt-shirt,pullover-coat,sneaker-ankleboot,synthetic,libs-libdevel,fashion-10,debian-35,onevsrest", "comma-separated data sets; fashion10-kernel, which is slow, and calibration only when named")
		skip    = flag.String("skip", "", "comma-separated peers to leave out: sklearn, svc (LinearSVC and SVC), weka, liblinear")
		fdir    = flag.String("fashion", benchsets.FashionDir, "directory of the Fashion-MNIST files")
		sdir    = flag.String("sparse", benchsets.DebianDir, "directory of the Debian sections files, the sparse data set")
		tdir    = flag.String("text", "/tmp/debian-text", "directory of the Debian text, train.txt and test.txt, as go run ./bench/text -build writes it, for -sets calibration")
		python  = flag.String("python", "/usr/bin/python3", "Python with scikit-learn")
		wekaJar = flag.String("weka", "/usr/share/java/weka.jar", "Weka's jar")
		keep    = flag.Bool("keep", false, "keep the temporary directory of data files")
		profile = flag.String("cpuprofile", "", "write a CPU profile of the command to `file`; this library's fits carry the label fit=SET/MODEL, for go tool pprof -tagfocus")
	)
	flag.Parse()
	if *epochs < 1 || *repeat < 1 || *orders < 0 {
		fmt.Fprintln(os.Stderr, "compare: -epochs and -repeat must be at least 1, and -orders at least 0")
		os.Exit(2)
	}
	// Exit last, after the deferred calls that stop the profile and
	// remove the data files.
	code := 0
	defer func() { os.Exit(code) }()
	if *profile != "" {
		f, err := os.Create(*profile)
		if err == nil {
			err = pprof.StartCPUProfile(f)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "compare:", err)
			os.Exit(2)
		}
		defer pprof.StopCPUProfile()
	}
	skipped := strings.Split(*skip, ",")

	tmp, err := os.MkdirTemp("", "perceptron-compare-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "compare:", err)
		os.Exit(2)
	}
	if *keep {
		fmt.Printf("data files in %s\n", tmp)
	} else {
		defer os.RemoveAll(tmp)
	}

	machine()
	fmt.Printf("command: go run ./bench/compare %s\n", strings.Join(os.Args[1:], " "))
	fmt.Printf("Weka:    %s\n\n", wekaVersion(*wekaJar))
	fmt.Print(settingsNote + "\n")

	failed := 0
	for _, name := range strings.Split(*sets, ",") {
		if name == kernelFashionSet {
			failed += kernelFashion(*fdir, *python, tmp, *keep)
			continue
		}
		if name == calibrationSet {
			failed += calibration([]string{"debian-35", "debian-text", "fashion-10"}, *fdir, *sdir, *tdir, *python, tmp, *keep)
			continue
		}
		ds, install, err := load(name, *fdir, *sdir)
		if err != nil {
			if install != "" {
				err = fmt.Errorf("%v (%s)", err, install)
			}
			fmt.Printf("== %s: skipped: %v\n\n", name, err)
			continue
		}
		dir := filepath.Join(tmp, name)
		if err := os.Mkdir(dir, 0o755); err != nil {
			fmt.Fprintln(os.Stderr, "compare:", err)
			os.Exit(2)
		}
		r := &run{
			ds: ds, dir: dir, epochs: *epochs, repeat: *repeat, orders: *orders,
			python: *python, wekaJar: *wekaJar, skip: skipped,
			fitted: map[string]perceptron.Scorer{},
		}
		failed += r.all()
		if !*keep {
			os.RemoveAll(dir)
		}
	}
	if failed > 0 {
		fmt.Printf("!!! %d check(s), target(s) or peer run(s) FAILED: see the lines marked !!! above\n", failed)
		code = 1
	}
}

// load returns the data set called name, with Fashion-MNIST read from
// fdir and the Debian sections from sdir, or an error and how to install
// the data.
func load(name, fdir, sdir string) (ds *dataSet, install string, err error) {
	const (
		fashion = "install the data with: apt-get install dataset-fashion-mnist"
		debian  = "the data set is in ../shared/data beside the module; -sparse names its directory"
	)
	switch _, pair := debianPairs[name]; {
	case name == "synthetic":
		return loadSynthetic(), "", nil
	case pair:
		ds, err = loadDebian(sdir, name)
		return ds, debian, err
	case name == "debian-35":
		ds, err = loadDebianClasses(sdir)
		return ds, debian, err
	case name == "fashion-10":
		ds, err = loadFashionClasses(fdir)
		return ds, fashion, err
	case name == "onevsrest":
		ds, err = loadOneVsRest(fdir)
		return ds, fashion, err
	}
	for _, p := range benchsets.FashionPairs {
		if p.Name == name {
			ds, err = loadFashion(fdir, name)
			return ds, fashion, err
		}
	}
	return nil, "", fmt.Errorf("no data set called %q", name)
}

// run is the comparison on one data set.
type run struct {
	ds              *dataSet
	dir             string
	epochs, repeat  int
	orders          int
	python, wekaJar string
	skip            []string

	rows       []row
	notes      []string
	checkLines []string
	fitted     map[string]perceptron.Scorer // our classifiers by entry name
	floor      time.Duration
	stream     time.Duration // the stream floor of dense training rows, or 0
	testStream time.Duration // and of dense test rows
	sklearnRan bool
	wekaRuns   []wekaRun
	failed     int
}

// wekaRun is a run of Weka's VotedPerceptron.
type wekaRun struct {
	peer
	fit *wekaFit
}

// all runs every system on the data set, prints the table and the checks,
// and returns the number of failures.
func (r *run) all() int {
	ds := r.ds
	n, d := ds.train.Dims()
	nt, _ := ds.test.Dims()
	fmt.Printf("== %s: %d training rows, %d test rows, %d features\n   %s\n", ds.name, n, nt, d, ds.about)
	S := scoresOf(ds.ytrain)
	r.floor = floor(ds.train, S, r.repeat, r.epochs)
	if S == 1 {
		fmt.Printf("   floor: one pass of dot products over the training rows takes %.2f ms\n", ms(r.floor))
	} else {
		fmt.Printf("   floor: one pass of the %d scores of every training row, in a bare loop, takes %.2f ms\n", S, ms(r.floor))
	}
	r.stream = streamFloor(ds.train, r.repeat, r.epochs)
	r.testStream = streamFloor(ds.test, r.repeat, r.epochs)
	if r.stream > 0 {
		fmt.Printf("   stream floor: one pass that reads every training row once and computes next to nothing takes %.2f ms; of the test rows %.2f ms\n", ms(r.stream), ms(r.testStream))
	}

	for _, e := range r.entries() {
		if e.quadratic && ds.linearOnly || !e.repeat && ds.timedOnly {
			continue
		}
		progress("%s: this library's %s", ds.name, e.name)
		if err := r.ours(e); err != nil {
			r.fail("this library: %s: %v", e.name, err)
		}
	}
	r.sklearn()
	r.weka()
	r.liblinear()
	r.table()
	progress("%s: checks", ds.name)
	r.checks()
	for _, s := range r.checkLines {
		fmt.Println("   " + s)
	}
	fmt.Println()
	return r.failed
}

// progress tells the user, on stderr, what the command is busy with.
func progress(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "compare: "+format+"\n", args...)
}

func (r *run) fail(format string, args ...any) {
	r.notes = append(r.notes, "!!! "+fmt.Sprintf(format, args...))
	r.failed++
}

func (r *run) note(format string, args ...any) {
	r.notes = append(r.notes, fmt.Sprintf(format, args...))
}

// entries returns this library's models that run on this data set.
func (r *run) entries() []entry {
	if r.ds.entries != nil {
		return r.ds.entries
	}
	return entries
}

// active returns the peers of system that run on this data set, leaving
// out those that -skip names.
func (r *run) active(system string) []peer {
	all := peers
	if r.ds.peers != nil {
		all = r.ds.peers
	}
	var ps []peer
	for _, p := range all {
		switch {
		case p.system != system:
		case p.quadratic && r.ds.linearOnly:
		case !p.repeat && r.ds.timedOnly:
		case slices.Contains(r.skip, p.group):
		default:
			ps = append(ps, p)
		}
	}
	return ps
}

// reps returns the number of fits of a model: -repeat if repeat is set,
// and 1 otherwise.
func (r *run) reps(repeat bool) int {
	if repeat {
		return r.repeat
	}
	return 1
}

// fitMemory bounds the heap's high-water mark during a Fit: whatever Fit
// frees on the way, the live heap can grow by no more than the bytes that
// Fit allocates, the difference of the heap's TotalAlloc before and after
// it.
type fitMemory struct {
	live      uint64 // the live heap before Fit, after a collection
	allocated uint64 // the bytes that Fit allocated
}

// ours fits the classifier of e, times it, scores it, and measures the
// memory of its last fit.
func (r *run) ours(e entry) error {
	epochs, reps := cmp.Or(e.epochs, r.epochs), r.reps(e.repeat)
	var (
		c             perceptron.Scorer
		best          time.Duration
		before, after runtime.MemStats
	)
	for k := range reps {
		c = e.new(epochs)
		runtime.GC()
		runtime.ReadMemStats(&before)
		start := time.Now()
		var err error
		pprof.Do(context.Background(), pprof.Labels("fit", r.ds.name+"/"+e.name), func(context.Context) {
			err = c.Fit(r.ds.train, r.ds.ytrain)
		})
		t := time.Since(start)
		runtime.ReadMemStats(&after)
		if err != nil {
			return err
		}
		if k == 0 || t < best {
			best = t
		}
	}
	mem := fitMemory{live: before.HeapAlloc, allocated: after.TotalAlloc - before.TotalAlloc}
	ran := epochs
	if s, ok := c.(interface{ Stats() perceptron.Stats }); ok {
		ran = s.Stats().Epochs
	}
	r.fitted[e.name] = c
	var predict time.Duration
	for k := range reps {
		start := time.Now()
		c.PredictRows(nil, r.ds.test)
		if t := time.Since(start); k == 0 || t < predict {
			predict = t
		}
	}
	r.rows = append(r.rows, row{
		system: "this library", model: e.name, epochs: ran, fit: best, mem: mem,
		train:   accuracy(c.PredictRows(nil, r.ds.train), r.ds.ytrain),
		test:    accuracy(c.PredictRows(nil, r.ds.test), r.ds.ytest),
		predict: predict,
	})
	return nil
}

// sklearn runs scikit-learn's models, and the extra fits that the checks
// need.
func (r *run) sklearn() {
	ps := r.active("scikit-learn")
	if len(ps) == 0 {
		return
	}
	var fits []string
	for _, p := range ps {
		fits = append(fits, fmt.Sprintf("%s:%d:%d", p.key, max(cmp.Or(p.epochs, r.epochs), 0), r.reps(p.repeat)))
	}
	progress("%s: scikit-learn: %s", r.ds.name, strings.Join(fits, " "))
	if err := sklearnFiles(r.dir, r.ds); err != nil {
		r.fail("scikit-learn: writing the data: %v", err)
		return
	}
	res, versions, err := runSklearn(r.python, r.dir, r.ds, fits)
	if err != nil {
		if _, ok := err.(errMissing); ok {
			r.note("%v", err)
		} else {
			r.fail("%v", err)
		}
		return
	}
	r.sklearnRan = true
	r.note("scikit-learn %s, numpy %s", versions["scikit-learn"], versions["numpy"])
	if r.ds.sparse() {
		r.note("scikit-learn fits on a scipy %s csr_matrix of the same rows, float64 values and int32 indices", versions["scipy"])
	}
	for i, p := range ps {
		f := res[i]
		ran := f.NIter
		if p.epochs == noEpochs {
			ran = noEpochs
		}
		r.rows = append(r.rows, row{
			system: p.system, model: p.name, epochs: ran, fit: f.fastest(),
			train: f.Train, test: f.Test, vs: p.vs,
		})
		for _, w := range f.Warnings {
			r.note("scikit-learn %s warned: %s", p.name, w)
		}
	}
}

// weka runs Weka's VotedPerceptron.
func (r *run) weka() {
	ps := r.active("Weka")
	if len(ps) == 0 {
		return
	}
	train, test := filepath.Join(r.dir, "train.arff"), filepath.Join(r.dir, "test.arff")
	Xtr, Xte := r.ds.dense()
	n, _ := Xtr.Dims()
	order := wekaOrder(n, wekaSeed)
	err := create(train, func(w io.Writer) error { return writeARFF(w, r.ds.name+"-train", Xtr, r.ds.ytrain, order) })
	if err == nil {
		err = create(test, func(w io.Writer) error { return writeARFF(w, r.ds.name+"-test", Xte, r.ds.ytest, nil) })
	}
	if err != nil {
		r.fail("Weka: writing the data: %v", err)
		return
	}
	for _, p := range ps {
		e, _ := strconv.Atoi(p.key)
		progress("%s: Weka %s", r.ds.name, p.name)
		f, err := runWeka(r.wekaJar, train, test, e)
		if err != nil {
			if _, ok := err.(errMissing); ok {
				r.note("%v", err)
				return
			}
			r.fail("%v", err)
			continue
		}
		r.rows = append(r.rows, row{
			system: p.system, model: p.name, epochs: p.epochs, fit: f.build,
			train: f.train.accuracy(), test: f.test.accuracy(), vs: p.vs,
		})
		r.wekaRuns = append(r.wekaRuns, wekaRun{p, f})
	}
}

// library returns the row of our classifier called name, and whether it
// ran.
func (r *run) library(name string) (row, bool) {
	for _, w := range r.rows {
		if w.system == "this library" && w.model == name {
			return w, true
		}
	}
	return row{}, false
}

// table prints the rows, each of our classifiers followed by the peers
// set against it, then the notes.
func (r *run) table() {
	tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "system\tmodel\tepochs\tfit s\tms/epoch\tpeer/ours per epoch\ttrain %\ttest %\t")
	line := func(w row, ratio string) {
		ep, per := "-", "-"
		if w.epochs > 0 {
			ep = strconv.Itoa(w.epochs)
			per = strconv.FormatFloat(ms(w.fit)/float64(w.epochs), 'f', decimals(ms(w.fit)/float64(w.epochs)), 64)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%.3f\t%s\t%s\t%.2f\t%.2f\t\n",
			w.system, w.model, ep, w.fit.Seconds(), per, ratio, 100*w.train, 100*w.test)
	}
	done := make([]bool, len(r.rows))
	for i, o := range r.rows {
		if o.system != "this library" {
			continue
		}
		line(o, "")
		done[i] = true
		for j, p := range r.rows {
			if p.vs == o.model {
				ratio := perEpoch(p) / perEpoch(o)
				line(p, strconv.FormatFloat(ratio, 'f', decimals(ratio), 64)+"x")
				done[j] = true
			}
		}
	}
	for j, p := range r.rows {
		if !done[j] {
			line(p, "")
		}
	}
	tw.Flush()
	for _, s := range r.notes {
		fmt.Println("   " + s)
	}
}

// perEpoch returns the fit time of w per epoch, in seconds.
func perEpoch(w row) float64 {
	return w.fit.Seconds() / float64(max(w.epochs, 1))
}

// decimals returns the number of decimals to print v with, a time in
// milliseconds or a ratio: two below 10, so that a ratio of 2.99 does not
// read as 3.0, one below 100, none above.
func decimals(v float64) int {
	switch {
	case v >= 100:
		return 0
	case v >= 10:
		return 1
	}
	return 2
}

func ms(t time.Duration) float64 { return t.Seconds() * 1000 }

// accuracy returns the fraction of pred that equals y.
func accuracy(pred, y []float64) float64 {
	right := 0
	for i, v := range pred {
		if v == y[i] {
			right++
		}
	}
	return float64(right) / float64(len(y))
}

// streamFloor returns the time of one pass that reads every row of X, a
// *mat.Dense, once, computing next to nothing (simd.Stream, as
// BenchmarkFloorStream measures it): the least time any pass over the rows
// can take. It times repeat runs of passes passes and returns the fastest
// run's time per pass, as floor does, and 0 for rows that are not dense.
func streamFloor(X mat.Matrix, repeat, passes int) time.Duration {
	D, ok := X.(*mat.Dense)
	if !ok {
		return 0
	}
	n, _ := D.Dims()
	best := time.Duration(math.MaxInt64)
	var sum uint64
	for range repeat {
		runtime.GC()
		start := time.Now()
		for range passes {
			for i := range n {
				sum ^= simd.Stream(D.RawRowView(i))
			}
		}
		best = min(best, time.Since(start)/time.Duration(passes))
	}
	runtime.KeepAlive(sum)
	return best
}

// floor returns the time of one pass that computes the S scores of every
// row of X, a *mat.Dense or a *perceptron.CSR, under fixed dense weights,
// in bare loops: the arithmetic that every epoch does, the reference for
// the time of an epoch. For one score it takes the dot product
// of each row with a vector, as BenchmarkFloor and, for sparse rows,
// BenchmarkFloorSparse measure it; for more, on dense rows, the dot
// products with S vectors, one after the other, as
// BenchmarkFloorMulticlass does, and on sparse rows, for each non-zero
// x_j, adds x_j times the S weights of feature j, side by side as the
// library lays them, to the scores, as BenchmarkFloorMulticlassSparse
// does. It times repeat runs of passes passes and returns the fastest
// run's time per pass, so that the floor, timed as the Fits are, meets
// the machine's other work as often as they do.
func floor(X mat.Matrix, S, repeat, passes int) time.Duration {
	n, d := X.Dims()
	v := make([]float64, d*S)
	for j := range v {
		v[j] = float64(j%7) - 3
	}
	s := make([]float64, S)
	// The slices of sparse rows, copied once, outside the timed passes,
	// which read them as the library reads its own.
	var ptr, ind []int
	var val []float64
	if m, ok := X.(*perceptron.CSR); ok {
		ptr, ind, val = csrSlices(m)
	}
	pass := func() float64 {
		var sum float64
		switch X := X.(type) {
		case *mat.Dense:
			for i := range n {
				x := X.RawRowView(i)
				for c := range S {
					sum += floats.Dot(x, v[c*d:(c+1)*d])
				}
			}
		case *perceptron.CSR:
			if S == 1 {
				for i := range n {
					rind, rval := ind[ptr[i]:ptr[i+1]], val[ptr[i]:ptr[i+1]]
					var s float64
					for k, j := range rind {
						s += rval[k] * v[j]
					}
					sum += s
				}
				break
			}
			for i := range n {
				clear(s)
				rind, rval := ind[ptr[i]:ptr[i+1]], val[ptr[i]:ptr[i+1]]
				for k, j := range rind {
					x, w := rval[k], v[j*S:j*S+S]
					for c := range s {
						s[c] += x * w[c]
					}
				}
				sum += s[i%S]
			}
		default:
			panic(fmt.Sprintf("compare: floor of a %T", X))
		}
		return sum
	}
	best := time.Duration(math.MaxInt64)
	var sum float64
	for range repeat {
		// Collect the garbage of loading the data first, so that the
		// collector does not run during the passes, as it does not
		// during the timed Fits.
		runtime.GC()
		start := time.Now()
		for range passes {
			sum += pass()
		}
		best = min(best, time.Since(start)/time.Duration(passes))
	}
	runtime.KeepAlive(sum)
	return best
}

// machine prints what the figures were measured on.
func machine() {
	cpu := "?"
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, l := range strings.Split(string(b), "\n") {
			if k, v, ok := strings.Cut(l, ":"); ok && strings.TrimSpace(k) == "model name" {
				cpu = strings.TrimSpace(v)
				break
			}
		}
	}
	load := "?"
	if b, err := os.ReadFile("/proc/loadavg"); err == nil {
		load = strings.Join(strings.Fields(string(b))[:3], " ")
	}
	java := "not found"
	if out, err := exec.Command("java", "-version").CombinedOutput(); err == nil {
		java, _, _ = strings.Cut(string(out), "\n")
	}
	fmt.Printf("date:    %s\n", time.Now().UTC().Format("2006-01-02 15:04 UTC"))
	fmt.Printf("machine: %d cores (runtime.NumCPU), %s, %s/%s, load average %s at the start\n",
		runtime.NumCPU(), cpu, runtime.GOOS, runtime.GOARCH, load)
	fmt.Printf("Go:      %s, GOMAXPROCS=%d\n", runtime.Version(), runtime.GOMAXPROCS(0))
	fmt.Printf("Java:    %s\n", java)
}
