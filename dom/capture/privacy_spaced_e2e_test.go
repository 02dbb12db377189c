package capture_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"domscope/dom"
	"domscope/dom/build"
	"domscope/dom/flatten"
)

// TestPrivacySpacedSecret: Chrome names a button labelled by a label that
// embeds a field with the field's value, its spaces squeezed. A value
// with runs of spaces must still be masked there, in every view.
func TestPrivacySpacedSecret(t *testing.T) {
	p, _, _ := capOpen(t, "privacy-variants.html?other={other}")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	add := `(() => { const l = document.createElement('label'); l.id = 'spaced'; l.textContent = 'Spaced ';
		const i = document.createElement('input'); i.autocomplete = 'new-password'; i.value = ' SPACED  SECRET  1121 ';
		l.append(i); document.body.append(l); const b = document.createElement('button');
		b.setAttribute('aria-labelledby', 'spaced'); b.textContent = 'y'; document.body.append(b); })()`
	if err := p.Call(ctx, "Runtime.evaluate", map[string]any{"expression": add}, nil); err != nil {
		t.Fatal(err)
	}
	snap, err := build.Build(capRaw(t, p), build.Options{})
	if err != nil {
		t.Fatal(err)
	}
	sd, _ := flatten.Flatten(snap, dom.DefaultOptions())
	js, err := flatten.FormatJSON(sd)
	if err != nil {
		t.Fatal(err)
	}
	for where, out := range map[string]string{"text": flatten.FormatText(sd), "json": string(js)} {
		if i := strings.Index(out, "SPACED"); i >= 0 {
			t.Errorf("the %s view leaks a spaced secret: …%s…", where, out[max(0, i-80):min(len(out), i+40)])
		}
	}
}
