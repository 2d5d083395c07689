// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package data

import (
	"encoding/binary"
	"io"
	"iter"
	"math"
	"strconv"

	"gonum.org/v1/gonum/mat"

	"github.com/seed5ae3614e/perceptron"
	"github.com/seed5ae3614e/perceptron/internal/memory"
)

// IDX reads the IDX files of MNIST and Fashion-MNIST: a file of images,
// whose first dimension counts them, and a file of their labels. A pixel,
// a byte from 0 to 255, becomes its value divided by 255, from 0 to 1.
type IDX struct {
	// Classes are the classes to read the labels by, as in LIBSVM.
	Classes []string
}

// Read reads the images of the IDX file images and the labels of the IDX
// file labels, if it is not nil, gzipped or not, into a Set of dense rows,
// each row an image, its pixels divided by 255 to values from 0 to 1. It
// returns an error naming the file, images or labels, and what is wrong with
// it: among others, bytes after those that its header gives.
//
// It holds 8 bytes for each pixel, its value in the Set, and reads the
// bytes into them a block at a time, if the file tells how many bytes it
// holds, as a file or a bytes.Reader does, and its gzip end if it is
// gzipped; otherwise it holds the bytes too, in memory in proportion to
// the bytes the file has, whatever its header says. It refuses, with an
// error of kind perceptron.ErrTooLarge, a header whose bytes and their
// values would not fit in the memory left, and the labels likewise.
func (f IDX) Read(images, labels io.Reader) (*Set, error) {
	return f.read(images, labels, "images", "labels")
}

// Rows returns the images of the IDX file images, with the labels of the
// IDX file labels, if it is not nil, one at a time, as Read reads them,
// with the errors of Read; the package's documentation says how.
func (f IDX) Rows(images, labels io.Reader) iter.Seq2[Row, error] {
	return f.rows(images, labels, "images", "labels")
}

// rows is Rows, whose errors name the files images and labels by imName and
// lbName.
func (f IDX) rows(images, labels io.Reader, imName, lbName string) iter.Seq2[Row, error] {
	rs := []io.Reader{images}
	if labels != nil {
		rs = append(rs, labels)
	}
	return rowSeq(rs, func() (rowReader, error) {
		c, err := newClasses(f.Classes)
		if err != nil {
			return nil, err
		}
		im, n, d, err := openImages(images, imName)
		if err != nil {
			return nil, err
		}
		var lb io.Reader
		if labels != nil {
			if lb, err = openLabels(labels, lbName, n, false); err != nil {
				return nil, err
			}
		}
		if err := checkMemory(9*float64(d), "%s: holding an image of %d pixels, and their values,", imName, d); err != nil {
			return nil, err
		}
		return &idxRows{im: im, lb: lb, n: n, d: d, imName: imName, lbName: lbName, c: c}, nil
	})
}

// idxRows reads the images of an IDX file, and their labels, one at a time.
type idxRows struct {
	im, lb         io.Reader // the bytes of the images and of the labels, after their headers
	n, d, i        int       // the images, their pixels, and the images read
	pix            []byte    // the bytes of an image
	vals           []float64 // and their values
	imName, lbName string
	c              *classes
	class          [256]int // the class of each label byte, +1; 0 if not yet read
}

func (s *idxRows) row(row *Row) error {
	if s.i == s.n {
		if err := atEnd(s.im, s.imName, s.n*s.d); err != nil {
			return err
		}
		if s.lb != nil {
			if err := atEnd(s.lb, s.lbName, s.n); err != nil {
				return err
			}
		}
		return io.EOF
	}
	if s.i == 0 {
		// The first image, in a buffer that grows as its bytes come, as
		// readBytes reads them, whatever the header says.
		var err error
		if s.pix, err = readBytes(s.im, s.imName, s.d, 0, s.n*s.d); err != nil {
			return err
		}
		s.vals = make([]float64, s.d)
	} else if k, err := io.ReadFull(s.im, s.pix); err != nil {
		return short(s.imName, s.i*s.d+k, s.n*s.d, err)
	}
	convert(s.vals, s.pix, &pixel)
	s.i++
	*row = Row{Val: s.vals, Class: -1, Line: s.i}
	if s.lb == nil {
		return nil
	}
	var b [1]byte
	if _, err := io.ReadFull(s.lb, b[:]); err != nil {
		return short(s.lbName, s.i-1, s.n, err)
	}
	k := s.class[b[0]] - 1
	if k < 0 {
		var err error
		if k, err = s.c.index(strconv.Itoa(int(b[0])), 0, 0); err != nil {
			return wrapf(err, "%s: %w", s.lbName, err)
		}
		s.class[b[0]] = k + 1
	}
	row.Class, row.Classes = k, s.c.names
	return nil
}

// pixel is the value of each byte of a pixel, and byteValue of each byte.
var pixel, byteValue = func() (p, b [256]float64) {
	for k := range p {
		p[k], b[k] = float64(k)/255, float64(k)
	}
	return p, b
}()

// read is Read, whose errors name the files images and labels by imName
// and lbName.
func (f IDX) read(images, labels io.Reader, imName, lbName string) (*Set, error) {
	c, err := newClasses(f.Classes)
	if err != nil {
		return nil, err
	}
	size := textSize(images)
	im, n, d, err := openImages(images, imName)
	if err != nil {
		return nil, err
	}
	var lb io.Reader
	if labels != nil {
		if lb, err = openLabels(labels, lbName, n, true); err != nil {
			return nil, err
		}
	}
	x, err := readValues(im, imName, n*d, size, &pixel)
	if err != nil {
		return nil, err
	}
	set := &Set{X: mat.NewDense(n, d, x)}
	if labels == nil {
		return set, nil
	}
	ids, err := readValues(lb, lbName, n, 0, &byteValue)
	if err != nil {
		return nil, err
	}
	var class [256]float64 // the class of each label byte, +1; 0 if not yet read
	for i, b := range ids {
		k := class[int(b)] - 1
		if k < 0 {
			kk, err := c.index(strconv.Itoa(int(b)), 0, 0)
			if err != nil {
				return nil, wrapf(err, "%s: %w", lbName, err)
			}
			k = float64(kk)
			class[int(b)] = k + 1
		}
		ids[i] = k
	}
	c.y = ids
	if set.Classes, set.Y, err = c.finish(); err != nil {
		return nil, wrapf(err, "%s: %w", lbName, err)
	}
	return set, nil
}

// openImages reads the header of the IDX file of images r, named name, and
// returns the reader of its pixels, the number of images and their pixels.
func openImages(r io.Reader, name string) (io.Reader, int, int, error) {
	dims, size, r, err := readHeader(r, name)
	if err != nil {
		return nil, 0, 0, err
	}
	if len(dims) < 2 {
		return nil, 0, 0, errorf(perceptron.ErrFormat, "%s: %d dimensions, want a count of images and at least one more", name, len(dims))
	}
	n := dims[0]
	if n == 0 || size == 0 {
		return nil, 0, 0, errorf(perceptron.ErrFormat, "%s: no images, or images of no pixels", name)
	}
	return r, n, size / n, nil
}

// openLabels reads the header of the IDX file of labels r, named name, of n
// images, and returns the reader of its labels. With hold, it first checks
// that the memory left holds the labels, as readValues does.
func openLabels(r io.Reader, name string, n int, hold bool) (io.Reader, error) {
	dims, size, r, err := readHeader(r, name)
	if err == nil && hold {
		err = checkMemory(9*float64(size), "%s: holding the %d bytes that the header gives, and their values,", name, size)
	}
	switch {
	case err != nil:
		return nil, err
	case len(dims) != 1:
		return nil, errorf(perceptron.ErrFormat, "%s: %d dimensions, want 1, a label per image", name, len(dims))
	case dims[0] != n:
		return nil, errorf(perceptron.ErrFormat, "%s: %d labels, want %d, one per image", name, dims[0], n)
	}
	return r, nil
}

// readHeader reads the header of the IDX file of unsigned bytes r, named
// name, gzipped or not, and returns its dimensions, the number of bytes
// they give, and the reader of those bytes.
func readHeader(r io.Reader, name string) (dims []int, size int, data io.Reader, err error) {
	fail := func(format string, args ...any) ([]int, int, io.Reader, error) {
		return nil, 0, nil, errorf(perceptron.ErrFormat, "%s: "+format, append([]any{name}, args...)...)
	}
	if r == nil {
		return fail("no file to read: the io.Reader is nil")
	}
	if r, err = gunzipped(r); err != nil {
		return fail("%w", err)
	}
	var magic [4]byte
	if _, err := io.ReadFull(r, magic[:]); err != nil {
		return fail("reading the magic number: %v", err)
	}
	switch {
	case magic[0] != 0 || magic[1] != 0:
		return fail("magic number % x: not an IDX file", magic)
	case magic[2] != 0x08:
		return fail("element type 0x%02x, want 0x08 (unsigned bytes)", magic[2])
	case magic[3] == 0:
		return fail("no dimensions")
	}
	dims = make([]int, magic[3])
	size = 1
	for i := range dims {
		var b [4]byte
		if _, err := io.ReadFull(r, b[:]); err != nil {
			return fail("reading dimension %d: %v", i, err)
		}
		n := int64(binary.BigEndian.Uint32(b[:]))
		if n > math.MaxInt || n != 0 && int64(size) > min(1<<48, math.MaxInt)/n {
			return fail("dimension %d (%d) makes the data larger than 2^48 bytes", i, n)
		}
		dims[i] = int(n)
		size *= dims[i]
	}
	return dims, size, r, nil
}

// readValues reads the size bytes of the data of an IDX file, named name,
// from r, which must end after them, and returns the value of each, as
// values gives it. It checks first that the memory left
// holds them 9 times over, as bytes and as float64 values. If the file
// holds at least the bytes of its header, as have tells them, or 0 if it
// cannot, it reads them into their values a block at a time; otherwise it
// first holds them as readBytes reads them, in memory in proportion to the
// bytes of the file.
func readValues(r io.Reader, name string, size int, have int64, values *[256]float64) ([]float64, error) {
	if err := checkMemory(9*float64(size), "%s: holding the %d bytes that the header gives, and their values,", name, size); err != nil {
		return nil, err
	}
	var x []float64
	if have >= int64(size) {
		// Blocks of 16 KiB and their 128 KiB of values leave the
		// decompressor's tables and window in the cache.
		x = make([]float64, size)
		defer memory.Huge(x)()
		buf := make([]byte, 16<<10)
		for off := 0; off < size; {
			k, err := io.ReadFull(r, buf[:min(len(buf), size-off)])
			convert(x[off:off+k], buf[:k], values)
			if off += k; err != nil {
				return nil, short(name, off, size, err)
			}
		}
	} else {
		b, err := readBytes(r, name, size, 0, size)
		if err != nil {
			return nil, err
		}
		x = make([]float64, size)
		done := memory.Huge(x)
		convert(x, b, values)
		done()
	}
	if err := atEnd(r, name, size); err != nil {
		return nil, err
	}
	return x, nil
}

// convert sets each of dst to the value of the byte of b at its index.
func convert(dst []float64, b []byte, values *[256]float64) {
	dst = dst[:len(b)]
	for i, p := range b {
		dst[i] = values[p]
	}
}

// readBytes reads the next size bytes of the data of an IDX file, named
// name, from r, of which it read before bytes of all bytes of data, for
// its errors. It holds them as it reads them, in an array that grows twice
// over at a time, so that its memory is in proportion to the bytes that
// the file has, whatever its header says.
func readBytes(r io.Reader, name string, size, before, all int) ([]byte, error) {
	var b []byte
	for len(b) < size {
		if len(b) == cap(b) {
			var err error
			if b, err = growTo(b, min(max(2*cap(b), 64<<10), size)); err != nil {
				return nil, tooLarge(err, "%s: holding the %d bytes read so far", name, len(b))
			}
		}
		k, err := io.ReadFull(r, b[len(b):min(cap(b), size)])
		if b = b[:len(b)+k]; err != nil {
			return nil, short(name, before+len(b), all, err)
		}
	}
	return b, nil
}

// short returns the error of the data of an IDX file, named name, that
// ended after have of its size bytes, with the error err of its reader.
func short(name string, have, size int, err error) error {
	if err == io.ErrUnexpectedEOF {
		err = io.EOF
	}
	return errorf(perceptron.ErrFormat, "%s: %d bytes of data, want %d: %v", name, have, size, err)
}

// atEnd returns an error if r, the data of an IDX file named name, holds
// more than its size bytes, now read, or if reading on gives an error, as
// the check of a gzip file's end may.
func atEnd(r io.Reader, name string, size int) error {
	var b [1]byte
	k, err := io.ReadFull(r, b[:])
	switch {
	case k > 0:
		return errorf(perceptron.ErrFormat, "%s: bytes after the %d of data that the header gives", name, size)
	case err != io.EOF:
		return errorf(perceptron.ErrFormat, "%s: after the %d bytes of data: %v", name, size, err)
	}
	return nil
}
