package script

import (
	"strings"
	"testing"
)

func TestParseRefsLines(t *testing.T) {
	rs, err := ParseRefs(strings.NewReader(`- list [ref=e1]:
  - listitem [ref=e2]:
    - button "Delete" [ref=e3]
  - listitem [ref=e4]:
    - button "Delete" [ref=e5]
    - link "Say \"hi\"" [ref=f1e6] [cursor=pointer]:
      - /url: /hi
[12] button "Delete"
 [14] h2 "Tab\tname" expanded
 \[15] text that only looks like a ref
 [16] textbox "Email": typed value
`), "t")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]refLine{
		"e1":   {role: "list"},
		"e3":   {role: "button", name: "Delete", named: true, dup: true},
		"e5":   {role: "button", name: "Delete", named: true, dup: true, nth: 1},
		"f1e6": {role: "link", name: `Say "hi"`, named: true},
		"12":   {role: "button", name: "Delete", named: true, dup: true, nth: 2, ours: true},
		"14":   {role: "h2", name: "Tab\tname", named: true, ours: true},
		"16":   {role: "textbox", name: "Email", named: true, ours: true},
	}
	for ref, w := range want {
		got, ok := rs.lines[ref]
		if !ok {
			t.Errorf("ref %s not read", ref)
			continue
		}
		got.line, got.text = 0, ""
		if got != w {
			t.Errorf("ref %s: %+v, want %+v", ref, got, w)
		}
	}
	if _, ok := rs.lines["15"]; ok {
		t.Error("an escaped text line was read as a ref")
	}
	if _, _, err := rs.lookup("[12]"); err != nil {
		t.Errorf("[12]: %v", err)
	}
	if _, _, err := rs.lookup("node_14"); err != nil {
		t.Errorf("node_14: %v", err)
	}
}
