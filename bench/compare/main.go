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
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime/pprof"
	"slices"
	"strings"
	"time"

	"github.com/seed5ae3614e/perceptron"
	benchsets "github.com/seed5ae3614e/perceptron/bench/sets"
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
