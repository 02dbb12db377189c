package flatten_test

import (
	"testing"

	"domscope/dom/flatten"
)

func TestAnswerLine(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`    [37] link "Active" href=#/active`, `[37] link "Active"`},
		{`  [9] link "A b" href="/x y" focused`, `[9] link "A b" focused`},
		{`    [56] checkbox testid=todo-item-toggle unchecked`, `[56] checkbox unchecked`},
		{`    [56] checkbox testid=todo-item-toggle checked focused`, `[56] checkbox checked focused`},
		// A nameless node's one word stays.
		{`  [40] button testid=close-dialog`, `[40] button testid=close-dialog`},
		{`  [40] button testid="close dialog"`, `[40] button testid="close dialog"`},
		// Names and values are the page's: never cut inside them.
		{`[12] button "see href=x testid=y" focused`, `[12] button "see href=x testid=y" focused`},
		{`[13] button "a \" href=x" href=/y`, `[13] button "a \" href=x"`},
		{`[15] textbox "Search" focused: a href=b testid=c`, `[15] textbox "Search" focused: a href=b testid=c`},
		{`[16] textbox testid=q: typed`, `[16] textbox: typed`},
		{`[17] searchbox placeholder="Find href=x" testid=s`, `[17] searchbox placeholder="Find href=x"`},
		// Text lines are only made flat.
		{`   Read href=x testid=y`, `Read href=x testid=y`},
		{`  \[3] is not an id`, `\[3] is not an id`},
		{`  … 12 more`, `… 12 more`},
	} {
		if got := flatten.AnswerLine(c.in); got != c.want {
			t.Errorf("AnswerLine(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
