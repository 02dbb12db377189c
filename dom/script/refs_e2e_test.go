package script_test

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	. "domscope/dom"
	"domscope/dom/demo"
	"domscope/dom/flatten"
	"domscope/dom/live"
	"domscope/dom/script"
)

// signinAria is the demo sign-in page as Playwright's aria snapshot prints
// it. It is written by hand in that format: it is the agent's input text.
const signinAria = `- banner [ref=e1]:
  - link "Acme" [ref=e2] [cursor=pointer]:
    - /url: index.html
  - link "Shop" [ref=e3] [cursor=pointer]:
    - /url: products.html
- main [ref=e4]:
  - generic [ref=e5]:
    - heading "Sign in" [level=1] [ref=e6]
    - paragraph [ref=e7]: Use your Acme account.
    - text: Email
    - textbox "Email" [ref=e8]:
      - /placeholder: you@example.com
    - text: Password
    - textbox "Password" [ref=e9]
    - generic [ref=e10]:
      - checkbox "Remember me" [checked] [ref=e11]
      - link "Forgot password?" [ref=e12] [cursor=pointer]:
        - /url: "#forgot"
    - button "Sign in" [ref=e13]
    - status [ref=e14]
    - button "Create account" [ref=e15]
`

func demoSignin(t *testing.T) (string, *live.Service, Session) {
	t.Helper()
	base, stop, err := demo.Serve()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stop)
	svc, p := openService(t, base+"/signin.html", live.Config{})
	return base, svc, p
}

func refs(t *testing.T, text string) *script.Refs {
	t.Helper()
	rs, err := script.ParseRefs(strings.NewReader(text), "refs.txt")
	if err != nil {
		t.Fatal(err)
	}
	return rs
}

// TestRefsPlaywright: an agent's steps naming Playwright refs sign in on
// the real page. The refs resolve by role and name.
func TestRefsPlaywright(t *testing.T) {
	_, svc, p := demoSignin(t)
	res, out, err := runLines(t, svc, script.Options{Refs: refs(t, signinAria)},
		`{"action":"type","target":{"ref":"e8"},"text":"grace@example.com"}`,
		`{"action":"type","target":{"ref":"e9"},"text":"pw"}`,
		`{"action":"click","target":{"ref":"e11"}}`,
		`{"action":"wait","for":{"ref":"e6"}}`,
		`{"action":"click","target":{"ref":"e13"}}`,
	)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if !strings.Contains(res[0].Target, `textbox "Email"`) || !strings.Contains(res[3].Target, `"Sign in"`) {
		t.Errorf("resolved targets: %q, %q", res[0].Target, res[3].Target)
	}
	if got := evalString(t, p, `document.getElementById('msg').textContent`); got != "Welcome back, grace@example.com!" {
		t.Fatalf("page says %q\n%s", got, out)
	}
	if v := evalJS(t, p, `document.querySelector('input[name=remember]').checked`); v != false {
		t.Fatalf("Remember me still checked")
	}
}

// TestRefsOwnText: refs of domscope's own text format resolve by role and
// name. The snapshot's numbers are not the page's (shifted by 1000). h1
// stands for a heading.
func TestRefsOwnText(t *testing.T) {
	_, svc, p := demoSignin(t)
	sd, _ := flatten.Flatten(snap(t, svc), DefaultOptions())
	text := regexp.MustCompile(`(?m)^(\s*)\[(\d+)\]`).ReplaceAllStringFunc(flatten.FormatText(sd), func(m string) string {
		i := strings.Index(m, "[")
		n, _ := strconv.Atoi(m[i+1 : len(m)-1])
		return m[:i] + fmt.Sprintf("[%d]", n+1000)
	})
	ref := func(re string) string {
		m := regexp.MustCompile(`(?m)^\s*\[(\d+)\] ` + re).FindStringSubmatch(text)
		if m == nil {
			t.Fatalf("no line %s in\n%s", re, text)
		}
		return m[1]
	}
	email, pw, h1, signIn := ref(`textbox "Email"`), ref(`textbox "Password"`), ref(`h1 "Sign in"`), ref(`button "Sign in"`)
	if snap(t, svc).Node(email) != nil {
		t.Fatalf("ref %s is a node id of the page too: the test would not show resolution by role and name", email)
	}
	_, out, err := runLines(t, svc, script.Options{Refs: refs(t, text)},
		`{"action":"wait","for":{"ref":"`+h1+`"}}`,
		`{"action":"type","target":{"ref":"`+email+`"},"text":"lin@example.com"}`,
		`{"action":"type","target":{"ref":"node_`+pw+`"},"text":"pw"}`,
		`{"action":"click","target":{"ref":"[`+signIn+`]"}}`,
	)
	if err != nil {
		t.Fatalf("%v\n%s\nrefs:\n%s", err, out, text)
	}
	if got := evalString(t, p, `document.getElementById('msg').textContent`); got != "Welcome back, lin@example.com!" {
		t.Fatalf("page says %q\n%s", got, out)
	}
}

// TestRefsUnresolved: what cannot be resolved says what and why.
func TestRefsUnresolved(t *testing.T) {
	_, svc, p := demoSignin(t)
	rs := refs(t, signinAria)
	opts := script.Options{Refs: rs, KeepGoing: true, FindTimeout: 300e6}
	evalJS(t, p, `document.querySelector('a[href="#forgot"]').remove(); 1`)
	res, out, _ := runLines(t, svc, opts,
		`{"action":"click","target":{"ref":"e99"}}`,
		`{"action":"click","target":{"ref":"15"}}`,
		`{"action":"click","target":{"ref":"e15"}}`,
		`{"action":"click","target":{"ref":"e12"}}`,
		`{"action":"click","target":{"ref":"e12","nth":1}}`,
	)
	if len(res) != 5 {
		t.Fatalf("%d results\n%s", len(res), out)
	}
	want := []struct {
		code Code
		says []string
	}{
		{ValidationError, []string{`ref "e99" is not in refs.txt`, "e1 … e15"}},
		{ValidationError, []string{`ref "15" is not in refs.txt`, "did you mean e15?"}},
		{NodeNotFound, []string{"ref e15 (refs.txt line 21", `no button named "Create account"`, `the buttons on the page: `, `"Sign in"`}},
		{NodeNotFound, []string{"ref e12 (refs.txt line 17", `no link named "Forgot password?"`, `the links on the page: `, `"Acme"`}},
		{ValidationError, []string{`takes no other field`}},
	}
	for i, w := range want {
		r := res[i]
		if r.Error != nil {
			t.Logf("step %d: %s", i+1, r.Error.Message)
		}
		if r.Success || r.Error == nil || r.Error.Code != w.code {
			t.Errorf("step %d: %+v, want %s", i+1, r.Error, w.code)
			continue
		}
		for _, s := range w.says {
			if !strings.Contains(r.Error.Message, s) {
				t.Errorf("step %d: %q does not say %q", i+1, r.Error.Message, s)
			}
		}
	}
	// Without the file, a ref says what it needs.
	res, _, _ = runLines(t, svc, script.Options{FindTimeout: -1}, `{"action":"click","target":{"ref":"e13"}}`)
	if len(res) != 1 || res[0].Error == nil || !strings.Contains(res[0].Error.Message, "--refs FILE") {
		t.Fatalf("no refs file: %+v", res)
	}
	if _, err := script.ParseRefs(strings.NewReader("just text\n- text: hi\n"), "x.txt"); err == nil || !strings.Contains(err.Error(), "no node references") {
		t.Fatalf("a file with no refs: %v", err)
	}
}
