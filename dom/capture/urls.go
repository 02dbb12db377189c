package capture

import (
	"bytes"
	"slices"
	"strings"
	"sync"

	"github.com/go-json-experiment/json/jsontext"

	"domscope/dom"
	"domscope/dom/cdpjson"
	"domscope/dom/urls"
)

// minURLSecret is the shortest credential of a page URL that is also
// removed from the page's other strings. Those are text, scripts and
// relative links.
// A shorter one ("code=12") would blank unrelated text as well.
const minURLSecret = 6

// ScrubURLs makes a capture's URLs safe to show and save (urls.Safe).
// That covers the page's, its targets' and frames' URLs. It covers every
// string of the CDP data that is an absolute URL. Those are a document's
// URL and base URL, an AX node's url, an absolute href or src. Chrome
// keeps the user info in all of them. It resolves even href="#top"
// against the page's URL. The page URLs' credentials are then removed
// from every other string. The page may have copied them there (see
// minURLSecret).
func ScrubURLs(raw *dom.RawCapture) { ScrubURLsKnown(raw, nil) }

// ScrubURLsKnown is ScrubURLs for a part of a page whose other URLs held
// the known credentials (a live model's frames): it hides those too.
func ScrubURLsKnown(raw *dom.RawCapture, known []string) {
	secrets := slices.Clone(known)
	safe := func(u string) string {
		secrets = append(secrets, urls.Secrets(u)...)
		return urls.Safe(u)
	}
	raw.URL = safe(raw.URL)
	for i := range raw.Targets {
		t := &raw.Targets[i]
		t.URL = safe(t.URL)
		for j := range t.Frames {
			t.Frames[j].URL = safe(t.Frames[j].URL)
		}
	}
	// The absolute URLs first: their credentials are looked for in the
	// rest. A live model's capture has fresher URLs than its own fields.
	// The blobs are read side by side, and their secrets kept in order.
	var blobs []*[]byte
	for i := range raw.Targets {
		t := &raw.Targets[i]
		blobs = append(blobs, (*[]byte)(&t.Document))
		for j := range t.DocumentParts {
			blobs = append(blobs, (*[]byte)(&t.DocumentParts[j]))
		}
		for j := range t.AXTrees {
			blobs = append(blobs, (*[]byte)(&t.AXTrees[j]))
		}
		blobs = append(blobs, (*[]byte)(&t.Layout))
	}
	found := make([][]string, len(blobs))
	var wg sync.WaitGroup
	for i, b := range blobs {
		wg.Go(func() { *b = safeURLStrings(*b, &found[i]) })
	}
	wg.Wait()
	for _, f := range found {
		secrets = append(secrets, f...)
	}
	secrets = MergeURLSecrets(nil, secrets)
	if len(secrets) == 0 {
		return
	}
	raw.URLSecrets = secrets
	hide := func(s string) string { return HideURLSecrets(s, secrets) }
	raw.Title = hide(raw.Title)
	for i := range raw.Targets {
		t := &raw.Targets[i]
		t.Error = hide(t.Error)
		t.Document = RewriteJSON(t.Document, secrets, hide)
		for j := range t.DocumentParts {
			t.DocumentParts[j] = RewriteJSON(t.DocumentParts[j], secrets, hide)
		}
		for j := range t.AXTrees {
			t.AXTrees[j] = RewriteJSON(t.AXTrees[j], secrets, hide)
		}
		t.Layout = RewriteJSON(t.Layout, secrets, hide, "strings")
	}
}

// safeURLStrings rewrites every JSON string of blob that is an absolute
// URL to urls.Safe of it. Such a URL is "scheme://…", written
// "scheme:\/\/…" by some JSON writers. It adds what it hid to secrets.
// Most strings are not URLs. So it looks only where "://" is, with
// bytes.Index, rather than decoding the whole blob.
func safeURLStrings(blob []byte, secrets *[]string) []byte {
	var edits []cdpjson.Edit
	// "//" is looked for rather than "://". ':' is in every object of the
	// blob, '/' much rarer. bytes.Index skips ahead by its first byte.
	for _, sep := range [][]byte{[]byte("//"), []byte(`\/\/`)} {
		for off := 0; off < len(blob); {
			i := bytes.Index(blob[off:], sep)
			if i < 0 {
				break
			}
			i += off
			off = i + len(sep)
			if i == 0 || blob[i-1] != ':' {
				continue
			}
			i--
			start := i
			for start > 0 && urls.SchemeChar(blob[start-1], false) {
				start--
			}
			// a string that starts with the scheme: its opening quote
			// is right before it and is not escaped. A closing quote is
			// never followed by a letter in JSON.
			if start == i || !urls.SchemeChar(blob[start], true) || start == 0 || blob[start-1] != '"' || escaped(blob, start-1) {
				continue
			}
			end := closingQuote(blob, off)
			if end < 0 {
				break
			}
			off = end + 1
			v := jsontext.Value(blob[start-1 : end+1])
			s := cdpjson.Text(v)
			if safe := urls.Safe(s); safe != s {
				*secrets = append(*secrets, urls.Secrets(s)...)
				edits = append(edits, cdpjson.Edit{Start: int64(start - 1), End: int64(end + 1), Repl: cdpjson.Quote(safe)})
			}
		}
	}
	return cdpjson.Splice(blob, edits)
}

// escaped reports whether blob[i] is escaped by the backslashes before it.
func escaped(blob []byte, i int) bool {
	n := 0
	for i-n-1 >= 0 && blob[i-n-1] == '\\' {
		n++
	}
	return n%2 == 1
}

// closingQuote is the offset of the first unescaped '"' from off, or -1.
func closingQuote(blob []byte, off int) int {
	for {
		q := bytes.IndexByte(blob[off:], '"')
		if q < 0 {
			return -1
		}
		q += off
		if !escaped(blob, q) {
			return q
		}
		off = q + 1
	}
}

// HideURLSecrets replaces each of secrets (longest first, as
// RawCapture.URLSecrets) in s, as a capture does in every string.
func HideURLSecrets(s string, secrets []string) string {
	for _, sec := range secrets {
		s = strings.ReplaceAll(s, sec, urls.Redacted)
	}
	return s
}

// MergeURLSecrets adds found to known as captures keep them: once each,
// none shorter than minURLSecret, the longest first (so a value is not
// half replaced by a part of it).
func MergeURLSecrets(known, found []string) []string {
	out := slices.DeleteFunc(dom.CleanSecrets(slices.Concat(known, found)), func(s string) bool { return len(s) < minURLSecret })
	slices.SortStableFunc(out, func(a, b string) int { return len(b) - len(a) })
	return out
}

// SafeURLString is what a capture makes of one string: an absolute URL
// ("scheme://…") made safe (urls.Safe), with the credentials it hid.
// Any other string is left as it is.
func SafeURLString(s string) (string, []string) {
	i := strings.Index(s, "://")
	if i <= 0 || !urls.SchemeChar(s[0], true) {
		return s, nil
	}
	for j := 1; j < i; j++ {
		if !urls.SchemeChar(s[j], false) {
			return s, nil
		}
	}
	safe := urls.Safe(s)
	if safe == s {
		return s, nil
	}
	return safe, urls.Secrets(s)
}
