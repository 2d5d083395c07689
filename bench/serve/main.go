// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Command serve is the load test of perceptron serve: wrk (Debian's
// package) sends it requests to predict on the loopback, from 1, 16 and
// 64 connections, of one row and of 100 rows, on the Debian sections as
// raw text (the averaged perceptron of the command's defaults, trained on
// /tmp/debian-text, which `go run ./bench/text -build` builds) and on
// Fashion-MNIST (the same, on its 60,000 training images), without and
// with a learner beside them that sends 100 requests to learn a second,
// each of one labelled row. It prints a table of the requests and rows a
// second and the latencies that wrk measures, and the server's own
// figures from its /metrics. See bench/README.md for the figures.
//
//	apt-get install -y wrk dataset-fashion-mnist
//	go run ./bench/text -build            # writes /tmp/debian-text
//	go run ./bench/serve -build           # trains the two models into -dir
//	go run ./bench/serve                  # the load test, some minutes
//	go run ./bench/serve -d 30s -models debian -conns 64 -rows 1
//
// wrk and the server share the machine's cores: the figures are those of
// the whole machine, client and server. wrk runs one thread (-t), which
// drives all its connections, so that it takes one core at most and
// leaves the server the other and a share of its own; with as many
// threads as cores it takes more of the server's time. Each wrk run sends, in turn, a
// body of a set of rows of the test files (1000 of one row, 40 of 100
// rows), as text lines for the Debian model and CSV lines for
// Fashion-MNIST, the model's own formats. The server runs with -learn and
// -save in a temporary directory, with checkpoints every -save-every,
// longer than a run by default: a checkpoint holds the model while it is
// written, which the figures of the README give apart.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"log"
	"math/rand/v2"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/seed5ae3614e/perceptron/data"
)

func main() {
	dir := flag.String("dir", "/tmp/perceptron-serve", "the directory of the models and the scripts of wrk")
	text := flag.String("text", "/tmp/debian-text", "the directory of the Debian text set")
	fashion := flag.String("fashion", "/usr/share/datasets/fashion-mnist", "the directory of Fashion-MNIST")
	doBuild := flag.Bool("build", false, "train the two models into -dir, and stop")
	dur := flag.Duration("d", 10*time.Second, "the time of each wrk run")
	models := flag.String("models", "debian,fashion", "the models to load, of debian and fashion")
	conns := flag.String("conns", "1,16,64", "the connections of wrk")
	threads := flag.Int("t", 1, "the threads of wrk")
	rows := flag.String("rows", "1,100", "the rows of a request")
	learners := flag.String("learn", "off,on", "without the learner, with it, or both")
	every := flag.Duration("save-every", time.Hour, "the server's -save-every")
	cmdPath := flag.String("cmd", "", "the command perceptron (default: built from this workspace into -dir)")
	flag.Parse()
	log.SetFlags(0)
	if err := os.MkdirAll(*dir, 0o755); err != nil {
		log.Fatal(err)
	}
	cmd := *cmdPath
	if cmd == "" {
		cmd = filepath.Join(*dir, "perceptron")
		out, err := exec.Command("go", "build", "-o", cmd, "github.com/seed5ae3614e/perceptron/cmd/perceptron").CombinedOutput()
		if err != nil {
			log.Fatalf("building the command: %v\n%s", err, out)
		}
	}
	sets := []set{
		{name: "debian", model: filepath.Join(*dir, "debian.model"), train: filepath.Join(*text, "train.txt"), test: filepath.Join(*text, "test.txt")},
		{name: "fashion", model: filepath.Join(*dir, "fashion.model"), train: filepath.Join(*fashion, "train-images-idx3-ubyte.gz"), test: filepath.Join(*fashion, "t10k-images-idx3-ubyte.gz")},
	}
	if *doBuild {
		for _, s := range sets {
			if err := s.build(cmd); err != nil {
				log.Fatal(err)
			}
		}
		return
	}
	if _, err := exec.LookPath("wrk"); err != nil {
		log.Fatal("no wrk: apt-get install -y wrk")
	}
	fmt.Printf("%s, %d cores, GOMAXPROCS of the server: the machine's; wrk -t min(%d, connections) -d %v --latency\n\n", time.Now().UTC().Format("2006-01-02 15:04 MST"), runtime.NumCPU(), *threads, *dur)
	fmt.Println("| model | learner | conns | rows/request | requests/s | rows/s | p50 ms | p90 ms | p99 ms | max ms | errors | load before |")
	fmt.Println("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
	for _, s := range sets {
		if !strings.Contains(*models, s.name) {
			continue
		}
		if err := s.load(cmd, *dir, *dur, *every, *threads, ints(*conns), ints(*rows), strings.Split(*learners, ",")); err != nil {
			log.Fatal(err)
		}
	}
}

// ints returns the numbers of a list apart by commas.
func ints(s string) []int {
	var v []int
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil {
			log.Fatalf("%q: not a list of numbers", s)
		}
		v = append(v, n)
	}
	return v
}

// set is a data set and its model.
type set struct {
	name, model, train, test string
}

// build trains the model of s with the command cmd, with its defaults,
// and what learning on it needs (-resumable).
func (s set) build(cmd string) error {
	fmt.Printf("training %s on %s\n", s.model, s.train)
	c := exec.Command(cmd, "train", "-resumable", "-o", s.model, s.train)
	c.Stdout, c.Stderr = os.Stdout, os.Stderr
	return c.Run()
}

// lines returns the rows of the test file of s, as the bodies of requests
// to predict and to learn take them: lines of text, without and with
// their labels, or lines of CSV, the pixels and the pixels and the label.
func (s set) lines() (predict, learn []string, err error) {
	if s.name == "debian" {
		b, err := os.ReadFile(s.test)
		if err != nil {
			return nil, nil, err
		}
		for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
			learn = append(learn, l)
			var words []string
			for _, w := range strings.Fields(l) {
				if !strings.HasPrefix(w, "__label__") {
					words = append(words, w)
				}
			}
			predict = append(predict, strings.Join(words, " "))
		}
		return predict, learn, nil
	}
	set, err := data.IDX{}.ReadFile(s.test, "")
	if err != nil {
		return nil, nil, err
	}
	n, d := set.X.Dims()
	for i := range n {
		var b strings.Builder
		for j := range d {
			if j > 0 {
				b.WriteByte(',')
			}
			b.WriteString(strconv.FormatFloat(set.X.At(i, j), 'g', -1, 64))
		}
		predict = append(predict, b.String())
		learn = append(learn, b.String()+","+set.Classes[int(set.Y[i])])
	}
	return predict, learn, nil
}

// load serves the model of s and runs wrk against it.
func (s set) load(cmd, dir string, dur, every time.Duration, threads int, conns, rows []int, learners []string) error {
	predict, learn, err := s.lines()
	if err != nil {
		return err
	}
	scripts := map[int]string{}
	for _, r := range rows {
		scripts[r] = filepath.Join(dir, fmt.Sprintf("%s-%d.lua", s.name, r))
		if err := writeScript(scripts[r], predict, r, s.name == "fashion"); err != nil {
			return err
		}
	}
	tmp, err := os.MkdirTemp(dir, "save")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	const addr = "127.0.0.1:18088"
	srv := exec.Command(cmd, "serve", "-model", s.model, "-addr", addr, "-learn", "-save", filepath.Join(tmp, "m.model"), "-save-every", every.String(), "-q")
	srv.Stderr = os.Stderr
	start := time.Now()
	if err := srv.Start(); err != nil {
		return err
	}
	defer func() {
		srv.Process.Signal(syscall.SIGTERM)
		srv.Wait()
	}()
	url := "http://" + addr
	for {
		resp, err := http.Get(url + "/healthz")
		if err == nil {
			resp.Body.Close()
			break
		}
		if time.Since(start) > 5*time.Minute {
			return fmt.Errorf("the server of %s did not answer in 5 minutes: %v", s.model, err)
		}
		time.Sleep(200 * time.Millisecond)
	}
	fmt.Fprintf(os.Stderr, "%s: the server answers after %v\n", s.name, time.Since(start).Round(time.Millisecond))
	for _, learner := range learners {
		stop, learned := make(chan struct{}), make(chan string)
		if learner == "on" {
			go func() { learned <- learnEvery(url, learn, s.name == "fashion", 10*time.Millisecond, stop) }()
		}
		for _, c := range conns {
			for _, r := range rows {
				load := loadAverage()
				res, err := runWrk(url+"/predict", scripts[r], threads, c, dur)
				if err != nil {
					return err
				}
				fmt.Printf("| %s | %s | %d | %d | %.0f | %.0f | %.2f | %.2f | %.2f | %.2f | %d | %s |\n",
					s.name, learner, c, r, res.rate, res.rate*float64(r), res.p50, res.p90, res.p99, res.max, res.errors, load)
			}
		}
		if learner == "on" {
			close(stop)
			fmt.Printf("\n%s: the learner %s\n\n", s.name, <-learned)
		}
	}
	return nil
}

// writeScript writes the Lua script of wrk that sends, in turn, bodies of
// r rows of lines: text lines, or CSV if csv.
func writeScript(path string, lines []string, r int, csv bool) error {
	var b bytes.Buffer
	b.WriteString("-- Made by bench/serve: bodies of requests to predict, sent in turn.\nwrk.method = \"POST\"\n")
	if csv {
		b.WriteString("wrk.headers[\"Content-Type\"] = \"text/csv\"\n")
	} else {
		b.WriteString("wrk.headers[\"Content-Type\"] = \"text/plain\"\n")
	}
	b.WriteString("local bodies = {\n")
	bodies := 1000
	if r > 1 {
		bodies = 40
	}
	rnd := rand.New(rand.NewPCG(1, uint64(r)))
	for range bodies {
		var body strings.Builder
		for range r {
			body.WriteString(lines[rnd.IntN(len(lines))])
			body.WriteByte('\n')
		}
		b.WriteString("  " + luaString(body.String()) + ",\n")
	}
	b.WriteString("}\nlocal i = 0\nrequest = function()\n  i = i % #bodies + 1\n  return wrk.format(nil, nil, nil, bodies[i])\nend\n")
	return os.WriteFile(path, b.Bytes(), 0o644)
}

// luaString returns s as a Lua string, its bytes other than printable
// ASCII as decimal escapes, which LuaJIT takes.
func luaString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := range len(s) {
		c := s[i]
		switch {
		case c == '"' || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c < 0x20 || c >= 0x7f:
			fmt.Fprintf(&b, "\\%03d", c)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// wrkResult is what a run of wrk measured: requests a second, and
// latencies in milliseconds.
type wrkResult struct {
	rate               float64
	p50, p90, p99, max float64
	errors             int
}

// runWrk runs wrk with the script against url from conns connections
// for dur.
func runWrk(url, script string, threads, conns int, dur time.Duration) (wrkResult, error) {
	args := []string{"-t", strconv.Itoa(min(threads, conns)), "-c", strconv.Itoa(conns), "-d", dur.String(), "--latency", "-s", script, url}
	out, err := exec.Command("wrk", args...).CombinedOutput()
	if err != nil {
		return wrkResult{}, fmt.Errorf("wrk %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return parseWrk(string(out))
}

var (
	wrkRate    = regexp.MustCompile(`Requests/sec:\s+([0-9.]+)`)
	wrkPercent = regexp.MustCompile(`(?m)^\s+(50|90|99)%\s+([0-9.]+)(us|ms|s)\s*$`)
	wrkMax     = regexp.MustCompile(`Latency\s+\S+\s+\S+\s+([0-9.]+)(us|ms|s)`)
	wrkErrors  = regexp.MustCompile(`(?:Non-2xx or 3xx responses|Socket errors: connect) (\d+)`)
)

// parseWrk returns the figures of the output of wrk --latency.
func parseWrk(out string) (wrkResult, error) {
	var r wrkResult
	m := wrkRate.FindStringSubmatch(out)
	if m == nil {
		return r, fmt.Errorf("no requests a second in the output of wrk:\n%s", out)
	}
	r.rate, _ = strconv.ParseFloat(m[1], 64)
	for _, p := range wrkPercent.FindAllStringSubmatch(out, -1) {
		v := millis(p[2], p[3])
		switch p[1] {
		case "50":
			r.p50 = v
		case "90":
			r.p90 = v
		case "99":
			r.p99 = v
		}
	}
	if m := wrkMax.FindStringSubmatch(out); m != nil {
		r.max = millis(m[1], m[2])
	}
	for _, m := range wrkErrors.FindAllStringSubmatch(out, -1) {
		n, _ := strconv.Atoi(m[1])
		r.errors += n
	}
	return r, nil
}

// millis returns a duration of wrk, a number and its unit, in
// milliseconds.
func millis(v, unit string) float64 {
	x, _ := strconv.ParseFloat(v, 64)
	switch unit {
	case "us":
		return x / 1000
	case "s":
		return x * 1000
	}
	return x
}

// learnEvery sends a request to learn a labelled line, in turn, every
// period, until stop is closed, and says how many it sent, how many were
// answered 200 and their latencies.
func learnEvery(url string, lines []string, csv bool, period time.Duration, stop <-chan struct{}) string {
	ctype := "text/plain"
	if csv {
		ctype = "text/csv"
	}
	var sent, ok atomic.Int64
	var mu sync.Mutex
	var took []time.Duration
	var wg sync.WaitGroup
	// The requests keep their connections, as a client of a service
	// would, and as wrk's do: http.DefaultClient keeps two, and the
	// others' new connections would time the loopback's handshakes.
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 256}}
	start := time.Now()
	for i := 0; ; i++ {
		// On a schedule, not a ticker, which drops the ticks it is late
		// for: the requests keep their rate when the machine is busy.
		wait := time.NewTimer(time.Until(start.Add(time.Duration(i) * period)))
		select {
		case <-stop:
			wait.Stop()
			wg.Wait()
			el := time.Since(start)
			slices.Sort(took)
			return fmt.Sprintf("sent %d requests of one row in %v (%.0f a second), %d answered 200; latency p50 %.2f ms, p99 %.2f ms",
				sent.Load(), el.Round(time.Second), float64(sent.Load())/el.Seconds(), ok.Load(), percentile(took, 0.5), percentile(took, 0.99))
		case <-wait.C:
		}
		wg.Add(1)
		sent.Add(1)
		go func(line string) {
			defer wg.Done()
			t0 := time.Now()
			resp, err := client.Post(url+"/learn", ctype, strings.NewReader(line+"\n"))
			if err != nil {
				return
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			d := time.Since(t0)
			if resp.StatusCode == 200 {
				ok.Add(1)
			}
			mu.Lock()
			took = append(took, d)
			mu.Unlock()
		}(lines[i%len(lines)])
	}
}

// percentile returns the q-quantile of the sorted durations, in
// milliseconds.
func percentile(d []time.Duration, q float64) float64 {
	if len(d) == 0 {
		return 0
	}
	return float64(d[int(q*float64(len(d)-1))]) / 1e6
}

// loadAverage returns the load average of the last minute.
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "-"
	}
	f := strings.Fields(string(b))
	return f[0]
}
