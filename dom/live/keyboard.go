package live

import (
	"strings"

	"github.com/chromedp/chromedp/kb"

	"domscope/dom"
)

// KeyDef is one key of a US keyboard as CDP's Input.dispatchKeyEvent wants it.
type KeyDef struct {
	Key      string // DOM key value ("a", "Enter", "ArrowDown")
	Code     string // DOM code of the physical key ("KeyA", "Enter")
	KeyCode  int    // Windows virtual key code
	Text     string // text the key types, "" for none
	Location int    // 1 left, 2 right, 3 numpad
	// Shifted is the key value and text with Shift held (letters, digits, punctuation).
	Shifted string
}

// Modifier bits of CDP input events.
const (
	ModAlt   = 1
	ModCtrl  = 2
	ModMeta  = 4
	ModShift = 8
)

// usKeys is the US layout by key name, from chromedp's kb table. It
// holds key, code, Windows key code and text as Chrome's own tables give
// them. It lists the named keys we accept, then every printable ASCII
// character.
var usKeys = func() map[string]KeyDef {
	named := []string{kb.Enter, kb.Tab, kb.Escape, kb.Backspace, kb.Delete, kb.Insert, kb.Home, kb.End,
		kb.PageUp, kb.PageDown, kb.ArrowLeft, kb.ArrowUp, kb.ArrowRight, kb.ArrowDown, kb.CapsLock,
		kb.Pause, kb.ContextMenu, kb.Shift, kb.Control, kb.Alt, kb.Meta,
		kb.F1, kb.F2, kb.F3, kb.F4, kb.F5, kb.F6, kb.F7, kb.F8, kb.F9, kb.F10, kb.F11, kb.F12}
	m := map[string]KeyDef{}
	for _, k := range named {
		d := keyDef(kb.Keys[[]rune(k)[0]])
		m[d.Key] = d
	}
	for r := rune(0x20); r < 0x7f; r++ {
		if k, ok := kb.Keys[r]; ok {
			m[k.Key] = keyDef(k)
		}
	}
	// Shift turns a printable key into the character on the same physical
	// key: "a" → "A", "1" → "!".
	for name, d := range m {
		for _, o := range m {
			if o.Code == d.Code && o.Text != "" && o.Text != d.Text && kb.Keys[[]rune(o.Key)[0]].Shift && !kb.Keys[[]rune(name)[0]].Shift {
				d.Shifted = o.Key
				m[name] = d
			}
		}
	}
	return m
}()

// genericCodes are the Windows key codes of the modifier keys as the DOM
// reports them (KeyboardEvent.keyCode). kb gives the left-hand codes of
// the native layer (VK_LSHIFT 160 and so on), which pages do not expect.
var genericCodes = map[string]int{"Shift": 16, "Control": 17, "Alt": 18, "Meta": 91}

// keyDef turns a kb entry into a KeyDef.
func keyDef(k *kb.Key) KeyDef {
	d := KeyDef{Key: k.Key, Code: k.Code, KeyCode: int(k.Windows), Text: k.Text}
	if c, ok := genericCodes[k.Key]; ok {
		d.KeyCode, d.Location = c, 1
	}
	if d.Key == " " {
		d.Shifted = " "
	}
	return d
}

// keyAliases maps other common spellings (lowercase) to table names.
var keyAliases = map[string]string{
	"enter": "Enter", "return": "Enter", "tab": "Tab", "escape": "Escape", "esc": "Escape",
	"backspace": "Backspace", "delete": "Delete", "del": "Delete", "insert": "Insert", "ins": "Insert",
	"home": "Home", "end": "End", "pageup": "PageUp", "pgup": "PageUp", "pagedown": "PageDown", "pgdn": "PageDown",
	"arrowleft": "ArrowLeft", "left": "ArrowLeft", "arrowup": "ArrowUp", "up": "ArrowUp",
	"arrowright": "ArrowRight", "right": "ArrowRight", "arrowdown": "ArrowDown", "down": "ArrowDown",
	"space": " ", "spacebar": " ", "capslock": "CapsLock", "pause": "Pause", "contextmenu": "ContextMenu",
	"plus": "=", "minus": "-",
}

// modifierAliases maps modifier spellings (lowercase) to bits and key names.
var modifierAliases = map[string]int{
	"alt": ModAlt, "option": ModAlt, "opt": ModAlt,
	"ctrl": ModCtrl, "control": ModCtrl,
	"meta": ModMeta, "cmd": ModMeta, "command": ModMeta, "super": ModMeta, "win": ModMeta,
	"shift": ModShift,
}

var modifierKeys = []struct {
	bit  int
	name string
}{{ModCtrl, "Control"}, {ModAlt, "Alt"}, {ModMeta, "Meta"}, {ModShift, "Shift"}}

// LookupKey finds a key by name: table names ("Enter", "a", "F5", "!"),
// aliases ("esc", "down", "space"), case-insensitive for named keys.
func LookupKey(name string) (KeyDef, bool) {
	if d, ok := usKeys[name]; ok {
		return d, true
	}
	low := strings.ToLower(name)
	if a, ok := keyAliases[low]; ok {
		return usKeys[a], true
	}
	if len(low) >= 2 && low[0] == 'f' {
		if d, ok := usKeys["F"+low[1:]]; ok {
			return d, true
		}
	}
	return KeyDef{}, false
}

// KeyPress is a parsed key chord: a key and the modifiers held around it.
type KeyPress struct {
	Def       KeyDef
	Modifiers int
}

// ParseKey parses "Enter", "ctrl+a", "Shift+Tab", "Control+Shift+ArrowDown"
// plus extra modifier names ("Ctrl", "Shift", ...).
func ParseKey(spec string, modifiers []string) (KeyPress, error) {
	var kp KeyPress
	bits, err := modifierBits(modifiers)
	if err != nil {
		return kp, err
	}
	if spec != " " {
		spec = strings.TrimSpace(spec)
	}
	if spec == "" {
		return kp, dom.Errorf(dom.ValidationError, nil, "no key given: use a name like Enter, Escape, Tab, ArrowDown, a, F5 or ctrl+a")
	}
	parts := []string{spec}
	// "+" alone, or a chord ending in "+" ("ctrl++"), names the plus key.
	if spec != "+" && strings.Contains(spec, "+") {
		parts = strings.Split(spec, "+")
		if strings.HasSuffix(spec, "++") {
			parts = append(parts[:len(parts)-2], "+")
		}
	}
	keyName := parts[len(parts)-1]
	for _, m := range parts[:len(parts)-1] {
		b, ok := modifierAliases[strings.ToLower(strings.TrimSpace(m))]
		if !ok {
			return kp, dom.Errorf(dom.ValidationError, nil, "unknown modifier %q in %q: use Ctrl, Alt, Shift or Meta", m, spec)
		}
		bits |= b
	}
	if b, ok := modifierAliases[strings.ToLower(keyName)]; ok && len(parts) == 1 {
		// A lone modifier: press it by itself.
		for _, mk := range modifierKeys {
			if mk.bit == b {
				keyName = mk.name
			}
		}
	}
	if keyName != " " {
		keyName = strings.TrimSpace(keyName)
	}
	def, ok := LookupKey(keyName)
	if !ok {
		return kp, dom.Errorf(dom.ValidationError, nil, "unknown key %q: use a US key name like %s", keyName, strings.Join(sampleKeys(), ", "))
	}
	kp.Def, kp.Modifiers = def, bits
	if bits&ModShift != 0 && def.Shifted != "" {
		kp.Def.Key, kp.Def.Text = def.Shifted, def.Shifted
	}
	// With Ctrl, Alt or Meta held a key types nothing: it is a shortcut.
	if bits&(ModCtrl|ModAlt|ModMeta) != 0 {
		kp.Def.Text = ""
	}
	return kp, nil
}

func modifierBits(names []string) (int, error) {
	bits := 0
	for _, n := range names {
		b, ok := modifierAliases[strings.ToLower(strings.TrimSpace(n))]
		if !ok {
			return 0, dom.Errorf(dom.ValidationError, nil, "unknown modifier %q: use Ctrl, Alt, Shift or Meta", n)
		}
		bits |= b
	}
	return bits, nil
}

func sampleKeys() []string {
	return []string{"Enter", "Escape", "Tab", "Backspace", "Delete", "ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight", "Home", "End", "PageUp", "PageDown", "Space", "F1-F12", "a-z", "0-9"}
}

// keyEvents returns the Input.dispatchKeyEvent parameters that press kp.
// Modifier keys go down, then the key down and up, then modifiers up in
// reverse. The key down is keyDown when it types text, else rawKeyDown.
func keyEvents(kp KeyPress) []map[string]any {
	var evs []map[string]any
	held := 0
	ev := func(typ string, d KeyDef, mods int) map[string]any {
		m := map[string]any{"type": typ, "key": d.Key, "code": d.Code,
			"windowsVirtualKeyCode": d.KeyCode, "nativeVirtualKeyCode": d.KeyCode, "modifiers": mods}
		if d.Location != 0 {
			m["location"] = d.Location
		}
		if typ == "keyDown" {
			m["text"] = d.Text
			m["unmodifiedText"] = d.Text
		}
		return m
	}
	var mods []KeyDef
	for _, mk := range modifierKeys {
		if kp.Modifiers&mk.bit != 0 && kp.Def.Key != mk.name {
			held |= mk.bit
			d := usKeys[mk.name]
			mods = append(mods, d)
			evs = append(evs, ev("rawKeyDown", d, held))
		}
	}
	down := "rawKeyDown"
	if kp.Def.Text != "" {
		down = "keyDown"
	}
	evs = append(evs, ev(down, kp.Def, kp.Modifiers), ev("keyUp", kp.Def, kp.Modifiers))
	for i := len(mods) - 1; i >= 0; i-- {
		bit := 0
		for _, mk := range modifierKeys {
			if mk.name == mods[i].Key {
				bit = mk.bit
			}
		}
		held &^= bit
		evs = append(evs, ev("keyUp", mods[i], held))
	}
	return evs
}
