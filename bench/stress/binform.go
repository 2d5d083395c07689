// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"

	"github.com/seed5ae3614e/perceptron"
	"github.com/seed5ae3614e/perceptron/data"
)

// binaryTests are the model cases of the binary form: the wide model of
// modelTests saved and loaded in it by the command, a form whose header
// claims more weights than the memory holds, every prefix of a form of
// each type, and seeded random changes to them, each refused with an
// error or loaded into a classifier that scores rows and saves.
func binaryTests() []test {
	ts := []test{
		{name: "binary/wide-train", kib: quickModel, code: 0, args: func(s *suite) ([]string, error) {
			svm, err := s.wideData()
			return append(append([]string{"train"}, wideFlags...), "-o", filepath.Join(s.dir, "m.model"), svm), err
		}},
		{name: "binary/wide-predict", kib: quickModel, code: 0, want: `Accuracy = 100% \(2/2\)`, args: func(s *suite) ([]string, error) {
			svm, err := s.wideData()
			if err != nil {
				return nil, err
			}
			m, err := s.file("wide.model", s.trained(svm))
			return []string{"predict", "-model", m, svm}, err
		}},
		// A Perceptron of 2^30 weights, 8 GiB, which its few bytes of
		// sparse tables claim: refused for the memory, not allocated.
		{name: "binary/claims-2^30", code: 1, want: `^.*claims\.model: classifier: .*needs 8\.0 GiB of memory`, args: func(s *suite) ([]string, error) {
			m, err := s.file("claims.model", claimsModel(1<<30))
			if err != nil {
				return nil, err
			}
			svm, err := s.file("claims.svm", text("1 1:1\n"))
			return []string{"predict", "-model", m, svm}, err
		}},
		{name: "binary/truncated", code: 0, lib: func(*suite, []string) (string, error) {
			forms, err := binaryModels()
			if err != nil {
				return "", err
			}
			n := 0
			for _, m := range forms {
				for i := range m.json {
					if _, err := perceptron.Unmarshal(m.json[:i]); err == nil {
						return "", fmt.Errorf("the %s form cut to %d bytes of %d loads", m.name, i, len(m.json))
					}
					n++
				}
			}
			return fmt.Sprintf("%d cut forms of %d types refused", n, len(forms)), nil
		}},
	}
	forms, err := binaryModels()
	if err != nil {
		panic(err)
	}
	for k, m := range forms {
		ts = append(ts, test{name: "binary/fuzz/" + m.name, code: 0, lib: func(s *suite, _ []string) (string, error) {
			rng := rand.New(rand.NewPCG(s.seed, uint64(1000+k)))
			n, loaded := s.sized(20000, 500), 0
			for i := range n {
				b := mutateBytes(rng, m.json)
				if use(b, func() {
					fmt.Fprintf(os.Stderr, "stress: mutation %d of the %s form, seed %d: %x\n", i, m.name, s.seed, b)
				}) {
					loaded++
				}
			}
			return fmt.Sprintf("%d changed forms: %d loaded, %d refused", n, loaded, n-loaded), nil
		}})
	}
	return ts
}

// binaryModels returns the models of models in the binary form, in name
// and json.
func binaryModels() ([]model, error) {
	ms, err := models()
	if err != nil {
		return nil, err
	}
	for k, m := range ms {
		c, err := perceptron.Unmarshal(m.json)
		if err != nil {
			return nil, err
		}
		if ms[k].json, err = perceptron.Marshal(c); err != nil {
			return nil, fmt.Errorf("%s: %v", m.name, err)
		}
		if _, ok := c.(*perceptron.Averaged); ok {
			// The form of what its predictions read alone, of an absent
			// table.
			if err := perceptron.PredictOnly(c); err != nil {
				return nil, err
			}
			b, err := perceptron.Marshal(c)
			if err != nil {
				return nil, fmt.Errorf("%s: %v", m.name, err)
			}
			ms = append(ms, model{m.name + "-predict-only", b})
		}
	}
	return ms, nil
}

// mutateBytes returns b with one to three random changes of its bytes: a
// byte set to a random value or to one of the edges of a field, a span
// deleted or repeated, or the end cut off.
func mutateBytes(rng *rand.Rand, b []byte) []byte {
	b = bytes.Clone(b)
	for range 1 + rng.IntN(3) {
		if len(b) == 0 {
			return b
		}
		i := rng.IntN(len(b))
		j := min(len(b), i+1+rng.IntN(16))
		switch rng.IntN(6) {
		case 0, 1:
			b[i] = byte(rng.IntN(256))
		case 2:
			b[i] = []byte{0, 1, 2, 0x7f, 0x80, 0xff}[rng.IntN(6)]
		case 3:
			b = slices.Concat(b[:i], b[j:])
		case 4:
			k := rng.IntN(len(b))
			b = slices.Concat(b[:k], b[i:j], b[k:])
		case 5:
			b = b[:i]
		}
	}
	return b
}

// claimsModel returns a maker of a model file in the binary form of a
// Perceptron of d columns and two classes, its weights all zero but two,
// so that its tables take a few bytes.
func claimsModel(d int) func(string) error {
	return func(path string) error {
		const fitted = 100 // the columns of the Perceptron that is written
		X, err := perceptron.NewCSR(2, fitted, []int{0, 1, 2}, []int{0, 1}, []float64{1, 1})
		if err != nil {
			return err
		}
		p := &perceptron.Perceptron{}
		if err := p.Fit(X, []float64{1, -1}); err != nil {
			return err
		}
		m := &data.Model{Classifier: p, Classes: []string{"-1", "1"}}
		var b bytes.Buffer
		if _, err := m.WriteTo(&b); err != nil {
			return err
		}
		// The head's features, and the classifier's columns in its
		// header, set to d: a varint of the same length would not do, so
		// the form is written again around them.
		form := b.Bytes()
		lib, err := perceptron.Marshal(p)
		if err != nil {
			return err
		}
		at := bytes.Index(form, lib)
		binary.LittleEndian.PutUint64(lib[8:], uint64(d))
		head := binary.AppendVarint(nil, int64(d))
		old := binary.AppendVarint(nil, fitted)
		n := binary.LittleEndian.Uint64(form[8:])
		out := slices.Concat(form[:16], head, form[16+len(old):at-8])
		binary.LittleEndian.PutUint64(out[8:], n-uint64(len(old))+uint64(len(head)))
		out = binary.LittleEndian.AppendUint64(out, uint64(len(lib)))
		return os.WriteFile(path, append(out, lib...), 0o644)
	}
}
