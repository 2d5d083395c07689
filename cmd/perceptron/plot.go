// Copyright ©2026 The perceptron Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"bytes"
	"fmt"
	"image/color"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/seed5ae3614e/perceptron"
	"github.com/seed5ae3614e/perceptron/data"
)

// plotFormats are the plot formats that the help names; draw.Formats has
// a few more, which work too.
const plotFormats = ".svg, .png or .pdf"

// plotFormat returns the image format of the plot file path, told by its
// extension.
func plotFormat(path string) (string, error) {
	ext := strings.ToLower(strings.TrimPrefix(filepath.Ext(path), "."))
	if ext == "" || !slices.Contains(draw.Formats(), ext) {
		return "", usagef("-plot %s: want a file name ending in %s (or .%s)", path, plotFormats, strings.Join(slices.DeleteFunc(draw.Formats(), func(f string) bool {
			return strings.Contains(plotFormats, "."+f)
		}), ", ."))
	}
	return ext, nil
}

// The plots are in Liberation Sans, which a browser that lacks it shows
// in a font of the same widths, named after it in the SVG file.
func init() {
	plot.DefaultFont = font.Font{Typeface: "Liberation", Variant: "Sans"}
}

var (
	svgFont     = []byte("font-family:Liberation Sans;")
	svgFallback = []byte("font-family:'Liberation Sans',Arial,Helvetica,sans-serif;")
)

// gridSize is the number of points of the grid, along each axis, on which
// the boundaries are traced.
const gridSize = 200

// Sizes of the plots and the space between them and their legends.
const (
	plotWidth  = 13 * vg.Centimeter
	plotHeight = 11 * vg.Centimeter
	legendGap  = 4 * vg.Millimeter
)

// plotRows returns a dense copy of the rows of ds for the plot if they
// have two features, or nil: the plot draws the rows of two features
// alone, which are few numbers even if the file was sparse.
func plotRows(ds *dataset) *dataset {
	if _, d := ds.X.Dims(); d != 2 {
		return nil
	}
	return &dataset{name: ds.name, Set: &data.Set{X: mat.DenseCopyOf(ds.X), Y: ds.Y, Features: ds.Features}}
}

// drawPlot draws, if raw is not nil, the training rows in their own units
// and the boundary of each classifier beside the mistakes per epoch of
// each; otherwise the mistakes per epoch alone. Each plot has its legend
// on its right, outside it, where it covers nothing. raw is the training
// data from plotRows, as read. It returns the image in format.
func drawPlot(format string, raw *dataset, rs []*result, classes *classSet) ([]byte, error) {
	curves, curvesKey, err := mistakesPlot(rs)
	if err != nil {
		return nil, err
	}
	plots, keys := []*plot.Plot{curves}, []plot.Legend{curvesKey}
	if raw != nil {
		points, pointsKey, err := boundaryPlot(raw, rs, classes)
		if err != nil {
			return nil, err
		}
		plots, keys = []*plot.Plot{points, curves}, []plot.Legend{pointsKey, curvesKey}
	}
	var keyWidth vg.Length
	for _, k := range keys {
		r := k.Rectangle(draw.Canvas{})
		keyWidth = max(keyWidth, r.Max.X-r.Min.X)
	}
	pad := 2*legendGap + keyWidth
	w := vg.Length(len(plots))*(plotWidth+pad) + vg.Millimeter
	c, err := draw.NewFormattedCanvas(w, plotHeight, format)
	if err != nil {
		return nil, err
	}
	dc := draw.New(c)
	tiles := draw.Tiles{Rows: 1, Cols: len(plots), PadX: pad, PadTop: vg.Millimeter, PadBottom: vg.Millimeter, PadLeft: vg.Millimeter, PadRight: pad}
	canvases := plot.Align([][]*plot.Plot{plots}, tiles, dc)
	for j, p := range plots {
		pc := canvases[0][j]
		p.Draw(pc)
		kc := pc
		kc.Min.X, kc.Max.X = pc.Max.X+legendGap, pc.Max.X+legendGap+keyWidth
		kc.Max.Y -= vg.Centimeter
		keys[j].Draw(kc)
	}
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		return nil, err
	}
	if format == "svg" {
		return bytes.ReplaceAll(buf.Bytes(), svgFont, svgFallback), nil
	}
	return buf.Bytes(), nil
}

// newLegend returns a legend at the top left of the canvas it is drawn on.
func newLegend() plot.Legend {
	l := plot.NewLegend()
	l.Top, l.Left = true, true
	return l
}

// mistakesPlot draws the mistakes per epoch of each classifier, and
// returns the plot and its legend.
func mistakesPlot(rs []*result) (*plot.Plot, plot.Legend, error) {
	p := plot.New()
	key := newLegend()
	p.Title.Text = "Mistakes per epoch"
	p.X.Label.Text = "epoch"
	p.Y.Label.Text = "mistakes"
	p.X.Tick.Marker = wholeTicks{}
	p.Y.Tick.Marker = wholeTicks{}
	p.Y.Min = 0
	for i, r := range rs {
		if r.stats.Epochs == 0 {
			continue
		}
		xys := make(plotter.XYs, r.stats.Epochs)
		for e, m := range r.stats.EpochMistakes {
			xys[e] = plotter.XY{X: float64(e + 1), Y: float64(m)}
		}
		l, s, err := plotter.NewLinePoints(xys)
		if err != nil {
			return nil, key, err
		}
		l.Color = plotutil.DarkColors[i%len(plotutil.DarkColors)]
		p.Add(l)
		if r.stats.Epochs <= 30 {
			s.Color = l.Color
			p.Add(s)
		}
		key.Add(r.name, l)
	}
	return p, key, nil
}

// classKey returns the legend's name of class k: its name, and for two
// classes that -pos and -neg picked its side, +1 or -1, unless the name is
// that.
func classKey(classes *classSet, k int) string {
	name := classes.names[k]
	if !classes.picked {
		return name
	}
	side := []string{"-1", "+1"}[k]
	if name == side || "+"+name == side {
		return side
	}
	return fmt.Sprintf("%s (%s)", name, side)
}

// featureName returns the name of feature j of ds, counted from 0: the
// header's, or its number.
func featureName(ds *dataset, j int) string {
	if j < len(ds.Features) && ds.Features[j] != "" {
		return ds.Features[j]
	}
	return fmt.Sprintf("feature %d", j+1)
}

// boundaryPlot draws the training rows, in their own units, and the
// boundaries of each classifier: for two classes the line where its score
// is 0, and for more the lines where the class of the greatest score
// changes, traced on a grid of points that each model transforms as it
// transforms the rows. It returns the plot and its legend.
func boundaryPlot(raw *dataset, rs []*result, classes *classSet) (*plot.Plot, plot.Legend, error) {
	p := plot.New()
	key := newLegend()
	p.Title.Text = "Training rows and boundaries"
	p.X.Label.Text = featureName(raw, 0)
	p.Y.Label.Text = featureName(raw, 1)

	X := raw.X.(*mat.Dense)
	n, _ := X.Dims()
	K := len(classes.names)
	points := make([]plotter.XYs, K)
	lo := []float64{math.Inf(1), math.Inf(1)}
	hi := []float64{math.Inf(-1), math.Inf(-1)}
	for i := range n {
		x := X.RawRowView(i)
		for j := range lo {
			lo[j], hi[j] = min(lo[j], x[j]), max(hi[j], x[j])
		}
		k := int(raw.Y[i])
		points[k] = append(points[k], plotter.XY{X: x[0], Y: x[1]})
	}
	// The second class, +1 of two, first: circles, then crosses.
	shapes := []draw.GlyphDrawer{draw.CircleGlyph{}, draw.CrossGlyph{}, draw.TriangleGlyph{}, draw.SquareGlyph{}, draw.PlusGlyph{}, draw.RingGlyph{}, draw.PyramidGlyph{}, draw.BoxGlyph{}}
	colors := []color.Color{
		color.RGBA{R: 0x1f, G: 0x77, B: 0xb4, A: 0xff},
		color.RGBA{R: 0xd6, G: 0x27, B: 0x28, A: 0xff},
		color.RGBA{R: 0x2c, G: 0xa0, B: 0x2c, A: 0xff},
		color.RGBA{R: 0xff, G: 0x7f, B: 0x0e, A: 0xff},
		color.RGBA{R: 0x94, G: 0x67, B: 0xbd, A: 0xff},
		color.RGBA{R: 0x8c, G: 0x56, B: 0x4b, A: 0xff},
		color.RGBA{R: 0xe3, G: 0x77, B: 0xc2, A: 0xff},
		color.RGBA{R: 0x7f, G: 0x7f, B: 0x7f, A: 0xff},
	}
	order := make([]int, K)
	for k := range order {
		order[k] = k
	}
	if K == 2 {
		order = []int{1, 0}
	}
	for g, k := range order {
		if len(points[k]) == 0 {
			continue
		}
		s, err := plotter.NewScatter(points[k])
		if err != nil {
			return nil, key, err
		}
		s.GlyphStyle.Shape, s.GlyphStyle.Color = shapes[g%len(shapes)], colors[g%len(colors)]
		p.Add(s)
		key.Add(classKey(classes, k), s)
	}

	// The grid spans the rows with a margin.
	axes := make([][]float64, 2)
	for j := range axes {
		pad := 0.05 * (hi[j] - lo[j])
		if pad == 0 {
			pad = 1
		}
		axes[j] = make([]float64, gridSize)
		for k := range axes[j] {
			axes[j][k] = lo[j] - pad + (hi[j]-lo[j]+2*pad)*float64(k)/(gridSize-1)
		}
	}
	for i, r := range rs {
		style := plotter.DefaultLineStyle
		style.Color = plotutil.DarkColors[i%len(plotutil.DarkColors)]
		style.Width = vg.Points(1.5)
		grids, err := newScoreGrids(axes[0], axes[1], r.model)
		if err != nil {
			return nil, key, err
		}
		for _, g := range grids {
			c := plotter.NewContour(g, []float64{0}, nil)
			c.LineStyles[0] = style
			p.Add(boundary{c})
		}
		key.Add(r.name, &plotter.Line{LineStyle: style})
	}
	return p, key, nil
}

// boundary is a contour without glyph boxes. The contour plotter gives one
// to every point of the grid, and plot builds them all again at each step
// of laying out the axes: most of the time of a plot, for a margin that
// the grid, wider than the data, does not need.
type boundary struct{ *plotter.Contour }

func (boundary) GlyphBoxes(*plot.Plot) []plot.GlyphBox { return nil }

// scoreGrid is the score of a classifier on a grid of points, as the
// contour plotter reads it.
type scoreGrid struct {
	xs, ys []float64
	z      []float64
}

// newScoreGrids scores every point of the grid xs × ys with the model m,
// and returns the grids whose zeros are the boundaries of m: for two
// classes that of the score, and for more that of each class's score less
// the greatest of the others, which is positive where m predicts the class.
func newScoreGrids(xs, ys []float64, m *data.Model) ([]*scoreGrid, error) {
	X := mat.NewDense(len(xs)*len(ys), 2, nil)
	for r, yv := range ys {
		for c, xv := range xs {
			X.SetRow(r*len(xs)+c, []float64{xv, yv})
		}
	}
	var G mat.Matrix = X
	if m.Scaler != nil && m.Scaler.Mean == nil {
		// A Scaler of sparse rows takes sparse rows.
		var err error
		if G, err = sparseCopy(X); err != nil {
			return nil, err
		}
	}
	s, err := m.Score(G)
	if err != nil {
		return nil, err
	}
	S := len(s) / (len(xs) * len(ys))
	if S == 1 {
		return []*scoreGrid{{xs: xs, ys: ys, z: s}}, nil
	}
	grids := make([]*scoreGrid, S)
	for c := range grids {
		z := make([]float64, len(xs)*len(ys))
		for i := range z {
			row := s[i*S : i*S+S]
			other := math.Inf(-1)
			for k, v := range row {
				if k != c {
					other = max(other, v)
				}
			}
			z[i] = row[c] - other
		}
		grids[c] = &scoreGrid{xs: xs, ys: ys, z: z}
	}
	return grids, nil
}

// sparseCopy returns the non-zeros of X as a *perceptron.CSR.
func sparseCopy(X *mat.Dense) (*perceptron.CSR, error) {
	n, d := X.Dims()
	ptr := []int{0}
	var ind []int
	var val []float64
	for i := range n {
		for j, v := range X.RawRowView(i) {
			if v != 0 {
				ind = append(ind, j)
				val = append(val, v)
			}
		}
		ptr = append(ptr, len(ind))
	}
	return perceptron.NewCSR(n, d, ptr, ind, val)
}

func (g *scoreGrid) Dims() (c, r int)   { return len(g.xs), len(g.ys) }
func (g *scoreGrid) Z(c, r int) float64 { return g.z[r*len(g.xs)+c] }
func (g *scoreGrid) X(c int) float64    { return g.xs[c] }
func (g *scoreGrid) Y(r int) float64    { return g.ys[r] }

// wholeTicks marks whole numbers only, at a step of 1, 2 or 5 times a
// power of ten: epochs and mistakes are counts.
type wholeTicks struct{}

func (wholeTicks) Ticks(lo, hi float64) []plot.Tick {
	step := 1.0
	for k := 0; (hi-lo)/step > 6; k++ {
		step = []float64{2, 5, 10}[k%3] * math.Pow(10, float64(k/3))
	}
	var ticks []plot.Tick
	for v := math.Ceil(lo/step) * step; v <= hi; v += step {
		ticks = append(ticks, plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'f', 0, 64)})
	}
	return ticks
}
