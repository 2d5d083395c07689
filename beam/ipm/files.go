// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package ipm

import (
	"context"
	"fmt"
	"slices"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	// The local file system, for paths without a scheme.
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/local"
)

// Glob returns the files that match pattern on its Beam file system,
// sorted by name: the shards, in their order. It returns an error if none
// matches.
func Glob(ctx context.Context, pattern string) ([]string, error) {
	fsys, err := filesystem.New(ctx, pattern)
	if err != nil {
		return nil, fmt.Errorf("ipm: %w", err)
	}
	defer fsys.Close()
	files, err := fsys.List(ctx, pattern)
	if err != nil {
		return nil, fmt.Errorf("ipm: the files of %s: %w", pattern, err)
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("ipm: no file matches %s", pattern)
	}
	slices.Sort(files)
	return files, nil
}

// readFile returns the contents of the file path, on its Beam file
// system.
func readFile(ctx context.Context, path string) ([]byte, error) {
	fsys, err := filesystem.New(ctx, path)
	if err != nil {
		return nil, err
	}
	defer fsys.Close()
	return filesystem.Read(ctx, fsys, path)
}

// writeFile writes b to the file path, on its Beam file system, replacing
// any file there.
func writeFile(ctx context.Context, path string, b []byte) error {
	fsys, err := filesystem.New(ctx, path)
	if err != nil {
		return err
	}
	defer fsys.Close()
	w, err := fsys.OpenWrite(ctx, path)
	if err != nil {
		return err
	}
	if _, err := w.Write(b); err != nil {
		w.Close()
		return err
	}
	return w.Close()
}

// replace writes b to the file path atomically, where its file system
// renames atomically (a local one, and object stores, whose objects
// appear whole): to a temporary file beside it, renamed to path. It
// leaves no temporary file.
func replace(ctx context.Context, path, tmp string, b []byte) error {
	if err := writeFile(ctx, tmp, b); err != nil {
		remove(ctx, tmp)
		return err
	}
	fsys, err := filesystem.New(ctx, path)
	if err != nil {
		remove(ctx, tmp)
		return err
	}
	defer fsys.Close()
	if err := filesystem.Rename(ctx, fsys, tmp, path); err != nil {
		remove(ctx, tmp)
		return err
	}
	return nil
}

// remove removes the file path, if it is there and its file system
// removes files: it is for files of a run that are no longer needed, and
// a failure leaves one behind, which does no harm.
func remove(ctx context.Context, path string) {
	fsys, err := filesystem.New(ctx, path)
	if err != nil {
		return
	}
	defer fsys.Close()
	if rm, ok := fsys.(filesystem.Remover); ok {
		rm.Remove(ctx, path)
	}
}
