// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"bufio"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"sync/atomic"
	"time"
)

// serveMetrics are what GET /metrics reports, in Prometheus' text format
// (version 0.0.4), which it writes itself: the requests by endpoint and
// status, the rows predicted and learned, the mistakes made on the rows
// learned, the checkpoints, and a histogram of the time of the requests
// of each endpoint, from their headers read to their answer written.
type serveMetrics struct {
	start    time.Time
	requests [nEndpoints][nCodes + 1]atomic.Uint64
	rows     [nEndpoints]atomic.Uint64
	mistakes atomic.Uint64
	latency  [nEndpoints]histogram

	checkpoints, checkpointErrors atomic.Uint64
	lastCheckpoint                atomic.Int64 // Unix time in nanoseconds
	checkpointTime                atomic.Int64 // the model held by the last, in nanoseconds
}

// statusCodes are the statuses that the metrics count apart; others are
// counted as "other".
var statusCodes = [nCodes]int{200, 206, 304, 400, 403, 404, 405, 408, 412, 413, 415, 416, 422, 500, 503}

const nCodes = 15

// buckets are the upper bounds of the histogram's buckets, in seconds.
var buckets = [nBuckets]float64{0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10}

const nBuckets = 16

// histogram counts durations in buckets, each apart: a duration counts
// in the first bucket whose bound it does not pass, and in the last,
// +Inf, if it passes them all.
type histogram struct {
	counts [nBuckets + 1]atomic.Uint64
	sum    atomic.Int64 // nanoseconds
}

func (m *serveMetrics) init() { m.start = time.Now() }

// count counts a request of the endpoint ep, answered with the status
// code in d, of rows rows.
func (m *serveMetrics) count(ep, code, rows int, d time.Duration) {
	k := slices.Index(statusCodes[:], code)
	if k < 0 {
		k = len(statusCodes)
	}
	m.requests[ep][k].Add(1)
	m.rows[ep].Add(uint64(rows))
	h := &m.latency[ep]
	sec := d.Seconds()
	b := 0
	for b < len(buckets) && sec > buckets[b] {
		b++
	}
	h.counts[b].Add(1)
	h.sum.Add(int64(d))
}

// write answers GET /metrics, of the model served.
func (m *serveMetrics) write(w http.ResponseWriter, model *served) {
	w.Header().Set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
	bw := bufio.NewWriter(w)
	defer bw.Flush()
	head := func(name, typ, help string) {
		fmt.Fprintf(bw, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, typ)
	}
	head("perceptron_requests_total", "counter", "Requests answered, by endpoint and status.")
	for ep := range nEndpoints {
		for k := range m.requests[ep] {
			n := m.requests[ep][k].Load()
			if n == 0 {
				continue
			}
			code := "other"
			if k < len(statusCodes) {
				code = strconv.Itoa(statusCodes[k])
			}
			fmt.Fprintf(bw, "perceptron_requests_total{endpoint=%q,code=%q} %d\n", endpointPaths[ep], code, n)
		}
	}
	head("perceptron_rows_total", "counter", "Rows of the requests answered, predicted or learned, by endpoint.")
	for _, ep := range []int{epPredict, epLearn} {
		fmt.Fprintf(bw, "perceptron_rows_total{endpoint=%q} %d\n", endpointPaths[ep], m.rows[ep].Load())
	}
	head("perceptron_learn_mistakes_total", "counter", "Mistakes of the model on the rows it learned, each made before it learned the row.")
	fmt.Fprintf(bw, "perceptron_learn_mistakes_total %d\n", m.mistakes.Load())
	head("perceptron_learns_total", "counter", "Learns of the model, one a request to /learn.")
	fmt.Fprintf(bw, "perceptron_learns_total %d\n", model.changed())
	head("perceptron_checkpoints_total", "counter", "Checkpoints of the model written to -save.")
	fmt.Fprintf(bw, "perceptron_checkpoints_total %d\n", m.checkpoints.Load())
	head("perceptron_checkpoint_errors_total", "counter", "Checkpoints of the model that failed.")
	fmt.Fprintf(bw, "perceptron_checkpoint_errors_total %d\n", m.checkpointErrors.Load())
	if t := m.lastCheckpoint.Load(); t != 0 {
		head("perceptron_last_checkpoint_timestamp_seconds", "gauge", "When the last checkpoint was written, in seconds since 1970.")
		fmt.Fprintf(bw, "perceptron_last_checkpoint_timestamp_seconds %s\n", seconds(time.Duration(t)))
		head("perceptron_last_checkpoint_duration_seconds", "gauge", "The time the last checkpoint held the model to write it, learning waiting.")
		fmt.Fprintf(bw, "perceptron_last_checkpoint_duration_seconds %s\n", seconds(time.Duration(m.checkpointTime.Load())))
	}
	head("perceptron_request_duration_seconds", "histogram", "Time from a request's headers read to its answer written, by endpoint.")
	for ep := range nEndpoints {
		h := &m.latency[ep]
		var cum uint64
		for b := range h.counts {
			cum += h.counts[b].Load()
			le := "+Inf"
			if b < len(buckets) {
				le = strconv.FormatFloat(buckets[b], 'g', -1, 64)
			}
			fmt.Fprintf(bw, "perceptron_request_duration_seconds_bucket{endpoint=%q,le=%q} %d\n", endpointPaths[ep], le, cum)
		}
		fmt.Fprintf(bw, "perceptron_request_duration_seconds_sum{endpoint=%q} %s\n", endpointPaths[ep], seconds(time.Duration(h.sum.Load())))
		fmt.Fprintf(bw, "perceptron_request_duration_seconds_count{endpoint=%q} %d\n", endpointPaths[ep], cum)
	}
	head("process_start_time_seconds", "gauge", "When the server started, in seconds since 1970.")
	fmt.Fprintf(bw, "process_start_time_seconds %s\n", seconds(time.Duration(m.start.UnixNano())))
}

// seconds returns d in seconds, as Prometheus writes a value.
func seconds(d time.Duration) string {
	return strconv.FormatFloat(d.Seconds(), 'g', -1, 64)
}

// The endpoints, which the metrics count apart.
const (
	epPredict = iota
	epLearn
	epModel
	epHealth
	epMetrics
	epOther
	nEndpoints
)

var endpointPaths = [nEndpoints]string{"/predict", "/learn", "/model", "/healthz", "/metrics", "other"}
