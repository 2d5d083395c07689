// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package ipm

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	jobpb "github.com/apache/beam/sdks/v2/go/pkg/beam/model/jobmanagement_v1"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/options/jobopts"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/runners/universal/extworker"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/util/grpcx"
)

// A run's pipelines are Beam jobs, each run by beam.Run in turn, and
// cancelled, when the run stops, on the runner's job service.

// running holds a pipeline that runs: Beam's runners set global flags as
// they start, prism its endpoint, so that two pipelines that start at once
// race.
var running sync.Mutex

// execute runs the pipeline p, of what it does. When ctx is done, or the
// pipeline has run for the Timeout, it stops the run, whose steps that
// start then in this process fail, and cancels the pipeline's job on the
// runner's job service, if it has one, as every runner but direct and
// Dataflow has, and waits for the job to end; but it does not cancel
// Beam's Run, since prism, on a done context, panics, or goes on running
// the pipeline as Run returns. The job service is that of Beam's flag
// --endpoint as Run starts, which prism in this process sets as it starts
// its own, in Run, the first time: the first pipeline on it is not
// cancelled, and fails as its steps do.
func (r *run) execute(ctx context.Context, p *beam.Pipeline, what string) error {
	running.Lock()
	defer running.Unlock()
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("ipm: stopped before %s: %w", what, context.Cause(ctx))
	}
	// The job's name, by which it is cancelled.
	name := fmt.Sprintf("ipm-%s-%s", r.id, strings.ReplaceAll(what, " ", "-"))
	defer func(was string) { *jobopts.JobName = was }(*jobopts.JobName)
	*jobopts.JobName = name
	if err := keepWorkers(r.runner); err != nil {
		return fmt.Errorf("ipm: %s: starting the pool of workers: %w", what, err)
	}
	endpoint := *jobopts.Endpoint
	var timedOut atomic.Bool
	var timeout <-chan time.Time
	if r.Timeout > 0 {
		t := time.NewTimer(r.Timeout)
		defer t.Stop()
		timeout = t.C
	}
	ended := make(chan struct{})
	cancelled := make(chan struct{})
	go func() {
		defer close(cancelled)
		select {
		case <-ctx.Done():
		case <-timeout:
			timedOut.Store(true)
		case <-ended:
			return
		}
		cached(r.id).stop()
		cancelJob(endpoint, name)
	}()
	_, err := beam.Run(context.WithoutCancel(ctx), r.runner, p)
	close(ended)
	<-cancelled
	switch {
	case ctx.Err() != nil:
		return fmt.Errorf("ipm: stopped in %s: %w", what, context.Cause(ctx))
	case timedOut.Load():
		return fmt.Errorf("ipm: %s ran for more than %v: its job is cancelled (a runner may wait for a worker that it has lost: prism waits for one lost before it connected)", what, r.Timeout)
	case err != nil:
		return &PipelineError{What: what, Runner: r.runner, Err: err, Unreached: r.unreached(ctx, err)}
	}
	return nil
}

// pool is the pool of workers in this process of the pipelines that a
// runner would otherwise run in Beam's loopback mode, started by the first
// of them; nil until then.
var pool *extworker.Loopback

// keepWorkers sets Beam's flags so that the next pipeline, on the runner
// of the name, runs its steps on pool, which it starts if need be, where
// the pipeline would run them in Beam's loopback mode: if the flag
// --environment_type is loopback, or if the runner is prism with neither
// --endpoint nor --environment_type, as prism then starts in this process
// and picks loopback. The caller holds running.
//
// In loopback mode, beam.Run starts a pool of workers in this process for
// the job and stops it as it returns; but prism starts a job's worker on
// the pool in a goroutine of its own, which panics if the pool is gone, as
// it is when the job was cancelled, and Run returned, before that
// goroutine asked for the worker. A pool that lasts as long as the process
// is always there. Its workers end as their jobs do, when prism stops
// them, as Run's pool's do when the pool stops; the pool itself, one
// listener and its server, stays, as prism's job service in this process
// does. The flags stay set to it for the pipelines after, which run on the
// same job service, as prism leaves them set to loopback. The worker's
// binary, which Beam stages with each job and a worker of the pool does
// not run, is the empty os.DevNull if it is not given, as Beam gives an
// empty file in loopback mode: without one, Beam would build one with go
// build for each job.
func keepWorkers(runner string) error {
	prism := (runner == "prism" || runner == "PrismRunner") && *jobopts.Endpoint == "" && *jobopts.EnvironmentType == ""
	if !jobopts.IsLoopback() && !prism {
		return nil
	}
	if pool == nil {
		p, err := extworker.StartLoopback(context.Background(), 0)
		if err != nil {
			return err
		}
		pool = p
	}
	*jobopts.EnvironmentType = "external"
	*jobopts.EnvironmentConfig = pool.EnvironmentConfig(context.Background())
	if *jobopts.WorkerBinary == "" {
		*jobopts.WorkerBinary = os.DevNull
	}
	return nil
}

// cancelJob cancels the jobs of the name on the job service at endpoint,
// if it is not empty, and waits for them to end, for at most a minute.
func cancelJob(endpoint, name string) {
	if endpoint == "" {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cc, err := grpcx.Dial(ctx, endpoint, time.Minute)
	if err != nil {
		return
	}
	defer cc.Close()
	client := jobpb.NewJobServiceClient(cc)
	jobs, err := client.GetJobs(ctx, &jobpb.GetJobsRequest{})
	if err != nil {
		return
	}
	for _, j := range jobs.GetJobInfo() {
		if j.GetJobName() != name {
			continue
		}
		client.Cancel(ctx, &jobpb.CancelJobRequest{JobId: j.GetJobId()})
		for ctx.Err() == nil {
			st, err := client.GetState(ctx, &jobpb.GetJobStateRequest{JobId: j.GetJobId()})
			if err != nil || terminal(st.GetState()) {
				break
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
}

// terminal reports whether a job in the state s has ended.
func terminal(s jobpb.JobState_Enum) bool {
	switch s {
	case jobpb.JobState_DONE, jobpb.JobState_FAILED, jobpb.JobState_CANCELLED, jobpb.JobState_DRAINED, jobpb.JobState_UPDATED:
		return true
	}
	return false
}

// unreached returns the first file of the run that the error err of a
// pipeline says it cannot open, and that this process reaches: a shard,
// or the folder of the run's files. It returns "" if there is none.
func (r *run) unreached(ctx context.Context, err error) string {
	msg := err.Error()
	if !strings.Contains(msg, "cannot open ") {
		return ""
	}
	for _, sh := range r.shards {
		if strings.Contains(msg, sh.Path) {
			if _, err := fileSize(ctx, sh.Path); err == nil {
				return sh.Path
			}
			return ""
		}
	}
	folder := r.prefix[:strings.LastIndex(r.prefix, "/")+1]
	if _, err := fileSize(ctx, folder); err == nil && strings.Contains(msg, r.prefix) {
		return folder
	}
	return ""
}

// PipelineError is the failure of a pipeline of a run.
type PipelineError struct {
	What   string // what the pipeline does: "the scan of the shards", "epoch 3"
	Runner string // the runner that ran it
	Err    error  // Beam's error

	// Unreached, if not empty, is a file that the error names and that
	// the process of Run reaches: a shard, or the folder of the run's
	// files, which the workers do not reach.
	Unreached string
}

// Error returns the error of the step that failed, as Beam's error quotes
// it, if it is one of this package's, and otherwise Beam's error, on one
// line: runners write it on several, some with the plan of the pipeline.
func (e *PipelineError) Error() string {
	msg := e.Err.Error()
	if i := strings.LastIndex(msg, "ipm: "); i >= 0 {
		msg, _, _ = strings.Cut(msg[i:], "\n")
		msg = fmt.Sprintf("%s (in the pipeline of %s, on runner %s)", msg, e.What, e.Runner)
	} else {
		msg = fmt.Sprintf("ipm: the pipeline of %s, on runner %s: %s", e.What, e.Runner, strings.Join(strings.Fields(msg), " "))
	}
	if e.Unreached != "" {
		msg += fmt.Sprintf("; this program reaches %s, which the workers do not: give files on a file system that both reach, as gs:// or s3://", e.Unreached)
	}
	return msg
}

// Unwrap returns Beam's error.
func (e *PipelineError) Unwrap() error { return e.Err }
