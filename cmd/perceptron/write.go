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
	"os/signal"
	"path/filepath"
	"sync"
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
	if err := syscall.Access(filepath.Dir(t), 2|1); err != nil { // W_OK|X_OK
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

// temps are the temporary files being written, which a signal that ends
// the command removes.
var temps struct {
	sync.Mutex
	names map[string]bool
}

// afterTemp, if not nil, is called once a temporary file is made: tests
// send signals then.
var afterTemp func(name string)

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
		syscall.Kill(os.Getpid(), n)
		// The signal ends the process, which gets it at once; a process
		// that the system does not let it end, ends here.
		time.Sleep(time.Second)
	}
	os.Exit(128 + int(n))
}

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

// writeFiles writes each file to a temporary file in the directory of the
// file it replaces, with the permissions of that file if it exists,
// syncs it, and renames the temporary files into place only when all have
// been written, so that a failure leaves no file half written, and SIGINT
// or SIGTERM no temporary file. A path that is a symbolic link stays one:
// the file it points to is replaced.
func writeFiles(files ...outFile) (err error) {
	if err := checkOutputs(files, nil); err != nil {
		return err
	}
	catchSignals()
	var tmps, targets []string
	defer func() {
		for _, t := range tmps {
			if err != nil {
				os.Remove(t)
			}
			keepTemp(t, false)
		}
	}()
	for _, f := range files {
		t, err := target(f.path)
		if err != nil {
			return fmt.Errorf("writing %s: %v", f.path, err)
		}
		tmp, err := writeTemp(t, f.write)
		if tmp != "" {
			tmps = append(tmps, tmp)
		}
		if err != nil {
			return fmt.Errorf("writing %s: %v", f.path, pathCause(err))
		}
		targets = append(targets, t)
	}
	dirs := map[string]bool{}
	for i, f := range files {
		if err := os.Rename(tmps[i], targets[i]); err != nil {
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

// writeTemp writes a new file beside path with write, synced, with the
// permissions of path if it exists, and returns the new file's name,
// which is not empty if the file was created, even on error.
func writeTemp(path string, write func(io.Writer) error) (name string, err error) {
	// A new file gets what the umask leaves of 0666, as os.Create gives
	// it; a replaced one keeps its bits.
	perm, keep := fs.FileMode(0o666), false
	if fi, err := os.Stat(path); err == nil {
		perm, keep = fi.Mode().Perm(), true
	}
	dir, base := filepath.Split(path)
	// The temporary name must fit where the file's own name fits.
	base = base[:min(len(base), 100)]
	var f *os.File
	for range 100 {
		var r [6]byte
		rand.Read(r[:])
		name = filepath.Join(dir, "."+base+"."+hex.EncodeToString(r[:])+".tmp")
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
		return "", err
	}
	if afterTemp != nil {
		afterTemp(name)
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
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return name, err
}
