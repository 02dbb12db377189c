package main

import (
	"encoding/json"
	"image"
	"image/png"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"domscope/cdpconn/cdptest"
)

// pngSize decodes a PNG file and returns its size.
func pngSize(t *testing.T, path string) image.Point {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return img.Bounds().Size()
}

// TestDeviceChangesSnapshot: a page's menu button shows only below 600
// px. A phone (--device) or a narrow --viewport gets the button and a
// screenshot of the emulated size. The desktop window does not.
func TestDeviceChangesSnapshot(t *testing.T) {
	ws := cdptest.Browser(t).WebSocketURL()
	base, _ := cdptest.Serve(t, pages)
	dir := t.TempDir()
	const menu = `button "Open menu"`
	for _, c := range []struct {
		name     string
		args     []string
		menu     bool
		w, h     int
		wantLine string
	}{
		{"desktop", nil, false, 0, 0, `link "Shop"`},
		{"phone", []string{"--device", "iPhone 13"}, true, 390, 844, ""},
		{"phone-scale1", []string{"--device", "pixel-5", "--scale", "1"}, true, 393, 851, ""},
		{"narrow", []string{"--viewport", "500x700"}, true, 500, 700, ""},
		{"wide", []string{"--viewport", "900x500", "--scale", "2"}, false, 900, 500, `link "Help"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			shot := filepath.Join(dir, c.name+".png")
			args := append([]string{"snapshot", "--endpoint", ws, "--url", base + "/responsive.html", "--screenshot", shot}, c.args...)
			stdout, stderr, code := runCLI(t, "", args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			if strings.Contains(stdout, menu) != c.menu {
				t.Errorf("menu button shown: %v, want %v:\n%s", !c.menu, c.menu, stdout)
			}
			if c.wantLine != "" && !strings.Contains(stdout, c.wantLine) {
				t.Errorf("no %s in\n%s", c.wantLine, stdout)
			}
			if c.w != 0 {
				if got := pngSize(t, shot); got != image.Pt(c.w, c.h) {
					t.Errorf("screenshot is %v, want the emulated %dx%d", got, c.w, c.h)
				}
			}
		})
	}
}

// TestViewportFlagsAreUsageErrors: bad values exit 2 before any browser
// is dialled. An unknown device lists the known ones.
func TestViewportFlagsAreUsageErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"snapshot", "--device", "Nokia 3310"}, `"iPhone 13"`},
		{[]string{"run", "--device", "nope"}, `"Pixel 5"`},
		{[]string{"--device", "nope"}, `"iPad Mini"`},
		{[]string{"snapshot", "--viewport", "390"}, "WIDTHxHEIGHT"},
		{[]string{"snapshot", "--viewport", "0x100"}, "--viewport 0x100: width and height must be 1 to 10000 CSS pixels each"},
		{[]string{"snapshot", "--scale", "-1"}, "device scale factor"},
		{[]string{"snapshot", "--scale", "100"}, "device scale factor"},
		{[]string{"snapshot", "--marks"}, "--screenshot"},
	} {
		args := append(c.args, "--endpoint", "http://127.0.0.1:1")
		if c.args[0] == "run" {
			args = append(args, "-")
		}
		_, stderr, code := runCLI(t, "", args...)
		if code != 2 || !strings.Contains(stderr, c.want) || strings.Contains(stderr, "127.0.0.1:1") {
			t.Errorf("domscope %v: exit %d, stderr %q; want a usage error (2) with %q", c.args, code, stderr, c.want)
		}
	}
}

// TestZeroViewportAgrees: a script's viewport step of 0x0 is refused with
// the words --viewport 0x0 is refused with. It is not taken as "no
// emulation". A step with no size still means the browser's own window.
func TestZeroViewportAgrees(t *testing.T) {
	const why = "viewport 0x0: width and height must be 1 to 10000 CSS pixels each, such as 1280x800 or 390x844"
	_, stderr, code := runCLI(t, "", "snapshot", "--viewport", "0x0", "--endpoint", "http://127.0.0.1:1")
	if code != 2 || !strings.Contains(stderr, "--"+why) {
		t.Errorf("--viewport 0x0: exit %d, stderr %q; want a usage error with %q", code, stderr, why)
	}
	ws := cdptest.Browser(t).WebSocketURL()
	base, _ := cdptest.Serve(t, pages)
	for _, c := range []struct {
		step string
		want string
	}{
		{`{"action":"viewport","width":0,"height":0}`, "line 1: " + why},
		{`{"action":"viewport","device":"iPhone 13","width":0,"height":0}`, "line 1: " + why},
		{`{"action":"viewport","width":0}`, "line 1: viewport 0x0: give both width and height"},
	} {
		stdout, stderr, code := runCLI(t, c.step, "run", "--endpoint", ws, "--url", base+"/responsive.html", "-")
		if code != 1 || !strings.Contains(stdout+stderr, c.want) {
			t.Errorf("%s: exit %d, want 1 with %q:\n%s\n%s", c.step, code, c.want, stdout, stderr)
		}
	}
	stdout, stderr, code := runCLI(t, `{"action":"viewport"}`, "run", "--endpoint", ws, "--url", base+"/responsive.html", "-")
	if code != 0 {
		t.Errorf("a viewport step with no size (the browser's own window): exit %d\n%s\n%s", code, stdout, stderr)
	}
}

// TestSnapshotMarksCLI: --marks writes a PNG at the window's size with
// the mark colour on it. It says on stderr how many marks it drew.
func TestSnapshotMarksCLI(t *testing.T) {
	ws := cdptest.Browser(t).WebSocketURL()
	shot := filepath.Join(t.TempDir(), "marks.png")
	_, stderr, code := runCLI(t, "", "snapshot", "--endpoint", ws, "--demo", "--url", "signin.html", "--viewport", "800x600", "--screenshot", shot, "--marks")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stderr, "marks: ") || strings.Contains(stderr, "marks: 0 drawn") {
		t.Errorf("stderr does not count drawn marks: %q", stderr)
	}
	f, err := os.Open(shot)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	if img.Bounds().Size() != image.Pt(800, 600) {
		t.Errorf("screenshot is %v, want 800x600", img.Bounds().Size())
	}
	marked := 0
	for y := 0; y < 600; y++ {
		for x := 0; x < 800; x++ {
			if r, g, b, _ := img.At(x, y).RGBA(); r>>8 == 230 && g>>8 == 0 && b>>8 == 126 {
				marked++
			}
		}
	}
	if marked < 500 {
		t.Errorf("only %d pixels in the mark colour", marked)
	}
}

// TestRunListsNetwork: a run's step results carry the requests each step
// started (query values redacted). A viewport step switches the page to a
// phone layout.
func TestRunListsNetwork(t *testing.T) {
	ws := cdptest.Browser(t).WebSocketURL()
	mux := http.NewServeMux()
	mux.Handle("/", http.FileServer(http.Dir(pages)))
	mux.HandleFunc("/api/search", func(w http.ResponseWriter, r *http.Request) { _, _ = w.Write([]byte("found")) })
	mux.HandleFunc("POST /submit", func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusAccepted)
		_, _ = w.Write([]byte("<title>ok</title>ok"))
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	script := strings.Join([]string{
		`{"action":"click","target":{"css":"#search"}}`,
		`{"action":"click","target":{"css":"#send"}}`,
		`{"action":"navigate","url":"` + srv.URL + `/responsive.html"}`,
		`{"action":"viewport","width":390,"height":844,"mobile":true}`,
		`{"action":"viewport","device":"iPad Pro 11"}`,
	}, "\n")
	stdout, stderr, code := runCLI(t, script, "run", "--endpoint", ws, "--url", srv.URL+"/network/form.html", "--snapshots", "text", "-")
	if code != 0 {
		t.Fatalf("exit %d: %s\n%s", code, stderr, stdout)
	}
	type req struct {
		Method string `json:"method"`
		URL    string `json:"url"`
		Status int    `json:"status"`
	}
	steps := map[int][]req{}
	snaps := map[int]string{}
	step := 0
	for _, line := range strings.Split(stdout, "\n") {
		if strings.HasPrefix(line, "{") {
			var v struct {
				Step    int   `json:"step"`
				Network []req `json:"network"`
			}
			if err := json.Unmarshal([]byte(line), &v); err != nil {
				t.Fatalf("not a JSON line: %q", line)
			}
			step = v.Step
			steps[step] = v.Network
			continue
		}
		snaps[step] += line + "\n"
	}
	has := func(n int, method, url string, status int) bool {
		for _, r := range steps[n] {
			if r.Method == method && r.URL == url && r.Status == status {
				return true
			}
		}
		return false
	}
	if !has(1, "GET", srv.URL+"/api/search?token=…&x=…", 200) || strings.Contains(stdout, "SECRETTOKEN") {
		t.Errorf("step 1 lists %+v; want the search with its token redacted", steps[1])
	}
	if !has(2, "POST", srv.URL+"/submit", 202) {
		t.Errorf("step 2 lists %+v; want POST /submit 202", steps[2])
	}
	if !strings.Contains(snaps[4], `button "Open menu"`) || strings.Contains(snaps[3], `button "Open menu"`) || strings.Contains(snaps[5], `button "Open menu"`) {
		t.Errorf("the menu button should show only on the phone (step 4):\n%v", snaps)
	}
}
