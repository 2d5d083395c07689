// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package data_test

import (
	"cmp"
	"encoding/json"
	"math"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/seed5ae3614e/perceptron"
	"github.com/seed5ae3614e/perceptron/data"
)

// The tests of Text and Hashing check them against a reading of their
// documentation written plainly here: words by a regular expression,
// MurmurHash3 a byte at a time, the counts in a map; and against
// scikit-learn's HashingVectorizer.

// wordRE matches a word as Hashing defines it.
var wordRE = regexp.MustCompile(`[\p{L}\p{M}\p{Nd}]+`)

// naiveWords returns the words of s, lower-cased.
func naiveWords(s string) []string {
	words := wordRE.FindAllString(s, -1)
	for i, w := range words {
		words[i] = strings.ToLower(w)
	}
	return words
}

// naiveMurmur returns MurmurHash3_x86_32 of key with seed, as Appleby's
// reference computes it.
func naiveMurmur(key []byte, seed uint32) uint32 {
	const c1, c2 = 0xcc9e2d51, 0x1b873593
	rotl := func(x uint32, r uint) uint32 { return x<<r | x>>(32-r) }
	h := seed
	n := len(key) / 4
	for i := range n {
		b := key[4*i:]
		k := uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16 | uint32(b[3])<<24
		k *= c1
		k = rotl(k, 15)
		k *= c2
		h ^= k
		h = rotl(h, 13)
		h = h*5 + 0xe6546b64
	}
	tail := key[4*n:]
	var k uint32
	for i := len(tail) - 1; i >= 0; i-- {
		k = k<<8 | uint32(tail[i])
	}
	if len(tail) > 0 {
		k *= c1
		k = rotl(k, 15)
		k *= c2
		h ^= k
	}
	h ^= uint32(len(key))
	h ^= h >> 16
	h *= 0x85ebca6b
	h ^= h >> 13
	h *= 0xc2b2ae35
	h ^= h >> 16
	return h
}

// naiveRow returns the columns and values of the row of text, as the
// documentation of Hashing defines them.
func naiveRow(h data.Hashing, text string) (cols []int, vals []float64) {
	n, b := cmp.Or(h.NGrams, 1), cmp.Or(h.Bits, 20)
	words := naiveWords(text)
	sums := map[int]float64{}
	total := 0
	for i := range words {
		for j := i + 1; j <= min(i+n, len(words)); j++ {
			x := int32(naiveMurmur([]byte(strings.Join(words[i:j], " ")), h.Seed))
			abs := int64(x)
			if abs < 0 {
				abs = -abs
			}
			sign := 1.0
			if h.Signed && x < 0 {
				sign = -1
			}
			sums[int(abs%(1<<b))] += sign
			total++
		}
	}
	for c, s := range sums {
		if s != 0 {
			cols = append(cols, c)
		}
	}
	slices.Sort(cols)
	norm := 0.0
	for _, c := range cols {
		v := sums[c]
		switch cmp.Or(h.Values, "count") {
		case "binary":
			v = math.Copysign(1, v)
		case "tf":
			v /= float64(total)
		}
		vals = append(vals, v)
		norm += v * v
	}
	if !h.NoNorm {
		norm = math.Sqrt(norm)
		for k := range vals {
			vals[k] /= norm
		}
	}
	return cols, vals
}

// checkRows fails t unless X is a CSR of 2^Bits columns whose rows are
// those that naiveRow gives the texts, to the bit.
func checkRows(t *testing.T, h data.Hashing, X *perceptron.CSR, texts []string) {
	t.Helper()
	r, c := X.Dims()
	if r != len(texts) || c != 1<<cmp.Or(h.Bits, 20) {
		t.Fatalf("%d×%d, want %d×%d", r, c, len(texts), 1<<cmp.Or(h.Bits, 20))
	}
	for i, text := range texts {
		var cols []int
		var vals []float64
		X.DoRowNonZero(i, func(_, j int, v float64) {
			cols = append(cols, j)
			vals = append(vals, v)
		})
		wc, wv := naiveRow(h, text)
		if !slices.Equal(cols, wc) || !slices.Equal(vals, wv) {
			t.Fatalf("row %d of %q, %+v: columns %v values %v, want %v %v", i, text, h, cols, vals, wc, wv)
		}
	}
}

// hashings are the settings that the tests try.
var hashings = []data.Hashing{
	{},
	{NGrams: 2, Bits: 8},
	{NGrams: 3, Bits: 4, Seed: 7, Signed: true},
	{NGrams: 2, Bits: 12, Values: "binary", NoNorm: true},
	{NGrams: 2, Bits: 3, Values: "binary", Signed: true},
	{Bits: 30, Values: "tf"},
	{NGrams: 4, Bits: 1, Values: "tf", NoNorm: true, Signed: true},
	{Values: "count", NoNorm: true},
}

// texts are texts of every kind of character that words take or leave.
var texts = []string{
	"",
	"   \t ",
	"Hello, World! hello world",
	"Don't re-use X_1, 3.14!",
	"ÉCOLE école Straße STRASSE ΣΊΣΥΦΟΣ σίσυφος",
	"cafe\u0301 café e\u0301",
	"東京、大阪 ١٢٣ ๑๒๓ 三",
	"new york new york new york",
	"a b a b a b a b a b a b",
	"İstanbul K Ⱥ ǅ",
	"x\u00a0y\u2003z\u2028w",
	"\u0301 ́alone",
}

// TestHashingTransform checks Transform's rows against naiveRow.
func TestHashingTransform(t *testing.T) {
	for _, h := range hashings {
		X, err := h.Transform(texts)
		if err != nil {
			t.Fatalf("%+v: %v", h, err)
		}
		checkRows(t, h, X, texts)
	}
}

// TestHashingWords checks the documented tokenisation on examples: each
// text gives the row of its words written plainly, lower-cased and
// joined by spaces.
func TestHashingWords(t *testing.T) {
	h := data.Hashing{NGrams: 2, Bits: 30}
	for _, tc := range []struct{ text, words string }{
		{"Don't re-use X_1, 3.14!", "don t re use x 1 3 14"},
		{"ÉCOLE Straße ΣΊΣΥΦΟΣ", "école straße σίσυφοσ"},
		{"cafe\u0301\tcafé", "cafe\u0301 café"},
		{"東京、大阪", "東京 大阪"},
		{"x86_64, i386; C++", "x86 64 i386 c"},
		{"١٢٣ ٣", "١٢٣ ٣"},
		{"İSTANBUL", "istanbul"},
		{"--\u2014 \u00a0", ""},
	} {
		X, err := h.Transform([]string{tc.text, tc.words})
		if err != nil {
			t.Fatal(err)
		}
		var rows [2][]int
		for i := range 2 {
			X.DoRowNonZero(i, func(_, j int, _ float64) { rows[i] = append(rows[i], j) })
		}
		if !slices.Equal(rows[0], rows[1]) {
			t.Errorf("%q: columns %v, want those of %q, %v", tc.text, rows[0], tc.words, rows[1])
		}
		if got := naiveWords(tc.text); strings.Join(got, " ") != tc.words {
			t.Errorf("the plain reading of %q is %q, want %q", tc.text, got, tc.words)
		}
	}
	// Composed and decomposed accents are different words.
	X, err := data.Hashing{Bits: 30}.Transform([]string{"café", "cafe\u0301"})
	if err != nil {
		t.Fatal(err)
	}
	if X.At(0, colOf(X, 1)) != 0 {
		t.Error("café composed and decomposed share their column")
	}
}

// colOf returns the first column of row i of X, or -1.
func colOf(X *perceptron.CSR, i int) int {
	col := -1
	X.DoRowNonZero(i, func(_, j int, _ float64) {
		if col < 0 {
			col = j
		}
	})
	return col
}

// TestHashingSklearn checks Transform against the rows that
// scikit-learn 1.2.1's HashingVectorizer gives, which
// testdata/text_sklearn.py writes into testdata/text_sklearn.json: the
// same columns and signs, and values within a rounding of its float64 L2
// norm, which sums in another order.
func TestHashingSklearn(t *testing.T) {
	b, err := os.ReadFile("testdata/text_sklearn.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct {
		Hashing data.Hashing
		Texts   []string
		Indptr  []int
		Indices []int
		Data    []float64
	}
	if err := json.Unmarshal(b, &cases); err != nil {
		t.Fatal(err)
	}
	if len(cases) == 0 {
		t.Fatal("no cases")
	}
	for _, tc := range cases {
		X, err := tc.Hashing.Transform(tc.Texts)
		if err != nil {
			t.Fatal(err)
		}
		for i := range tc.Texts {
			lo, hi := tc.Indptr[i], tc.Indptr[i+1]
			want := map[int]float64{}
			for k := lo; k < hi; k++ {
				if tc.Data[k] != 0 { // scikit-learn keeps the zeros of signs that cancel
					want[tc.Indices[k]] = tc.Data[k]
				}
			}
			n := 0
			X.DoRowNonZero(i, func(_, j int, v float64) {
				n++
				w, ok := want[j]
				if !ok || math.Abs(v-w) > 4e-16*math.Abs(w) {
					t.Errorf("%+v, %q: column %d is %v, scikit-learn's %v", tc.Hashing, tc.Texts[i], j, v, w)
				}
			})
			if n != len(want) {
				t.Errorf("%+v, %q: %d columns, scikit-learn's %d", tc.Hashing, tc.Texts[i], n, len(want))
			}
		}
	}
}

// TestHashingJSON checks the stable form of a Hashing, and that it loads
// back into the same.
func TestHashingJSON(t *testing.T) {
	h := data.Hashing{NGrams: 2, Bits: 18, Seed: 7, Signed: true, Values: "tf", NoNorm: true}
	b, err := json.Marshal(h)
	if err != nil {
		t.Fatal(err)
	}
	const want = `{"ngrams":2,"bits":18,"seed":7,"signed":true,"values":"tf","noNorm":true}`
	if string(b) != want {
		t.Errorf("%s, want %s", b, want)
	}
	var back data.Hashing
	if err := json.Unmarshal(b, &back); err != nil || back != h {
		t.Errorf("loaded %+v, %v; want %+v", back, err, h)
	}
	if b, _ := json.Marshal(data.Hashing{}); string(b) != `{"ngrams":0,"bits":0,"seed":0,"signed":false,"values":"","noNorm":false}` {
		t.Errorf("the zero Hashing is %s", b)
	}
}

func TestHashingErrors(t *testing.T) {
	for _, tc := range []struct {
		h     data.Hashing
		texts []string
		msg   string
	}{
		{data.Hashing{Bits: -1}, nil, "data: the Hashing's Bits is -1, want 0 (for 20) or a number of bits from 1 to 30"},
		{data.Hashing{Bits: 31}, nil, "data: the Hashing's Bits is 31"},
		{data.Hashing{NGrams: -2}, nil, "data: the Hashing's NGrams is -2, want 0 (for 1) or more"},
		{data.Hashing{Values: "tfidf"}, nil, `data: the Hashing's Values is "tfidf", want "count" or "", "binary" or "tf"`},
		{data.Hashing{}, []string{"ok", "caf\xe9 cr\xe8me"}, "data: texts[1]: byte 4 is not UTF-8"},
	} {
		X, err := tc.h.Transform(tc.texts)
		if err == nil || X != nil || !strings.HasPrefix(err.Error(), tc.msg) {
			t.Errorf("%+v: %v, %v; want an error starting %q", tc.h, X, err, tc.msg)
		}
	}
	X, err := data.Hashing{Bits: 5}.Transform(nil)
	if err != nil {
		t.Fatal(err)
	}
	if r, c := X.Dims(); r != 0 || c != 32 {
		t.Errorf("no texts: %d×%d, want 0×32", r, c)
	}
}

// naiveText reads the lines of labelled text as Text's documentation
// says: the label of each row that has one, and the text of each row.
func naiveText(in string, tab bool) (labels, rows []string, some, all bool) {
	all = true
	for _, line := range strings.Split(strings.TrimPrefix(in, "\ufeff"), "\n") {
		line = strings.TrimSuffix(line, "\r")
		if strings.TrimSpace(line) == "" {
			continue
		}
		label, text, has := "", line, false
		if tab {
			var l string
			if l, text, has = strings.Cut(line, "\t"); has {
				label = strings.TrimSpace(l)
			} else {
				text = line
			}
		} else {
			var words []string
			for _, tok := range strings.Fields(line) {
				if name, ok := strings.CutPrefix(tok, "__label__"); ok {
					if !has {
						label, has = name, true
					}
					continue
				}
				words = append(words, tok)
			}
			text = strings.Join(words, " ")
		}
		some, all = some || has, all && has
		labels = append(labels, label)
		rows = append(rows, text)
	}
	return labels, rows, some, all
}

func TestTextRead(t *testing.T) {
	for _, tc := range []struct {
		name    string
		in      string
		f       data.Text
		classes []string
		y       []float64
	}{
		{"fastText", "__label__b Hello world\n\n__label__a the end of it.\r\n  __label__b  x\n", data.Text{}, []string{"a", "b"}, []float64{1, 0, 1}},
		{"labels anywhere", "word __label__x more __label__y words\n__label__y\n", data.Text{Hashing: data.Hashing{NGrams: 2}}, []string{"x", "y"}, []float64{0, 1}},
		{"prefix within a token", "__label__a a__label__b\n", data.Text{Hashing: data.Hashing{NGrams: 2}}, []string{"a"}, []float64{0}},
		{"no labels", "\ufeffone text\nanother\n", data.Text{}, nil, nil},
		{"tab", "spam\tBuy now!\n ham \tsee you __label__x\nspam\tonly text\n", data.Text{Tab: true}, []string{"ham", "spam"}, []float64{1, 0, 1}},
		{"tab labels", "spam\tBuy now!\n ham \tsee you __label__x\nspam\t\n", data.Text{Tab: true, Hashing: data.Hashing{NGrams: 3, Bits: 6}}, []string{"ham", "spam"}, []float64{1, 0, 1}},
		{"tab without labels", "no tab here\nnor here\n", data.Text{Tab: true}, nil, nil},
		{"known classes", "__label__b x\n__label__c y\n", data.Text{Classes: []string{"c", "a"}}, []string{"c", "a", "b"}, []float64{2, 0}},
		{"numbers", "__label__10 x\n__label__9 y\n__label__1e1 z\n", data.Text{}, []string{"9", "10"}, []float64{1, 0, 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, in := range []string{tc.in, string(gzipped(t, []byte(tc.in)))} {
				s, err := tc.f.Read(strings.NewReader(in))
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(s.Classes, tc.classes) || !slices.Equal(s.Y, tc.y) || s.Features != nil || s.Dropped != 0 {
					t.Errorf("classes %q, y %v, features %q, dropped %d; want %q, %v", s.Classes, s.Y, s.Features, s.Dropped, tc.classes, tc.y)
				}
				_, rows, _, _ := naiveText(tc.in, tc.f.Tab)
				checkRows(t, tc.f.Hashing, s.X.(*perceptron.CSR), rows)
			}
		})
	}
}

func TestTextReadErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   string
		f    data.Text
		subs []string
	}{
		{"empty", "", data.Text{}, []string{"no rows"}},
		{"blank", "\n  \n\t\n", data.Text{}, []string{"no rows"}},
		{"empty label", "__label__a x\n__label__ y\n", data.Text{}, []string{"line 2: the label is empty"}},
		{"empty tab label", "a\tx\n \ty\n", data.Text{Tab: true}, []string{"line 2: the label is empty"}},
		{"a label missing", "__label__a x\n\ny\n", data.Text{}, []string{"line 3: no label, and line 1 one: want a label on every line or on none"}},
		{"a label too many", "x\n__label__a y\n", data.Text{}, []string{"line 2: a label, and line 1 none"}},
		{"a tab missing", "a\tx\ny\n", data.Text{Tab: true}, []string{"line 2: no label, and line 1 one"}},
		{"not UTF-8", "__label__a x\n__label__b ab\xffc\n", data.Text{}, []string{"line 2: byte 14 is not UTF-8"}},
		{"not UTF-8 after a tab", "a\tx\nbb\tab\xffc\n", data.Text{Tab: true}, []string{"line 2: byte 6 is not UTF-8"}},
		{"label not UTF-8", "__label__\xff x\n", data.Text{}, []string{"line 1: byte 10 is not UTF-8"}},
		{"second label not UTF-8", "__label__a __label__b\xff x\n", data.Text{}, []string{"line 1: byte 22 is not UTF-8"}},
		{"label with a return", "a\rb\tx\n", data.Text{Tab: true}, []string{"line 1: the label \"a\\rb\" holds a tab or another control character, U+FEFF or bytes not UTF-8"}},
		{"long line", "__label__a " + strings.Repeat("x", 30) + "\n", data.Text{MaxLine: 40}, []string{"line 1: longer than 40 bytes"}},
		{"not finite", "__label__1 x\n__label__inf y\n", data.Text{}, []string{"line 2: the label \"inf\" is not a finite number"}},
		{"bad Hashing", "__label__a x\n", data.Text{Hashing: data.Hashing{Bits: 40}}, []string{"the Hashing's Bits is 40"}},
		{"twice known", "__label__a x\n", data.Text{Classes: []string{"a", "a"}}, []string{"the known classes 1 and 2 are both \"a\""}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := tc.f.Read(strings.NewReader(tc.in))
			if s != nil {
				t.Errorf("a Set with the error %v", err)
			}
			checkReadErr(t, err, tc.subs...)
		})
	}
	if _, err := (data.Text{}).Read(nil); err == nil {
		t.Error("no error reading a nil io.Reader")
	}
}

// TestTextUnderGoLimit reads and transforms, under a Go memory limit 16
// MiB above the memory in use, text that needs more than it: each refuses
// it with an error of kind ErrTooLarge that names the line or the text.
func TestTextUnderGoLimit(t *testing.T) {
	long := strings.Repeat("a ", 1<<18) // of 2^18 words, and 2^36 n-grams of 2^18 words at most
	for _, tc := range []struct {
		name string
		call func() error
		subs []string
	}{
		{"rows", func() error {
			_, err := data.Text{}.Read(&repeated{line: "__label__a one two three four five six seven\n", n: 4 << 20})
			return err
			// The rows and their classes grow apart, and either may be the
			// first to outgrow the room left.
		}, []string{"line ", " up to it needs "}},
		{"n-grams", func() error {
			_, err := data.Text{Hashing: data.Hashing{NGrams: 1000}}.Read(strings.NewReader(long))
			return err
		}, []string{"line 1: holding the ", " n-grams of the text needs "}},
		{"Transform", func() error {
			_, err := data.Hashing{NGrams: 1 << 18}.Transform([]string{"a", long})
			return err
		}, []string{"data: texts[1]: holding the ", " n-grams of the text needs "}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var err error
			withMemoryLimit(16<<20, func() { err = tc.call() })
			checkTooLarge(t, err, tc.subs...)
		})
	}
}
