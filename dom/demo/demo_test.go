package demo_test

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"domscope/dom/demo"
)

func TestServe(t *testing.T) {
	base, stop, err := demo.Serve()
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	for _, p := range append(demo.Pages, "style.css", "widget.html", "") {
		resp, err := http.Get(base + "/" + p)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || len(b) == 0 {
			t.Errorf("%s: %s", p, resp.Status)
		}
		if strings.Contains(string(b), "{{OTHER}}") {
			t.Errorf("%s: {{OTHER}} not filled in", p)
		}
	}
	resp, err := http.Get(base + "/components.html")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(b), "http://localhost:") {
		t.Error("components.html does not embed the other origin")
	}
	if r, _ := http.Get(base + "/nope.html"); r == nil || r.StatusCode != 404 {
		t.Error("missing page is not 404")
	}
}
