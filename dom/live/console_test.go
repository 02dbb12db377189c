package live_test

import (
	"strings"
	"testing"

	"domscope/cdpconn/cdptest"
	. "domscope/dom"
	. "domscope/dom/live"
)

// TestConsoleOfAnAction: an action's result lists the console errors and
// warnings it caused, and the uncaught exception, with where they came
// from. Plain logs, and what the page logged before, are left out.
func TestConsoleOfAnAction(t *testing.T) {
	base, _ := cdptest.Serve(t, actionPages)
	svc, _ := openService(t, base+"/console.html", Config{})
	res := do(t, svc, "before", Action{Kind: KindClick})
	mustOK(t, res)
	if len(res.Console) != 0 {
		t.Errorf("a click that logs nothing lists %v", res.Console)
	}
	res = do(t, svc, "log", Action{Kind: KindClick})
	mustOK(t, res)
	var got []string
	for _, c := range res.Console {
		got = append(got, c.Level+" "+c.Text+" @"+c.Source)
	}
	all := strings.Join(got, "\n")
	for _, want := range []string{"error broken thing 42 Object @" + base + "/console.html:5", "warning careful @", "error Uncaught Error: late failure @"} {
		if !strings.Contains(all, want) {
			t.Errorf("console %q lacks %q", all, want)
		}
	}
	for _, not := range []string{"quiet", "while loading"} {
		if strings.Contains(all, not) {
			t.Errorf("console %q holds %q", all, not)
		}
	}
}

// TestConsoleMasksTypedSecrets: a page that logs what was typed into its
// password field does not get it into a result.
func TestConsoleMasksTypedSecrets(t *testing.T) {
	base, _ := cdptest.Serve(t, actionPages)
	svc, _ := openService(t, base+"/console.html", Config{})
	mustOK(t, do(t, svc, "pw", Action{Kind: KindType, Text: "s3cret-value"}))
	res := do(t, svc, "leak", Action{Kind: KindClick})
	mustOK(t, res)
	if len(res.Console) != 1 || res.Console[0].Text != "the password is "+Mask {
		t.Errorf("console %+v, want the password masked", res.Console)
	}
}
