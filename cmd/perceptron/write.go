// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"bufio"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// outFile is a file that the command writes.
type outFile struct {
	flag  string // the flag that names the file, for messages
	path  string
	write func(io.Writer) error
}

// bytesOut returns the function that writes b.
func bytesOut(b []byte) func(io.Writer) error {
	return func(w io.Writer) error {
		_, err := w.Write(b)
		return err
	}
}

// maxLinks is the most symbolic links that target follows, as Linux's
// limit on a path's resolution is.
const maxLinks = 40

// target returns the file that writing to path replaces: path with every
// symbolic link followed, the last of them even if it points to no file
// yet. The directory of the file must exist.
func target(path string) (string, error) {
	for range maxLinks {
		t, err := filepath.EvalSymlinks(path)
		if err == nil {
			return t, nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return "", err
		}
		dir, err := filepath.EvalSymlinks(filepath.Dir(path))
		if err != nil {
			return "", fmt.Errorf("directory %s: %w", filepath.Dir(path), pathCause(err))
		}
		path = filepath.Join(dir, filepath.Base(path))
		link, err := os.Readlink(path)
		if err != nil {
			// No file yet, not even a dangling link.
			return path, nil
		}
		if !filepath.IsAbs(link) {
			link = filepath.Join(dir, link)
		}
		path = link
	}
	return "", errors.New("too many levels of symbolic links")
}

// pathCause returns the error of err's system call without the path it
// names, for a message that names the user's path instead.
func pathCause(err error) error {
	var pe *fs.PathError
	var le *os.LinkError
	switch {
	case errors.As(err, &pe):
		return pe.Err
	case errors.As(err, &le):
		return le.Err
	}
	return err
}

// kind names the type of a file that is not a regular one.
func kind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeCharDevice != 0, m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	}
	return "not a regular file"
}

// checkOutputs returns an error if one of the files outs would not be
// written safely: its directory does not exist or cannot be written, it
// exists and is not a regular file, or, a usage error, it is, through any
// links, one of the files ins or another of outs. The command checks
// before it reads or trains anything, and writeFiles checks again.
func checkOutputs(outs []outFile, ins []string) error {
	var seen []outFile
	for _, o := range outs {
		if o.path == "" {
			continue
		}
		if err := checkOutput(o, ins, seen); err != nil {
			return err
		}
		seen = append(seen, o)
	}
	return nil
}

func checkOutput(o outFile, ins []string, outs []outFile) error {
	t, err := target(o.path)
	if err != nil {
		return fmt.Errorf("%s %s: %v", o.flag, o.path, err)
	}
	fi, err := os.Stat(t)
	for _, p := range outs {
		pt, perr := target(p.path)
		if perr != nil {
			continue
		}
		if same(pt, t) {
			return usagef("%s %s and %s %s are the same file", p.flag, p.path, o.flag, o.path)
		}
	}
	if err := writableDir(filepath.Dir(t)); err != nil {
		return fmt.Errorf("%s %s: directory %s: %v", o.flag, o.path, filepath.Dir(t), err)
	}
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("%s %s: %v", o.flag, o.path, pathCause(err))
	}
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("%s %s is %s: the command writes only regular files", o.flag, o.path, kind(fi.Mode()))
	}
	for _, in := range ins {
		if ii, err := os.Stat(in); err == nil && os.SameFile(fi, ii) {
			return usagef("%s %s is the input file %s: the command does not overwrite its input", o.flag, o.path, in)
		}
	}
	return nil
}

// same reports whether the paths a and b, free of symbolic links, name one
// file: the same path, or two links to one file.
func same(a, b string) bool {
	if aa, err := filepath.Abs(a); err == nil {
		a = aa
	}
	if bb, err := filepath.Abs(b); err == nil {
		b = bb
	}
	if a == b {
		return true
	}
	fa, err1 := os.Stat(a)
	fb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(fa, fb)
}

// writeFiles writes each file to a temporary file in the directory of the
// file it replaces, with the permissions of that file if it exists,
// syncs it, and renames the temporary files into place only when all have
// been written, so that a failure leaves no file half written, and SIGINT
// or SIGTERM no temporary file. A path that is a symbolic link stays one:
// the file it points to is replaced. Before, it removes the temporary
// files of the same files that runs killed by SIGKILL left, and says so
// on notes (removeDebris).
func writeFiles(notes io.Writer, files ...outFile) (err error) {
	if err := checkOutputs(files, nil); err != nil {
		return err
	}
	catchSignals()
	var tmps []*os.File
	var targets []string
	defer func() {
		for _, f := range tmps {
			if err != nil {
				os.Remove(f.Name())
			}
			// The file is synced, or removed: closing it only releases
			// its lock, after the rename.
			f.Close()
			keepTemp(f.Name(), false)
		}
	}()
	for _, f := range files {
		t, err := target(f.path)
		if err != nil {
			return fmt.Errorf("writing %s: %v", f.path, err)
		}
		removeDebris(notes, t)
		tmp, err := writeTemp(t, f.write)
		if tmp != nil {
			tmps = append(tmps, tmp)
		}
		if err != nil {
			return fmt.Errorf("writing %s: %v", f.path, pathCause(err))
		}
		targets = append(targets, t)
	}
	dirs := map[string]bool{}
	for i, f := range files {
		if err := os.Rename(tmps[i].Name(), targets[i]); err != nil {
			return fmt.Errorf("writing %s: %v", f.path, pathCause(err))
		}
		dirs[filepath.Dir(targets[i])] = true
	}
	// The renames last only once their directories are synced.
	for dir := range dirs {
		if d, err := os.Open(dir); err == nil {
			d.Sync()
			d.Close()
		}
	}
	return nil
}

// A temporary file of the file NAME is .NAME.HEX.tmp beside it, NAME cut
// to 100 bytes so that the temporary name fits where NAME fits, and HEX 12
// random hexadecimal digits. Its run holds it locked (flock) from just
// after it is made until it is renamed or removed, so that a later run
// tells a file that a run killed by SIGKILL left, which no process holds
// locked, from one that a run writes.

// tempName returns the name of a temporary file of base, with the digits
// of r.
func tempName(base string, r [6]byte) string {
	return "." + base[:min(len(base), 100)] + "." + hex.EncodeToString(r[:]) + ".tmp"
}

// isTemp reports whether name is the name of a temporary file of base.
func isTemp(name, base string) bool {
	digits, ok := strings.CutPrefix(name, "."+base[:min(len(base), 100)]+".")
	digits, tmp := strings.CutSuffix(digits, ".tmp")
	if !ok || !tmp || len(digits) != 12 {
		return false
	}
	_, err := hex.DecodeString(digits)
	return err == nil && strings.ToLower(digits) == digits
}

// started is when the command started.
var started = time.Now()

// removeDebris removes the temporary files of path that runs of the
// command killed as they wrote it left, and says so on notes: those that
// no process holds locked, last written before this run started, so that
// none is the file of a run that has just made it and not yet locked it.
// It names on notes those that it finds unlocked but cannot remove, or
// cannot lock, on a file system without locks.
func removeDebris(notes io.Writer, path string) {
	dir, base := filepath.Split(path)
	d, err := os.Open(filepath.Clean(dir + "."))
	if err != nil {
		return // writing tells
	}
	defer d.Close()
	var debris []string
	for {
		// A few names at a time, however large the directory.
		entries, err := d.ReadDir(256)
		for _, e := range entries {
			if e.Type().IsRegular() && isTemp(e.Name(), base) {
				debris = append(debris, e.Name())
			}
		}
		if err != nil {
			break
		}
	}
	for _, e := range debris {
		name := filepath.Join(dir, e)
		// Not blocked by a named pipe put in its place since.
		f, err := os.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
		if err != nil {
			continue // renamed or removed since, or not the command's
		}
		fi, err := f.Stat()
		if err != nil || !fi.Mode().IsRegular() || !fi.ModTime().Before(started) {
			f.Close()
			continue
		}
		switch err := lock(f); {
		case err == syscall.EWOULDBLOCK:
			// A run writes it.
		case err != nil:
			fmt.Fprintf(notes, "perceptron: %s may be the temporary file of a run that was killed as it wrote %s: remove it if no run writes %s (the file system has no locks to tell: %v)\n", name, path, path, err)
		default:
			if err := os.Remove(name); err != nil {
				fmt.Fprintf(notes, "perceptron: %s is the temporary file of a run that was killed as it wrote %s, and cannot be removed: %v\n", name, path, pathCause(err))
			} else {
				fmt.Fprintf(notes, "perceptron: removed %s, the temporary file of a run that was killed as it wrote %s\n", name, path)
			}
		}
		f.Close()
	}
}

// writeTemp writes a new file beside path with write, synced, with the
// permissions of path if it exists, and returns it open and locked, for
// the caller to rename and close; it returns the file even on error, if it
// was created.
func writeTemp(path string, write func(io.Writer) error) (f *os.File, err error) {
	// A new file gets what the umask leaves of 0666, as os.Create gives
	// it; a replaced one keeps its bits.
	perm, keep := fs.FileMode(0o666), false
	if fi, err := os.Stat(path); err == nil {
		perm, keep = fi.Mode().Perm(), true
	}
	dir, base := filepath.Split(path)
	for range 100 {
		var r [6]byte
		rand.Read(r[:])
		name := filepath.Join(dir, tempName(base, r))
		temps.Lock() // no signal removes the files between
		f, err = os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
		if err == nil {
			if temps.names == nil {
				temps.names = map[string]bool{}
			}
			temps.names[name] = true
		}
		temps.Unlock()
		if !errors.Is(err, fs.ErrExist) {
			break
		}
	}
	if err != nil {
		return nil, err
	}
	// Without locks on the file system, a later run only names the file
	// if it is left.
	lock(f)
	if afterTemp != nil {
		afterTemp(f.Name())
	}
	bw := bufio.NewWriterSize(f, 1<<16)
	err = write(bw)
	if err == nil {
		err = bw.Flush()
	}
	if err == nil && keep {
		err = f.Chmod(perm)
	}
	if err == nil {
		err = f.Sync()
	}
	return f, err
}
