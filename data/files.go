// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package data

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// ReadFile reads the file at path, gzipped or not, as Read reads a
// reader. Its errors start with the path, as those of package os do.
func (f LIBSVM) ReadFile(path string) (*Set, error) {
	return readFile(path, f.Read)
}

// ReadFile reads the file at path, gzipped or not, as Read reads a
// reader. Its errors start with the path, as those of package os do.
func (f CSV) ReadFile(path string) (*Set, error) {
	return readFile(path, f.Read)
}

// readFile returns what read returns of the file at path, with the path
// before the error.
func readFile(path string, read func(io.Reader) (*Set, error)) (*Set, error) {
	r, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	s, err := read(r)
	if err != nil {
		return nil, wrapf(err, "%s: %w", path, err)
	}
	return s, nil
}

// ReadFile reads the IDX file of images at the path images, and the file
// of their labels at the path labels, each gzipped or not, as Read reads
// them. If labels is "", it reads the file that LabelsFile names, if there
// is one, and otherwise the images alone, into a Set without labels. Its
// errors start with the path of the file they are about.
func (f IDX) ReadFile(images, labels string) (*Set, error) {
	im, err := os.Open(images)
	if err != nil {
		return nil, err
	}
	defer im.Close()
	if labels == "" {
		labels = f.LabelsFile(images)
		if _, err := os.Stat(labels); errors.Is(err, fs.ErrNotExist) {
			labels = ""
		}
	}
	var lb io.Reader
	if labels != "" {
		r, err := os.Open(labels)
		if err != nil {
			return nil, err
		}
		defer r.Close()
		lb = r
	}
	return f.read(im, lb, images, labels)
}

// LabelsFile returns the path of the file of labels of the IDX file of
// images at the path images, as MNIST and Fashion-MNIST name them: images
// in the name of the file becomes labels, and idx3 idx1, as
// train-images-idx3-ubyte.gz has its labels in
// train-labels-idx1-ubyte.gz. It returns "" if the name holds no images
// or no idx3.
func (IDX) LabelsFile(images string) string {
	dir, base := filepath.Split(images)
	if !strings.Contains(base, "images") || !strings.Contains(base, "idx3") {
		return ""
	}
	base = strings.Replace(strings.Replace(base, "images", "labels", 1), "idx3", "idx1", 1)
	return dir + base
}

// ReadFile reads the file at path, gzipped or not, as Read reads a
// reader. Its errors start with the path, as those of package os do.
func (f Text) ReadFile(path string) (*Set, error) {
	return readFile(path, f.Read)
}
