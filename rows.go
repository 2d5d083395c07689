// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package perceptron

import (
	"slices"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"

	"github.com/seed5ae3614e/perceptron/internal/memory"
	"github.com/seed5ae3614e/perceptron/internal/simd"
)

// rows is a matrix of samples as the algorithms read it, one row at a
// time: dense, every value of a row in a run of data, or sparse, in
// compressed sparse row form. Every algorithm reads its data through rows
// and vec: rowsOf reads a matrix as dense or sparse rows, and the methods
// of rows and vec part the two. Other code parts them again where what it
// stores or its speed depends on the form, such as the saved form of rows
// (rowsJSON), the memory of Kernel's blocks (trainerWords), the scores of
// a weight table, the visits, which also ask for the weights of sparse
// rows ahead, the votes of Voted, the kernel values of many vectors at
// once (kern.many), and the working set of the max-margin solver
// (nearest.go).
type rows struct {
	n, d int

	// Dense rows: row i is data[i·stride:i·stride+d].
	stride int
	data   []float64

	// Sparse rows, if ptr is not nil: row i holds the values
	// data[ptr[i]:ptr[i+1]] at the columns ind[ptr[i]:ptr[i+1]], in
	// increasing order.
	ptr []int
	ind []int
}

// rowsOf returns the rows of X: those of a mat.RawMatrixer, such as
// *mat.Dense, and of a *CSR in place; those of any other
// mat.RowNonZeroDoer copied once, sparse; and those of any other matrix
// copied once, dense. It returns an error naming the row and the column
// if a mat.RowNonZeroDoer yields an element out of range, twice, or NaN
// or infinite.
func rowsOf(X mat.Matrix) (*rows, error) {
	switch m := X.(type) {
	case mat.RawMatrixer:
		raw := m.RawMatrix()
		return &rows{n: raw.Rows, d: raw.Cols, stride: raw.Stride, data: raw.Data}, nil
	case *CSR:
		if m.ptr == nil { // the zero CSR
			return &rows{d: m.c, ptr: []int{0}, ind: noColumns}, nil
		}
		return &rows{n: m.r, d: m.c, ptr: m.ptr, ind: m.ind, data: m.val}, nil
	case mat.RowNonZeroDoer:
		return sparseCopy(X, m)
	}
	n, d := X.Dims()
	if err := memory.Check(8 * float64(n) * float64(d)); err != nil {
		return nil, tooLarge(err, "a copy of X, %d×%d,", n, d)
	}
	raw := mat.DenseCopyOf(X).RawMatrix()
	return &rows{n: raw.Rows, d: raw.Cols, stride: raw.Stride, data: raw.Data}, nil
}

// sparseCopy copies the rows of X, which m reads, into sparse rows. A
// first pass counts the elements, so that the second writes them once,
// into their place, where each row is checked, and sorted if it came out
// of order: the copy costs two calls of DoRowNonZero's function an
// element, and one write.
func sparseCopy(X mat.Matrix, m mat.RowNonZeroDoer) (*rows, error) {
	n, d := X.Dims()
	nnz := 0
	count := func(int, int, float64) { nnz++ }
	for i := range n {
		m.DoRowNonZero(i, count)
	}
	if err := memory.Check(8 * (2*float64(nnz) + float64(n+1))); err != nil {
		return nil, tooLarge(err, "a copy of X, %d rows of %d elements,", n, nnz)
	}
	r := &rows{n: n, d: d, ptr: make([]int, 1, n+1), ind: make([]int, 0, nnz), data: make([]float64, 0, nnz)}
	add := func(_, j int, v float64) {
		r.ind = append(r.ind, j)
		r.data = append(r.data, v)
	}
	for i := range n {
		lo := len(r.ind)
		m.DoRowNonZero(i, add)
		x := vec{r.ind[lo:], r.data[lo:]}
		err := checkSparseRow(i, x.ind, x.val, d)
		if err != nil && !slices.IsSorted(x.ind) {
			sortVec(x)
			err = checkSparseRow(i, x.ind, x.val, d)
		}
		if err != nil {
			return nil, wrapf(err, "perceptron: X row %d: %w", i, err)
		}
		r.ptr = append(r.ptr, len(r.ind))
	}
	return r, nil
}

// newRows returns an empty store of rows of length d, sparse or dense,
// which append fills, with room for size dense rows. The sparse rows of a
// store start at element 0, and its dense rows follow one another.
func newRows(d, size int, sparse bool) *rows {
	if sparse {
		return &rows{d: d, ptr: []int{0}, ind: noColumns}
	}
	return &rows{d: d, stride: d, data: make([]float64, 0, size*d)}
}

// sparse reports whether the rows are sparse.
func (r *rows) sparse() bool { return r.ptr != nil }

// dense returns row i of dense rows.
func (r *rows) dense(i int) []float64 {
	off := i * r.stride
	return r.data[off : off+r.d : off+r.d]
}

// dots sets dst[q] to the dot product of the dense row i+q with w, as dot
// forms it, for the len(dst) dense rows from row i, several at a time.
func (r *rows) dots(dst []float64, i int, w []float64) {
	simd.DotRows(dst, r.data[i*r.stride:], r.stride, w)
}

// scores sets dst[q·S:(q+1)·S] to the S products of the dense row i+q with
// the columns of the d×S matrix w, held row by row, as gemvT forms them,
// for the len(dst)/S dense rows from row i, several at a time.
func (r *rows) scores(dst []float64, i int, w []float64, S int) {
	simd.ScoresRows(dst, w, r.data[i*r.stride:], S, r.d, r.stride)
}

// row returns row i.
func (r *rows) row(i int) vec {
	if r.ptr != nil {
		lo, hi := r.ptr[i], r.ptr[i+1]
		return vec{r.ind[lo:hi:hi], r.data[lo:hi:hi]}
	}
	return vec{val: r.dense(i)}
}

// sub returns rows lo to hi-1 of r, in place.
func (r *rows) sub(lo, hi int) rows {
	if r.sparse() {
		return rows{n: hi - lo, d: r.d, ptr: r.ptr[lo : hi+1], ind: r.ind, data: r.data}
	}
	return rows{n: hi - lo, d: r.d, stride: r.stride, data: r.data[lo*r.stride:]}
}

// clone returns a copy of a store from newRows that shares nothing with
// it.
func (r *rows) clone() *rows {
	c := *r
	c.data, c.ptr, c.ind = slices.Clone(r.data), slices.Clone(r.ptr), slices.Clone(r.ind)
	return &c
}

// reset empties a store from newRows, keeping its memory.
func (r *rows) reset() {
	r.n, r.data = 0, r.data[:0]
	if r.sparse() {
		r.ptr, r.ind = r.ptr[:1], r.ind[:0]
	}
}

// append adds a copy of x as the last row of a store from newRows, in the
// store's form: a sparse store keeps the non-zeros of a dense x.
func (r *rows) append(x vec) {
	r.n++
	switch {
	case r.sparse() && x.ind != nil:
		r.ind = append(r.ind, x.ind...)
		r.data = append(r.data, x.val...)
	case r.sparse():
		for j, v := range x.val {
			if v != 0 {
				r.ind = append(r.ind, j)
				r.data = append(r.data, v)
			}
		}
	case x.ind != nil:
		off := len(r.data)
		r.data = slices.Grow(r.data, r.d)[:off+r.d]
		x.denseTo(r.data[off:])
		return
	default:
		r.data = append(r.data, x.val...)
		return
	}
	r.ptr = append(r.ptr, len(r.ind))
}

// reserve makes room in a store from newRows for n more rows of nnz
// elements in all.
func (r *rows) reserve(n, nnz int) {
	if r.sparse() {
		r.ptr = slices.Grow(r.ptr, n)
		r.ind, r.data = slices.Grow(r.ind, nnz), slices.Grow(r.data, nnz)
		return
	}
	r.data = slices.Grow(r.data, n*r.d)
}

// swapRemove removes row i of a store from newRows, moving the last row
// into its place.
func (r *rows) swapRemove(i int) {
	last := r.n - 1
	r.n--
	if !r.sparse() {
		copy(r.data[i*r.d:(i+1)*r.d], r.data[last*r.d:])
		r.data = r.data[:last*r.d]
		return
	}
	// Move the last row's elements over row i's, shifting those between.
	lo, hi, end := r.ptr[i], r.ptr[i+1], r.ptr[last]
	x := r.row(last)
	if i < last {
		ind, val := slices.Clone(x.ind), slices.Clone(x.val)
		shift := len(ind) - (hi - lo)
		r.ind = slices.Replace(r.ind[:end], lo, hi, ind...)
		r.data = slices.Replace(r.data[:end], lo, hi, val...)
		for p := i + 1; p <= last; p++ {
			r.ptr[p] += shift
		}
	} else {
		r.ind, r.data = r.ind[:lo], r.data[:lo]
	}
	r.ptr = r.ptr[:last+1]
}

// products sets dst[q] = a_q·v for the len(dst) rows a_q of r: dense rows
// and a dense v all at once, with gonum's matrix-vector product, whose
// rounding may differ from that of dot.
func (r *rows) products(dst []float64, v vec) {
	if r.sparse() || v.ind != nil {
		for q := range dst {
			dst[q] = r.row(q).dotVec(v)
		}
		return
	}
	blas64.Gemv(blas.NoTrans, 1,
		blas64.General{Rows: len(dst), Cols: r.d, Stride: r.stride, Data: r.data},
		blas64.Vector{N: r.d, Inc: 1, Data: v.val},
		0, blas64.Vector{N: len(dst), Inc: 1, Data: dst})
}

// rowError returns an error naming the first NaN or infinity in row i, or
// nil if the row has none.
func (r *rows) rowError(i int) error {
	x := r.row(i)
	if k := nonFinite(x.val); k >= 0 {
		return errorAt(ErrNonFinite, i, x.col(k), "perceptron: X[%d, %d] is %v, want a finite value", i, x.col(k), x.val[k])
	}
	return nil
}

// check returns an error naming the first NaN or infinity in the rows
// taken in order, or in index order if order is nil, for the routines
// that must trust every row before they read any. The products of a
// dense row with zeros are all zero unless an element is NaN or infinite,
// so a dot product finds a bad row at the speed of the assembly, and the
// slow search runs only on a bad row. Sparse rows are searched in their
// values alone: a row of zeros as wide as theirs may not fit in memory.
func (r *rows) check(order []int) error {
	if r.sparse() {
		for p := range r.n {
			if err := r.rowError(rowAt(order, p)); err != nil {
				return err
			}
		}
		return nil
	}
	zeros := make([]float64, r.d)
	for p := range r.n {
		i := rowAt(order, p)
		if x := r.row(i); x.dot(zeros) != 0 {
			if err := r.rowError(i); err != nil {
				return err
			}
		}
	}
	return nil
}

// prefetchBytes is the least size of dense rows whose shuffled epochs
// prefetch the next row, and of the weight tables whose epochs on sparse
// rows prefetch the weights of the next row's columns: what fits in the
// caches is read as fast in any order. Tests lower it.
var prefetchBytes = 1 << 20

// prefetches reports whether a shuffled epoch on r prefetches the row of
// the next visit.
func (r *rows) prefetches() bool {
	return !r.sparse() && 8*r.d*r.n >= prefetchBytes
}

// prefetchesWeights reports whether an epoch on r with S scores asks for
// the weights of the next visit's columns: for sparse rows of a weight
// table of many scores of at least prefetchBytes, whose lines a row's
// scores read from all over the table.
func (r *rows) prefetchesWeights(S int) bool {
	return r.sparse() && S > 1 && 8*r.d*S >= prefetchBytes
}

// prefetchRow asks the processor to load the cache lines of dense row i,
// so that a visit in a random order finds the row on its way while the
// visit before it runs, where it would wait for the row to stream in.
func (r *rows) prefetchRow(i int) {
	simd.Prefetch(r.dense(i))
}

// prefetchSparse asks the processor to load the cache lines of the
// columns and values of sparse row i.
func (r *rows) prefetchSparse(i int) {
	lo, hi := r.ptr[i], r.ptr[i+1]
	simd.PrefetchInts(r.ind[lo:hi])
	simd.Prefetch(r.data[lo:hi])
}

// prefetchWeights asks the processor to load the cache lines of the S
// weights of each column of sparse row i in w, held row by row.
func (r *rows) prefetchWeights(w []float64, i, S int) {
	simd.PrefetchRows(w, S, r.ind[r.ptr[i]:r.ptr[i+1]])
}

// rowAt returns the row at position p of an epoch's order, which is nil
// for index order.
func rowAt(order []int, p int) int {
	if order == nil {
		return p
	}
	return order[p]
}

// words returns the words, float64s and ints of 8 bytes, that a copy of
// the rows takes in a store: n·d for dense rows, and for sparse rows a
// column and a value per element and a start per row.
func (r *rows) words() float64 {
	if r.sparse() {
		return 2*float64(r.ptr[r.n]-r.ptr[0]) + float64(r.n+1)
	}
	return float64(r.n) * float64(r.d)
}

// matrix returns a copy of a store from newRows or rowsJSON.rows as a
// matrix: a *CSR of sparse rows, a *mat.Dense of dense ones, or an empty
// *mat.Dense if there are none.
func (r *rows) matrix() mat.Matrix {
	if r.sparse() {
		nnz := r.ptr[r.n]
		return &CSR{r: r.n, c: r.d, ptr: slices.Clone(r.ptr[:r.n+1]), ind: slices.Clone(r.ind[:nnz]), val: slices.Clone(r.data[:nnz])}
	}
	if r.n == 0 {
		return &mat.Dense{}
	}
	return mat.NewDense(r.n, r.d, slices.Clone(r.data[:r.n*r.d]))
}
