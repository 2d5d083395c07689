// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package ipm

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
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
	return readFileTo(ctx, path, nil)
}

// readFileTo returns the contents of the file path, on its Beam file
// system, in buf if it holds them: a reader of many files of a size reads
// them all into one buffer.
func readFileTo(ctx context.Context, path string, buf []byte) ([]byte, error) {
	fsys, err := filesystem.New(ctx, path)
	if err != nil {
		return nil, openError(path, err)
	}
	defer fsys.Close()
	size, err := fsys.Size(ctx, path)
	if err != nil {
		return nil, openError(path, err)
	}
	r, err := fsys.OpenRead(ctx, path)
	if err != nil {
		return nil, openError(path, err)
	}
	defer r.Close()
	// The size is a guess, as os.ReadFile's: read to the end.
	if int64(cap(buf)) < size+1 {
		buf = make([]byte, 0, size+1)
	}
	buf = buf[:0]
	for {
		n, err := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return nil, err
		}
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
	}
}

// openError returns the error err of opening the file path, or of its file
// system, as one that says so: the driver tells by it a file that the
// workers do not reach.
func openError(path string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) && pe.Path == path {
		err = pe.Err // the error names the file anyway
	}
	return fmt.Errorf("cannot open %s: %w", path, err)
}

// fileSize returns the size of the file path, on its Beam file system.
func fileSize(ctx context.Context, path string) (int64, error) {
	fsys, err := filesystem.New(ctx, path)
	if err != nil {
		return 0, err
	}
	defer fsys.Close()
	return fsys.Size(ctx, path)
}

// writeFile writes b to the file path, on its Beam file system, replacing
// any file there.
func writeFile(ctx context.Context, path string, b []byte) error {
	return writeWith(ctx, path, false, func(w io.Writer) error {
		_, err := w.Write(b)
		return err
	})
}

// writeWith writes the file path, on its Beam file system, replacing any
// file there, with write, and syncs it if sync is set and its file system
// can.
func writeWith(ctx context.Context, path string, sync bool, write func(io.Writer) error) error {
	fsys, err := filesystem.New(ctx, path)
	if err != nil {
		return openError(path, err)
	}
	defer fsys.Close()
	w, err := fsys.OpenWrite(ctx, path)
	if err != nil {
		return openError(path, err)
	}
	if err := write(w); err != nil {
		w.Close()
		return err
	}
	if s, ok := w.(interface{ Sync() error }); ok && sync {
		if err := s.Sync(); err != nil {
			w.Close()
			return err
		}
	}
	return w.Close()
}

// replace writes the file path atomically with write, where its file
// system renames atomically (a local one, and object stores, whose objects
// appear whole): to the temporary file tmp beside it, synced, renamed to
// path. It leaves no temporary file.
func replace(ctx context.Context, path, tmp string, write func(io.Writer) error) error {
	if err := writeWith(ctx, tmp, true, write); err != nil {
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

// remove removes the file path on its Beam file system. It returns nil if
// the file is not there after, and an error if it is.
func remove(ctx context.Context, path string) error {
	fsys, err := filesystem.New(ctx, path)
	if err != nil {
		return err
	}
	defer fsys.Close()
	rm, ok := fsys.(filesystem.Remover)
	if !ok {
		return fmt.Errorf("the file system of %s does not remove files", path)
	}
	err = rm.Remove(ctx, path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		// As an object store's, whose error of an object that is not
		// there is its own.
		if _, serr := fsys.Size(ctx, path); serr != nil {
			return nil
		}
		return err
	}
	return nil
}
