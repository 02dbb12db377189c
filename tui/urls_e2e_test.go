package tui

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"domscope/cdpconn/cdptest"
	"domscope/dom/live"
)

// The pages of the URL test. A button puts a session in the URL with
// pushState. Another loads a page whose URL holds a token. That page has
// no title, so Chrome titles its tab with the URL. A frame's URL holds a
// key. The secrets are built at run time, so only URLs hold them.
const (
	urlsUIPage = `<!doctype html><html><head><meta charset="utf-8"><title>Account</title></head><body>
<h1>Account</h1>
<button id="push" onclick="history.pushState({}, '', '?session=' + ['PUSHSEC', 'RET44'].join('') + '&tab=2')">Push</button>
<button id="next" onclick="location.assign('next.html?token=' + ['CLICKSEC', 'RET55'].join(''))">Next page</button>
<iframe src="frame.html?api_key=FRAMESECRET77" title="Same frame"></iframe>
</body></html>`
	urlsUINext = `<!doctype html><html><body><h1>Next page</h1></body></html>`
)

var uiURLSecret = regexp.MustCompile(`SECRET|(alice|bob)[:@]`)

// noURLSecrets fails for every secret (or user info) in out.
func noURLSecrets(t *testing.T, where, out string) {
	t.Helper()
	for _, loc := range uiURLSecret.FindAllStringIndex(out, 5) {
		t.Errorf("%s shows a URL secret: …%s…", where, out[max(0, loc[0]-100):min(len(out), loc[1]+40)])
	}
}

// TestURLSecretsOnScreen opens the UI on a page at a URL with user info,
// a session and a fragment token. It shows none of them. Nor does it show
// those of a pushState, a page a click loads, a page `g` goes to and a
// frame. They are not in the header, the details or the terminal title.
// Nor in the tab picker, the session's story (H), the script w writes,
// --record or the export.
func TestURLSecretsOnScreen(t *testing.T) {
	dir := t.TempDir()
	for name, body := range map[string]string{"urls.html": urlsUIPage, "next.html": urlsUINext, "frame.html": "<p>frame</p>"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	base, _ := cdptest.Serve(t, dir)
	user := func(u string) string { return strings.Replace(base, "http://", "http://"+u+"@", 1) }
	svc := live.NewService(cdptest.Page(t, user("alice:PWSECRET11")+"/urls.html?session=SESSSECRET22&x=1#token=FRAGSECRET33"), live.Config{})
	t.Cleanup(func() { _ = svc.Close() })
	out := t.TempDir()
	recPath := filepath.Join(t.TempDir(), "session.jsonl")
	rec, err := os.Create(recPath)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = rec.Close() })
	m := newModel(context.Background(), Config{Actor: svc, Browser: cdptest.Browser(t), NoColor: true, Theme: "dark",
		NoHighlight: true, Record: rec, OutputDir: out, Now: func() time.Time { return fixedNow }})
	m.Update(tea.WindowSizeMsg{Width: 200, Height: 45})
	settle(t, m, m.refresh(false, "first snapshot"))
	screen := func(where string) string {
		t.Helper()
		s := plainScreen(m)
		noURLSecrets(t, where, s+"\n"+m.View().WindowTitle)
		return s
	}
	if s := screen("the first snapshot"); !strings.Contains(s, base+"/urls.html?session=…&x=1") {
		t.Errorf("the header does not show the safe URL:\n%s", s)
	}

	selectAttrID(t, m, "push")
	press(t, m, k('c'))
	screen("after pushState")
	selectAttrID(t, m, "next")
	press(t, m, k('c'))
	if s := screen("after a click loaded a page"); !strings.Contains(s, "next.html?token=…") {
		t.Errorf("the screen does not show the new page's safe URL:\n%s", s)
	}
	// a page with no title: Chrome titles its tab with the URL
	press(t, m, k('T'))
	if _, ok := m.top().(*tabsLayer); !ok {
		t.Fatalf("T opened no tab picker (flash %q)", m.status.flash)
	}
	if s := screen("the tab picker"); !strings.Contains(s, strings.TrimPrefix(base, "http://")+"/next.html?token=…") {
		t.Errorf("the tab picker does not show the tab's safe title:\n%s", s)
	}
	press(t, m, escKey)
	press(t, m, k('g'))
	screen("the go-to prompt")
	m.prompt().input.SetValue(user("bob:NAVSECRET99") + "/urls.html?code=NAVCODESECRET")
	press(t, m, enterKey)
	if s := screen("after going to a URL"); !strings.Contains(s, "/urls.html?code=…") {
		t.Errorf("the screen does not show the safe URL gone to:\n%s", s)
	}

	press(t, m, k('H'))
	story, ok := m.top().(*storyLayer)
	if !ok || len(story.log) != 3 {
		t.Fatalf("H: %T, want the story of 3 steps", m.top())
	}
	screen("the story")
	for i, s := range story.log {
		m.push(newStoryStepLayer(m.layerCtx(), i, s))
		screen("story step " + itoa(i+1))
		m.pop(m.top())
	}
	press(t, m, escKey)

	press(t, m, k('w'))
	noURLSecrets(t, "the w script", writtenScript(t, out))
	b, err := os.ReadFile(recPath)
	if err != nil {
		t.Fatal(err)
	}
	noURLSecrets(t, "the --record file", string(b))
	press(t, m, escKey, k('e'))
	press(t, m, enterKey)
	exports, _ := filepath.Glob(filepath.Join(out, "*.json.gz"))
	if len(exports) != 1 {
		t.Fatalf("exports: %v (flash %q)", exports, m.status.flash)
	}
	noURLSecrets(t, "the export", string(readExport(t, exports[0])))
}
