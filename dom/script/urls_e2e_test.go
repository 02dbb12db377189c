package script_test

import (
	"bytes"
	"domscope/dom/internal/domtest"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"domscope/cdpconn"
	"domscope/cdpconn/cdptest"
	. "domscope/dom"
	"domscope/dom/export"
	"domscope/dom/flatten"
	"domscope/dom/live"
	"domscope/dom/script"
)

// The pages of the URL tests. Every secret holds "SECRET" and is only in
// URLs. The page's own URL holds them (user info, query, fragment). So do
// its frames' URLs: a same-origin src written in the page, and a
// cross-origin one. So do a URL set by pushState, and one a click loads.
// That one is built at run time, so the page's text does not hold it.
const (
	urlsPage = `<!doctype html><html><head><meta charset="utf-8"><title>Account</title></head><body>
<h1>Account</h1>
<a href="#top">Top</a>
<button id="push" onclick="history.pushState({}, '', '?session=' + ['PUSHSEC', 'RET44'].join('') + '&tab=2')">Push</button>
<button id="next" onclick="location.assign('next.html?token=' + ['CLICKSEC', 'RET55'].join('') + '#sig=' + ['CLICKFRAGSEC', 'RET66'].join(''))">Next page</button>
<iframe src="frame.html?api_key=FRAMESECRET77" title="Same frame"></iframe>
<iframe src="{other}/frame.html?access_token=XFRAMESECRET88" title="Cross frame"></iframe>
</body></html>`
	urlsNext  = `<!doctype html><html><head><meta charset="utf-8"><title>Next</title></head><body><h1>Next page</h1><a href="#more">More</a></body></html>`
	urlsFrame = `<!doctype html><html><body><p>Inside the frame</p><a href="#f">Frame link</a></body></html>`
)

// urlsSite serves the URL pages on two origins. It returns the page's URL
// with user info, a session and a token in its fragment.
func urlsSite(t *testing.T) (pageURL, base string) {
	t.Helper()
	dir := t.TempDir()
	base, other := cdptest.Serve(t, dir)
	for name, body := range map[string]string{"urls.html": strings.ReplaceAll(urlsPage, "{other}", other), "next.html": urlsNext, "frame.html": urlsFrame} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return withUser(base, "alice:PWSECRET11") + "/urls.html?session=SESSSECRET22&x=1#token=FRAGSECRET33", base
}

func withUser(base, user string) string {
	return strings.Replace(base, "http://", "http://"+user+"@", 1)
}

// openURLsTab opens the page in a new tab. It waits for its cross-origin
// frame to have a target of its own.
func openURLsTab(t *testing.T, pageURL string) *cdpconn.Page {
	t.Helper()
	p := cdptest.Page(t, pageURL)
	deadline := time.Now().Add(20 * time.Second)
	for {
		fs, err := p.Frames(ctx(t))
		if err == nil && len(fs) >= 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the cross-origin frame has no target: %v", err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	domReady(t, p)
	return p
}

// domReady waits for the page and its frames to have loaded.
func domReady(t *testing.T, p Session) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for evalString(t, p, `String(document.readyState === 'complete' && [...document.querySelectorAll('iframe')].every(f => { try { return !f.contentDocument || f.contentDocument.readyState === 'complete' } catch (e) { return true } }))`) != "true" {
		if time.Now().After(deadline) {
			t.Fatal("the page did not load")
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// leakedURLSecret matches what must be in no output. That is a secret, or
// user info left before a host.
var leakedURLSecret = regexp.MustCompile(`SECRET|(alice|bob|carol)[:@]`)

func checkNoURLSecrets(t *testing.T, where, out string) {
	t.Helper()
	if strings.TrimSpace(out) == "" {
		t.Errorf("%s: empty output", where)
		return
	}
	for _, loc := range leakedURLSecret.FindAllStringIndex(out, 5) {
		t.Errorf("%s leaks a URL secret: …%s…", where, out[max(0, loc[0]-100):min(len(out), loc[1]+40)])
	}
}

// TestURLSecretsEveryOutput opens a page whose URLs hide secrets. The page
// URL has user info, a session in its query and a token in its fragment.
// Its two frames' URLs hold keys. A pushState puts a session in the URL,
// and a click loads a page with a token. No output holds any of them:
//   - the binary's snapshot in every format.
//   - run's output (text and json snapshots, results, a navigation's error).
//   - an export (of a full capture and of the live model after an action),
//     and the capture opened again.
//   - the recording and the session log.
//
// Each shows the URL with … instead.
func TestURLSecretsEveryOutput(t *testing.T) {
	pageURL, base := urlsSite(t)
	bin := domtest.BuildProgram(t)
	ws := cdptest.Browser(t).WebSocketURL()

	p := openURLsTab(t, pageURL)
	for _, f := range []string{"json", "text", "tree"} {
		out := domtest.RunProgram(t, bin, "snapshot", "--endpoint", ws, "--target", p.TargetID(), "--format", f)
		checkNoURLSecrets(t, "snapshot --format "+f, out)
		if f == "json" {
			for _, want := range []string{`"url":"` + base + `/urls.html?session=…&x=1"`, `frame.html?api_key=…"`, `frame.html?access_token=…"`} {
				if !strings.Contains(out, want) {
					t.Errorf("snapshot json lacks %s:\n%s", want, out)
				}
			}
		}
	}

	steps := strings.Join([]string{
		`{"action":"click","target":{"css":"#push"}}`,
		`{"action":"click","target":{"css":"#next"}}`,
		`{"action":"navigate","url":"` + withUser(base, "bob:NAVSECRET99") + `/urls.html?code=NAVCODESECRET#id_token=NAVFRAGSECRET"}`,
		`{"action":"navigate","url":"http://carol:DEADSECRET@127.0.0.1:1/?sig=DEADSIGSECRET"}`,
	}, "\n") + "\n"
	file := filepath.Join(t.TempDir(), "steps.jsonl")
	if err := os.WriteFile(file, []byte(steps), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, mode := range []string{"text", "json"} {
		tab := openURLsTab(t, pageURL)
		out, _ := exec.Command(bin, "run", "--endpoint", ws, "--target", tab.TargetID(), "--snapshots", mode, "--keep-going", file).CombinedOutput()
		checkNoURLSecrets(t, "run --snapshots "+mode, string(out))
		// (Chrome gives a navigation's URL without its fragment)
		for _, want := range []string{`"newURL":"` + base + `/urls.html?session=…&tab=2"`, `"newURL":"` + base + `/next.html?token=…"`,
			`"newURL":"` + base + `/urls.html?code=…"`, `could not load http://127.0.0.1:1/?sig=…`} {
			if !strings.Contains(string(out), want) {
				t.Errorf("run --snapshots %s lacks %s:\n%s", mode, want, out)
			}
		}
	}

	// As the UI does it: a service and the recorder writing to a file.
	// Export the first (full) snapshot and the one after pushState
	// (written out from the live model).
	svc, _ := openURLsService(t, pageURL)
	var recFile bytes.Buffer
	rec := script.NewRecorder(&recFile)
	first := snap(t, svc)
	checkExport(t, "export of the first snapshot", first, nil)
	pushed := recordAct(t, svc, rec, Action{Kind: KindClick}, "push")
	if pushed.Changes.NewURL != base+"/urls.html?session=…&tab=2" {
		t.Errorf("pushState: newURL %q", pushed.Changes.NewURL)
	}
	afterPush := snap(t, svc)
	checkExport(t, "export after pushState", afterPush, rec.Log())
	recordAct(t, svc, rec, Action{Kind: KindClick}, "next")
	nav := Action{Kind: KindNavigate, URL: withUser(base, "bob:NAVSECRET99") + "/urls.html?code=NAVCODESECRET"}
	recordAct(t, svc, rec, nav, "")
	last := snap(t, svc)
	if !strings.HasPrefix(last.URL, base+"/urls.html?code=…") {
		t.Errorf("after navigate the snapshot's URL is %q", last.URL)
	}
	checkExport(t, "export after navigating", last, rec.Log())
	var w bytes.Buffer
	if err := rec.WriteScript(&w); err != nil {
		t.Fatal(err)
	}
	for what, out := range map[string]string{"--record file": recFile.String(), "w script": w.String()} {
		checkNoURLSecrets(t, what, out)
		if !strings.Contains(out, "# url withheld when recorded: ") || !strings.Contains(out, `"url":"`+base+`/urls.html?code=…"`) {
			t.Errorf("%s does not write the navigation withheld:\n%s", what, out)
		}
	}
}

func openURLsService(t *testing.T, pageURL string) (*live.Service, Page) {
	t.Helper()
	p := openURLsTab(t, pageURL)
	svc := live.NewService(p, live.Config{})
	t.Cleanup(func() { _ = svc.Close() })
	return svc, p
}

// recordAct does a (on the element with id when given) and records it.
func recordAct(t *testing.T, svc *live.Service, rec *script.Recorder, a Action, id string) ActionResult {
	t.Helper()
	s := snap(t, svc)
	if id != "" {
		Walk(s.Root, func(n *VirtualNode) {
			if n.Attrs["id"] == id && n.NodeType == ElementNode {
				a.ID = n.ID
			}
		})
	}
	res := svc.Do(ctx(t), a)
	if !res.Success {
		t.Fatalf("%s %s: %v", a.Kind, id, res.Error)
	}
	if _, _, err := rec.Record(s, a, res, string(a.Kind)+" "+a.URL); err != nil {
		t.Fatalf("recording %s: %v", a.Kind, err)
	}
	return res
}

// checkExport saves s with a session log, as e does. It checks the file
// and the capture opened again.
func checkExport(t *testing.T, what string, s *Snapshot, log []SessionStep) {
	t.Helper()
	c, err := export.NewSavedCapture(s, DefaultOptions(), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	c.Session = log
	path := filepath.Join(t.TempDir(), "export.json.gz")
	if err := c.WriteFile(path); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := export.ExportReader(f)
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	checkNoURLSecrets(t, what+" (file)", string(b))
	back, err := export.ReadCaptureFile(path)
	if err != nil {
		t.Fatal(err)
	}
	opened, err := back.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	sd, dec := flatten.Flatten(opened, back.FlattenOptions())
	j, _ := flatten.FormatJSON(sd)
	checkNoURLSecrets(t, what+" (opened, json)", string(j))
	checkNoURLSecrets(t, what+" (opened, tree)", flatten.FormatTree(opened, dec))
}
