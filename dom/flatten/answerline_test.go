package flatten_test

import (
	"testing"

	"domscope/dom/flatten"
)

func TestAnswerLine(t *testing.T) {
	for _, c := range []struct {
		in        string
		dropFocus bool
		want      string
	}{
		{`    [37] link "Active" href=#/active`, false, `[37] link "Active"`},
		{`  [9] link "A b" href="/x y" focused`, true, `[9] link "A b"`},
		{`    [56] checkbox testid=todo-item-toggle unchecked`, false, `[56] checkbox unchecked`},
		{`    [56] checkbox testid=todo-item-toggle checked focused`, false, `[56] checkbox checked focused`},
		{`    [56] checkbox testid=todo-item-toggle checked focused`, true, `[56] checkbox checked`},
		// A nameless node's one word stays.
		{`  [40] button testid=close-dialog`, false, `[40] button testid=close-dialog`},
		{`  [40] button testid="close dialog"`, false, `[40] button testid="close dialog"`},
		// Names and values are the page's: never cut inside them.
		{`[12] button "see href=x testid=y focused" focused`, true, `[12] button "see href=x testid=y focused"`},
		{`[13] button "a \" href=x" href=/y`, false, `[13] button "a \" href=x"`},
		{`[15] textbox "Search" focused: a href=b testid=c`, true, `[15] textbox "Search": a href=b testid=c`},
		{`[16] textbox testid=q: typed`, false, `[16] textbox: typed`},
		{`[17] searchbox placeholder="Find href=x" testid=s`, false, `[17] searchbox placeholder="Find href=x"`},
		// Text lines are only made flat.
		{`   Read href=x testid=y focused`, true, `Read href=x testid=y focused`},
		{`  \[3] is not an id`, false, `\[3] is not an id`},
		{`  … 12 more`, false, `… 12 more`},
	} {
		if got := flatten.AnswerLine(c.in, c.dropFocus); got != c.want {
			t.Errorf("AnswerLine(%q, %v) = %q, want %q", c.in, c.dropFocus, got, c.want)
		}
	}
}
