package live

import (
	"reflect"
	"testing"

	"domscope/dom"
)

func TestParseKey(t *testing.T) {
	cases := []struct {
		spec              string
		mods              []string
		key, code, text   string
		keyCode, modifier int
	}{
		{"Enter", nil, "Enter", "Enter", "\r", 13, 0},
		{"enter", nil, "Enter", "Enter", "\r", 13, 0},
		{"Escape", nil, "Escape", "Escape", "", 27, 0},
		{"esc", nil, "Escape", "Escape", "", 27, 0},
		{"Tab", nil, "Tab", "Tab", "", 9, 0},
		{"shift+Tab", nil, "Tab", "Tab", "", 9, ModShift},
		{"ArrowDown", nil, "ArrowDown", "ArrowDown", "", 40, 0},
		{"down", nil, "ArrowDown", "ArrowDown", "", 40, 0},
		{"ArrowUp", nil, "ArrowUp", "ArrowUp", "", 38, 0},
		{"ArrowLeft", nil, "ArrowLeft", "ArrowLeft", "", 37, 0},
		{"ArrowRight", nil, "ArrowRight", "ArrowRight", "", 39, 0},
		{"a", nil, "a", "KeyA", "a", 65, 0},
		{"A", nil, "A", "KeyA", "A", 65, 0},
		{"shift+a", nil, "A", "KeyA", "A", 65, ModShift},
		{"ctrl+a", nil, "a", "KeyA", "", 65, ModCtrl},
		{"Control+Shift+ArrowDown", nil, "ArrowDown", "ArrowDown", "", 40, ModCtrl | ModShift},
		{"a", []string{"Meta"}, "a", "KeyA", "", 65, ModMeta},
		{"x", []string{"Alt", "ctrl"}, "x", "KeyX", "", 88, ModAlt | ModCtrl},
		{"F5", nil, "F5", "F5", "", 116, 0},
		{"f12", nil, "F12", "F12", "", 123, 0},
		{"Home", nil, "Home", "Home", "", 36, 0},
		{"End", nil, "End", "End", "", 35, 0},
		{"PageUp", nil, "PageUp", "PageUp", "", 33, 0},
		{"PageDown", nil, "PageDown", "PageDown", "", 34, 0},
		{"Backspace", nil, "Backspace", "Backspace", "", 8, 0},
		{"Delete", nil, "Delete", "Delete", "", 46, 0},
		{"Space", nil, " ", "Space", " ", 32, 0},
		{" ", nil, " ", "Space", " ", 32, 0},
		{"1", nil, "1", "Digit1", "1", 49, 0},
		{"shift+1", nil, "!", "Digit1", "!", 49, ModShift},
		{"!", nil, "!", "Digit1", "!", 49, 0},
		{"/", nil, "/", "Slash", "/", 191, 0},
		{"?", nil, "?", "Slash", "?", 191, 0},
		{"ctrl++", nil, "+", "Equal", "", 187, ModCtrl},
		{"+", nil, "+", "Equal", "+", 187, 0},
		{"Shift", nil, "Shift", "ShiftLeft", "", 16, 0},
		{"cmd+c", nil, "c", "KeyC", "", 67, ModMeta},
	}
	for _, c := range cases {
		kp, err := ParseKey(c.spec, c.mods)
		if err != nil {
			t.Errorf("%q: %v", c.spec, err)
			continue
		}
		got := []any{kp.Def.Key, kp.Def.Code, kp.Def.Text, kp.Def.KeyCode, kp.Modifiers}
		want := []any{c.key, c.code, c.text, c.keyCode, c.modifier}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%q %v: got %q, want %q", c.spec, c.mods, got, want)
		}
	}
}

func TestParseKeyErrors(t *testing.T) {
	for _, spec := range []string{"", "  ", "Hyper+a", "NoSuchKey", "ctrl+", "F13"} {
		if _, err := ParseKey(spec, nil); err == nil || dom.CodeOf(err) != dom.ValidationError {
			t.Errorf("%q: want VALIDATION_ERROR, got %v", spec, err)
		}
	}
	if _, err := ParseKey("a", []string{"Super2"}); dom.CodeOf(err) != dom.ValidationError {
		t.Errorf("bad modifier name: %v", err)
	}
}

func TestKeyEventsOrder(t *testing.T) {
	kp, err := ParseKey("ctrl+shift+Tab", nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range keyEvents(kp) {
		got = append(got, e["type"].(string)+" "+e["key"].(string)+" "+itoa(e["modifiers"].(int)))
	}
	want := []string{
		"rawKeyDown Control 2", "rawKeyDown Shift 10",
		"rawKeyDown Tab 10", "keyUp Tab 10",
		"keyUp Shift 2", "keyUp Control 0",
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("events:\n got %q\nwant %q", got, want)
	}
	kp, _ = ParseKey("a", nil)
	evs := keyEvents(kp)
	if len(evs) != 2 || evs[0]["type"] != "keyDown" || evs[0]["text"] != "a" || evs[1]["type"] != "keyUp" {
		t.Fatalf("plain a: %v", evs)
	}
}

func itoa(i int) string {
	if i == 0 {
		return "0"
	}
	s := ""
	for i > 0 {
		s = string(rune('0'+i%10)) + s
		i /= 10
	}
	return s
}
