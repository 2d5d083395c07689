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

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// plotFormat returns the image format of the plot file path, told by its
// extension.
func plotFormat(path string) (string, error) {
	ext := strings.ToLower(strings.TrimPrefix(filepath.Ext(path), "."))
	if ext == "" || !slices.Contains(draw.Formats(), ext) {
		return "", usagef("-plot %s: want a file name ending in .svg or .png", path)
	}
	return ext, nil
}

// gridSize is the number of points of the grid, along each axis, on which
// the boundaries are traced.
const gridSize = 200

// drawPlot draws, if the data have two features, the training rows in
// their own units and the boundary of each classifier beside the mistakes
// per epoch of each; otherwise the mistakes per epoch alone. raw is the
// training data before standardisation by sc, which may be nil. It returns
// the image in format.
func drawPlot(format string, raw *dataset, sc *scaler, rs []*result, pos, neg string) ([]byte, error) {
	curves, err := mistakesPlot(rs)
	if err != nil {
		return nil, err
	}
	plots := []*plot.Plot{curves}
	w := 14 * vg.Centimeter
	if _, d := raw.X.Dims(); d == 2 {
		points, err := boundaryPlot(raw, sc, rs, pos, neg)
		if err != nil {
			return nil, err
		}
		plots = []*plot.Plot{points, curves}
		w = 26 * vg.Centimeter
	}
	c, err := draw.NewFormattedCanvas(w, 11*vg.Centimeter, format)
	if err != nil {
		return nil, err
	}
	tiles := draw.Tiles{Rows: 1, Cols: len(plots), PadX: vg.Centimeter, PadTop: vg.Millimeter, PadBottom: vg.Millimeter, PadLeft: vg.Millimeter, PadRight: vg.Millimeter}
	canvases := plot.Align([][]*plot.Plot{plots}, tiles, draw.New(c))
	for j, p := range plots {
		p.Draw(canvases[0][j])
	}
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// mistakesPlot draws the mistakes per epoch of each classifier.
func mistakesPlot(rs []*result) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = "Mistakes per epoch"
	p.X.Label.Text = "epoch"
	p.Y.Label.Text = "mistakes"
	p.X.Tick.Marker = wholeTicks{}
	p.Y.Tick.Marker = wholeTicks{}
	p.Y.Min = 0
	p.Legend.Top = true
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
			return nil, err
		}
		l.Color = plotutil.DarkColors[i%len(plotutil.DarkColors)]
		p.Add(l)
		if r.stats.Epochs <= 30 {
			s.Color = l.Color
			p.Add(s)
		}
		p.Legend.Add(r.name, l)
	}
	return p, nil
}

// boundaryPlot draws the training rows, in their own units, and the
// boundary of each classifier: the line where its score is 0, traced on a
// grid of points standardised as the training rows were.
func boundaryPlot(raw *dataset, sc *scaler, rs []*result, pos, neg string) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = "Training rows and boundaries"
	p.X.Label.Text = "feature 1"
	p.Y.Label.Text = "feature 2"
	p.Legend.Top = true

	n, _ := raw.X.Dims()
	var xp, xn plotter.XYs
	lo := []float64{math.Inf(1), math.Inf(1)}
	hi := []float64{math.Inf(-1), math.Inf(-1)}
	for i := range n {
		x := raw.X.RawRowView(i)
		for j := range lo {
			lo[j], hi[j] = min(lo[j], x[j]), max(hi[j], x[j])
		}
		if raw.y[i] > 0 {
			xp = append(xp, plotter.XY{X: x[0], Y: x[1]})
		} else {
			xn = append(xn, plotter.XY{X: x[0], Y: x[1]})
		}
	}
	for _, g := range []struct {
		xys   plotter.XYs
		name  string
		shape draw.GlyphDrawer
		color color.Color
	}{
		{xp, fmt.Sprintf("%s (+1)", pos), draw.CircleGlyph{}, color.RGBA{R: 0x1f, G: 0x77, B: 0xb4, A: 0xff}},
		{xn, fmt.Sprintf("%s (-1)", neg), draw.CrossGlyph{}, color.RGBA{R: 0xd6, G: 0x27, B: 0x28, A: 0xff}},
	} {
		if len(g.xys) == 0 {
			continue
		}
		s, err := plotter.NewScatter(g.xys)
		if err != nil {
			return nil, err
		}
		s.GlyphStyle.Shape, s.GlyphStyle.Color = g.shape, g.color
		p.Add(s)
		p.Legend.Add(g.name, s)
	}

	// The grid spans the rows with a margin, and a wider one at the top
	// that leaves room for the legend.
	axes := make([][]float64, 2)
	for j := range axes {
		pad := 0.05 * (hi[j] - lo[j])
		if pad == 0 {
			pad = 1
		}
		top := pad
		if j == 1 {
			top = 8 * pad
		}
		axes[j] = make([]float64, gridSize)
		for k := range axes[j] {
			axes[j][k] = lo[j] - pad + (hi[j]-lo[j]+pad+top)*float64(k)/(gridSize-1)
		}
	}
	for i, r := range rs {
		g := newScoreGrid(axes[0], axes[1], r.m, sc)
		c := plotter.NewContour(g, []float64{0}, nil)
		style := c.LineStyles[0]
		style.Color = plotutil.DarkColors[i%len(plotutil.DarkColors)]
		style.Width = vg.Points(1.5)
		c.LineStyles[0] = style
		p.Add(boundary{c})
		p.Legend.Add(r.name, &plotter.Line{LineStyle: style})
	}
	return p, nil
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

// newScoreGrid scores every point of the grid xs × ys with m after
// standardising it with sc, if not nil.
func newScoreGrid(xs, ys []float64, m model, sc *scaler) *scoreGrid {
	g := &scoreGrid{xs: xs, ys: ys, z: make([]float64, len(xs)*len(ys))}
	x := make([]float64, 2)
	for r, yv := range ys {
		for c, xv := range xs {
			x[0], x[1] = xv, yv
			if sc != nil {
				sc.row(x)
			}
			g.z[r*len(xs)+c] = m.Score(x)
		}
	}
	return g
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
