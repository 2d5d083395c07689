// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package data

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"io"
	"os"
	"unsafe"

	"github.com/klauspost/compress/gzip"
	"github.com/seed5ae3614e/perceptron"
)

// The readers of text read it in a buffer of their own, a line at a time,
// and parse each line in place, in one pass over its bytes after the
// search for its end: no line is copied, and no field of the common lines
// is allocated. They gunzip with github.com/klauspost/compress, which
// decodes deflate 1.3 to 1.5 times as fast as compress/gzip
// (bench/read's BenchmarkGunzip).

// gunzipped returns r, decompressed if it starts as a gzip file does.
func gunzipped(r io.Reader) (io.Reader, error) {
	br := bufio.NewReader(r)
	if head, err := br.Peek(2); err == nil && head[0] == 0x1f && head[1] == 0x8b {
		return gzip.NewReader(br)
	}
	return br, nil
}

// textSize returns the bytes of the text of r, as far as r tells them, or 0
// if it does not: the bytes left of a regular file or of a bytes.Reader or
// strings.Reader, or, if they are gzipped, the size of the text of the last
// member that the end of the file gives, which is that of the whole text if
// the file is one member of less than 4 GiB, as gzip writes it, and if
// deflate could make it of the file, as it shrinks text 1032 times at most.
// It leaves r where it was.
func textSize(r io.Reader) int64 {
	f, ok := r.(interface {
		io.ReaderAt
		io.Seeker
	})
	if !ok {
		return 0
	}
	at, err := f.Seek(0, io.SeekCurrent)
	if err != nil {
		return 0
	}
	var size int64
	switch f := r.(type) {
	case *os.File:
		fi, err := f.Stat()
		if err != nil || !fi.Mode().IsRegular() {
			return 0
		}
		size = fi.Size() - at
	case interface{ Size() int64 }:
		size = f.Size() - at
	default:
		return 0
	}
	var head [2]byte
	if _, err := f.ReadAt(head[:], at); err != nil || head != [2]byte{0x1f, 0x8b} || size < 18 {
		return size
	}
	var tail [4]byte
	if _, err := f.ReadAt(tail[:], at+size-4); err != nil {
		return 0
	}
	if n := int64(binary.LittleEndian.Uint32(tail[:])); n <= 1032*size {
		return n
	}
	return 0
}

// lines reads text a line at a time, counting lines and holding no more
// than max bytes of a line, the byte-order mark before line 1 included.
type lines struct {
	r      io.Reader
	buf    []byte
	lo, hi int   // the bytes read and not yet returned: buf[lo:hi]
	eof    bool  // whether r has no more
	rerr   error // the error that ended r, if not io.EOF
	max    int
	bom    int // the bytes of the byte-order mark before line 1
	n      int // the number of the line last read
	end    int // the bytes of its end, \n or \r\n, that it was read with

	read, size int64 // the bytes of the text read from r, and of the whole text if known
}

// lineBuffer is the size of the buffer of lines, which grows for a longer
// line.
const lineBuffer = 256 << 10

func newLines(r io.Reader, max int) (*lines, error) {
	if r == nil {
		return nil, errorf(perceptron.ErrSetting, "no text to read: the io.Reader is nil")
	}
	size := textSize(r)
	gz, err := gunzipped(r)
	if err != nil {
		return nil, err
	}
	if max <= 0 {
		max = defaultMaxLine
	}
	l := &lines{r: gz, max: max, size: size}
	// Spreadsheet programs write a UTF-8 byte-order mark at the start of
	// text files.
	for l.hi < 3 && !l.eof {
		if err := l.fill(); err != nil {
			return nil, err
		}
	}
	if bytes.HasPrefix(l.buf[:l.hi], []byte("\ufeff")) {
		l.lo, l.bom = 3, 3
	}
	return l, nil
}

// next returns the next line, without its end; io.EOF at the end. The line
// is in the buffer of l, until the next call.
func (l *lines) next() ([]byte, error) {
	limit := l.max
	if l.n == 0 {
		limit -= l.bom
	}
	for searched := l.lo; ; {
		if i := bytes.IndexByte(l.buf[searched:l.hi], '\n'); i >= 0 {
			line := l.buf[l.lo : searched+i]
			l.lo = searched + i + 1
			l.end = 1
			return l.line(line, limit)
		}
		searched = l.hi
		if l.hi-l.lo > limit+1 {
			// Longer than the limit, even if it ends in \r\n.
			l.n++
			return nil, l.long()
		}
		if l.eof {
			switch {
			case l.rerr != nil:
				l.n++
				return nil, wrapAt(l.rerr, l.n, -1, -1, "line %d: %w", l.n, l.rerr)
			case l.lo == l.hi:
				return nil, io.EOF
			}
			line := l.buf[l.lo:l.hi]
			l.lo, l.end = l.hi, 0
			return l.line(line, limit)
		}
		at := l.lo
		if err := l.fill(); err != nil {
			return nil, err
		}
		searched -= at - l.lo // fill moved the bytes to the start
	}
}

// line returns the line b, read as the next line, without the \r of its
// end if it has one.
func (l *lines) line(b []byte, limit int) ([]byte, error) {
	l.n++
	if k := len(b); k > 0 && b[k-1] == '\r' {
		b = b[:k-1]
		l.end++
	}
	switch {
	case len(b) > limit:
		return nil, l.long()
	case l.n > 1 && bytes.HasPrefix(b, []byte("\ufeff")):
		return nil, errorAt(perceptron.ErrFormat, l.n, -1, -1, "line %d: a byte-order mark, U+FEFF, starts the line, where only the start of the text may have one: are two files joined?", l.n)
	}
	return b, nil
}

// fill moves the bytes not yet returned to the start of the buffer, grows it
// if they fill it, and reads more.
func (l *lines) fill() error {
	if l.lo > 0 {
		l.hi = copy(l.buf, l.buf[l.lo:l.hi])
		l.lo = 0
	}
	if l.hi == len(l.buf) {
		// A line longer than the limit with the end \r\n is refused.
		size := max(lineBuffer, min(2*len(l.buf), l.max+2))
		if l.buf == nil && l.size > 0 {
			// A text known to be short, such as a request's body, is
			// read into a buffer of its size: clearing one of
			// lineBuffer bytes would cost more than reading it.
			size = min(size, int(min(l.size, lineBuffer))+1)
		}
		if err := checkMemory(float64(size), "line %d: holding the line", l.n+1); err != nil {
			return err
		}
		buf := make([]byte, size)
		copy(buf, l.buf[:l.hi])
		l.buf = buf
	}
	for {
		k, err := l.r.Read(l.buf[l.hi:])
		l.hi += k
		l.read += int64(k)
		switch {
		case err == io.EOF:
			l.eof = true
		case err != nil:
			l.eof, l.rerr = true, err
		}
		if k > 0 || l.eof {
			return nil
		}
	}
}

// expect returns the elements that the whole text is expected to give, if
// n elements come of the lines returned so far, as their share of its bytes
// tells, and 0 if the size of the text is not known, or too few of its
// bytes were read to tell, or l is nil.
func (l *lines) expect(n int) int {
	if l == nil {
		return 0
	}
	done := l.read - int64(l.hi-l.lo)
	if l.size <= 0 || done < 64<<10 || done >= l.size {
		return 0
	}
	return int(float64(n)*float64(l.size)/float64(done)*1.02) + 256
}

// long returns the error of the line last read, longer than max bytes.
func (l *lines) long() error {
	if l.n == 1 && l.bom > 0 {
		return errorAt(perceptron.ErrFormat, 1, -1, -1, "line 1: longer than %d bytes with the byte-order mark before it", l.max)
	}
	return errorAt(perceptron.ErrFormat, l.n, -1, -1, "line %d: longer than %d bytes", l.n, l.max)
}

// space says which bytes are the white space of ASCII, as unicode.IsSpace
// takes it, and marks the bytes that may start another space, of more
// bytes.
var space = func() (t [256]uint8) {
	for _, c := range "\t\n\v\f\r " {
		t[c] = 1
	}
	for c := 0x80; c < 0x100; c++ {
		t[c] = 2
	}
	return t
}()

// view returns the bytes b as a string, without a copy: the string holds
// what b holds while b is unchanged, as a line of lines is until the next.
func view(b []byte) string {
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// defaultMaxLine is the longest line a reader takes when its MaxLine is
// zero: 16 MiB, far beyond the longest line of text data sets.
const defaultMaxLine = 1 << 24

// readAll returns the bytes of r, read into a buffer grown by a quarter
// at a time, or at once to the length that r tells if it has a method Len
// (a bytes.Reader, a strings.Reader), each growth checked against the
// memory left.
func readAll(r io.Reader) ([]byte, error) {
	want := 512
	if l, ok := r.(interface{ Len() int }); ok {
		want = l.Len() + 1 // and a byte to read the end
	}
	var b []byte
	for {
		if len(b) == cap(b) {
			grow := max(want-len(b), len(b)/4, 512)
			var err error
			if b, err = growTo(b, len(b)+grow); err != nil {
				return nil, tooLarge(err, "holding the text of %d bytes and more", len(b))
			}
		}
		n, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return nil, err
		}
	}
}
