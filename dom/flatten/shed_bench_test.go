package flatten_test

import (
	"testing"

	"domscope/dom"
	"domscope/dom/build"
	"domscope/dom/flatten"
	"domscope/dom/internal/recordings"
)

// BenchmarkFit fits the text view of the recorded synthetic-10000 page
// (about 62,000 tokens) to 2,000 tokens: a plain cut (CutText, the old
// --max-tokens) beside the shed that now comes first (FitText).
func BenchmarkFit(b *testing.B) {
	s, err := build.Build(recordings.Load(b, "synthetic-10000"), build.Options{})
	if err != nil {
		b.Fatal(err)
	}
	sd, _ := flatten.Flatten(s, dom.DefaultOptions())
	for _, c := range []struct {
		name string
		fit  func()
	}{
		{"cut", func() { flatten.CutText(flatten.FormatTextLines(sd), 2000, testNote) }},
		{"shed", func() { flatten.FitText(s, sd, 2000, testNote) }},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				c.fit()
			}
		})
	}
}
