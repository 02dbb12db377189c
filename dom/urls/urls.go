// Package urls shows URLs without secrets. Safe, which every output uses,
// drops user info. It hides the values of credential-like query and
// fragment keys. A stricter function is for requests.
package urls

import (
	"net/url"
	"strings"
)

// Redacted replaces a hidden part of a URL. That is a credential's value
// in a page URL, or every query value in a listed request.
const Redacted = "…"

// Safe is a URL as domscope shows or writes it anywhere. It drops user
// info ("user:password@"). It replaces by Redacted the values of
// credential-like query and fragment keys: token, session, key, password,
// secret, auth, code, signature… (see credentialKey). The rest stays as
// it was, byte for byte: nothing is decoded or encoded again. It reads the
// URL by its delimiters, not by a parser. So a URL no parser accepts
// loses its credentials all the same. Navigation uses the real URL. This
// is only for what people and agents read.
func Safe(raw string) string { return redactURL(raw, false) }

// Redact is the stricter form the network list uses for requests. Their
// queries carry search terms and personal data as well as tokens. So
// every query value is hidden. So is a query part with no "=": it could
// be a bare token. The fragment is dropped, and a data URL keeps only its
// media type. It shares Safe's reading of the URL.
func Redact(u string) string {
	if rest, ok := cutPrefixFold(u, "data:"); ok {
		mt, _, _ := strings.Cut(rest, ",")
		return "data:" + mt + "," + Redacted
	}
	if i := strings.IndexByte(u, '#'); i >= 0 {
		u = u[:i]
	}
	return redactURL(u, true)
}

// redactURL drops the user info and hides the credentials' values. With
// every set, it hides every value.
func redactURL(u string, every bool) string { return redactURLDepth(u, every, maxURLNesting, nil) }

// Secrets are the parts of u that Safe hides, as written and decoded.
// That is the password of its user info and the credentials' values. A
// capture is cleaned of them wherever the page copied them (see
// capture.ScrubURLs).
func Secrets(u string) []string {
	var found []string
	redactURLDepth(u, false, maxURLNesting, &found)
	return found
}

// redactURLDepth is redactURL that looks depth levels deep into encoded
// values for URLs (see hidesURL). What it hides is added to found, if set.
func redactURLDepth(u string, every bool, depth int, found *[]string) string {
	if !strings.ContainsAny(u, "@?#") {
		return u // nothing to hide, and no copy (the flat view runs it on every link)
	}
	var b strings.Builder
	head, query, frag := splitURL(u)
	b.Grow(len(u))
	b.WriteString(dropUserInfo(head, found))
	if query >= 0 {
		end := len(u)
		if frag >= 0 {
			end = frag
		}
		b.WriteByte('?')
		redactParams(&b, u[query+1:end], every, depth, found)
	}
	if frag >= 0 {
		b.WriteByte('#')
		f := u[frag+1:]
		if hidesDecoded(f, every, depth, found) {
			// a page may decode its fragment before it reads it
			b.WriteString(Redacted)
		} else {
			redactParams(&b, f, every, depth, found)
		}
	}
	return b.String()
}

// hidesDecoded reports whether a fragment holds, once percent-decoded, a
// credential that its reading as written misses ("#token%3Dabc"). A page
// may decode its fragment before it reads it. What it hides is added to
// found.
func hidesDecoded(frag string, every bool, depth int, found *[]string) bool {
	if every || !strings.Contains(frag, "%") {
		return false
	}
	var as strings.Builder
	redactParams(&as, frag, false, depth, nil)
	d, err := url.PathUnescape(as.String())
	if err != nil {
		return false
	}
	var b strings.Builder
	var hid []string
	redactParams(&b, d, false, depth, &hid)
	if b.String() == d {
		return false
	}
	if found != nil {
		*found = append(*found, hid...)
	}
	return true
}

// splitURL returns the part before the query and fragment. It also
// returns the offsets of the "?" and "#" that start them (-1: none). A
// "?" inside the fragment belongs to the fragment.
func splitURL(u string) (head string, query, frag int) {
	query, frag = -1, strings.IndexByte(u, '#')
	end := len(u)
	if frag >= 0 {
		end = frag
	}
	if i := strings.IndexByte(u[:end], '?'); i >= 0 {
		query = i
		end = i
	}
	return u[:end], query, frag
}

// dropUserInfo removes "user:password@" from the authority of head (a URL
// without its query and fragment). The authority runs to the first "/"
// after it. Browsers end it at a "\" too for web schemes. But a wider
// authority can only drop more, never keep a password. For web schemes
// browsers also accept "http:u:p@host" and backslashes for the slashes.
// So does this.
func dropUserInfo(head string, found *[]string) string {
	start, web := authorityStart(head)
	if start < 0 {
		return head
	}
	var b strings.Builder
	b.WriteString(head[:start])
	rest := head[start:]
	for {
		end := len(rest)
		if i := strings.IndexByte(rest, '/'); i >= 0 {
			end = i
		}
		at := strings.LastIndexByte(rest[:end], '@')
		if at < 0 {
			break
		}
		if found != nil {
			if _, pw, ok := strings.Cut(rest[:at], ":"); ok {
				addSecret(found, pw)
			}
		}
		rest = rest[at+1:]
		// "ws://u@/x@h": a browser skips the slashes left where the
		// authority was. Then "x@h" is the next one.
		n := 0
		for web && n < len(rest) && (rest[n] == '/' || rest[n] == '\\') {
			n++
		}
		if n == 0 {
			break
		}
		b.WriteString(rest[:n])
		rest = rest[n:]
	}
	b.WriteString(rest)
	return b.String()
}

// authorityStart is where the authority of u starts. It is -1 when u has
// none (a relative URL, mailto:, data:…). web is set for the schemes
// whose slashes browsers take loosely (any number, "\\" for "/").
func authorityStart(u string) (start int, web bool) {
	i := 0
	for i < len(u) && u[i] <= ' ' { // browsers trim leading controls and spaces
		i++
	}
	if strings.HasPrefix(u[i:], "//") {
		return i + 2, false
	}
	j := i
	for j < len(u) && SchemeChar(u[j], j == i) {
		j++
	}
	if j == i || j >= len(u) || u[j] != ':' {
		return -1, false
	}
	scheme := strings.ToLower(u[i:j])
	k := j + 1
	switch scheme {
	case "http", "https", "ws", "wss", "ftp", "file":
		for k < len(u) && (u[k] == '/' || u[k] == '\\') {
			k++
		}
		return k, true
	}
	if strings.HasPrefix(u[k:], "//") {
		return k + 2, false
	}
	return -1, false
}

// SchemeChar reports whether c can be in a URL scheme (a letter first).
func SchemeChar(c byte, first bool) bool {
	switch {
	case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z':
		return true
	case first:
		return false
	}
	return c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.'
}

// redactParams writes s, a query or fragment, with the values of its
// credential keys replaced (every value, with every). Parts are split at
// "&". A part is also read as several at ";", which old servers take as
// "&". It is split at "?" and "#" too, for a URL inside a value
// ("#/callback?code=…", "next=/p?token=…"). A credential's value runs to
// the next "&". Cutting it short at one of the others could leave part
// of it.
func redactParams(b *strings.Builder, s string, every bool, depth int, found *[]string) {
	for {
		i := strings.IndexByte(s, '&')
		part := s
		if i >= 0 {
			part = s[:i]
		}
		b.WriteString(redactPart(part, every, depth, found))
		if i < 0 {
			return
		}
		b.WriteByte('&')
		s = s[i+1:]
	}
}

// redactPart is one part of a query or fragment (between "&"), with what
// has to be hidden hidden. With every, every value is hidden. So is a
// part with no "=", whole: it could be a bare token.
func redactPart(part string, every bool, depth int, found *[]string) string {
	if every {
		k, _, has := strings.Cut(part, "=")
		switch {
		case part == "":
			return part
		case !has:
			return Redacted
		}
		return k + "=" + Redacted
	}
	off := 0
	for {
		j := strings.IndexAny(part[off:], ";?#")
		end := len(part)
		if j >= 0 {
			end = off + j
		}
		k, v, has := strings.Cut(part[off:end], "=")
		rest := part[min(off+len(k)+1, len(part)):] // to the "&": all of it may be the value
		if has && (rest != "" && credentialKey(k) || v != "" && hidesURL(v, depth)) {
			if found != nil {
				addSecret(found, part[off+len(k)+1:])
			}
			return part[:off+len(k)+1] + Redacted
		}
		if j < 0 {
			return part
		}
		off = end + 1
	}
}

// maxURLNesting bounds how many times a value is decoded to look for a
// URL inside. Each level reads the whole value again.
const maxURLNesting = 3

// hidesURL reports whether a value is, or encodes (up to depth times), a
// URL that Safe would change. That is a redirect target with a token or
// user info in it. Such a value is hidden whole. So is one still encoded
// after depth decodings (fail closed).
func hidesURL(v string, depth int) bool {
	if dropUserInfo(v, nil) != v {
		return true
	}
	if !strings.Contains(v, "%") {
		return false
	}
	d, err := url.QueryUnescape(v)
	if err != nil || d == v {
		return false
	}
	if depth == 0 {
		return true
	}
	return redactURLDepth(d, false, depth-1, nil) != d
}

// addSecret adds a hidden value to found. It adds its decoded form too
// when that differs, since a page may show either.
func addSecret(found *[]string, v string) {
	*found = append(*found, v)
	if d, err := url.QueryUnescape(v); err == nil && d != v {
		*found = append(*found, d)
	}
}

// credentialNames are query keys whose value is a credential. They are
// compared without case, "-", "_" and ".": access_token, api-key and
// APIKEY are one.
var credentialNames = map[string]bool{
	"token": true, "accesstoken": true, "idtoken": true, "session": true, "sid": true,
	"key": true, "apikey": true, "password": true, "pass": true, "pwd": true,
	"secret": true, "auth": true, "code": true, "signature": true, "sig": true, "jwt": true,
	// common spellings of the same things
	"passwd": true, "sessionid": true, "phpsessid": true, "jsessionid": true, "authtoken": true,
	"refreshtoken": true, "clientsecret": true, "accesskey": true, "secretkey": true,
	"privatekey": true, "otp": true, "authorization": true, "bearer": true, "credential": true,
}

// credentialWords make a compound key a credential when they end it:
// refresh_token, X-Amz-Signature, oauth_token, client_secret. Not
// token_type. Short, common words (code, key, pass) count only as the
// whole key. So country_code and sort_key stay readable.
var credentialWords = map[string]bool{
	"token": true, "session": true, "password": true, "passwd": true, "secret": true,
	"signature": true, "jwt": true, "credential": true, "credentials": true, "apikey": true,
	"sessionid": true, "accesstoken": true, "authtoken": true,
}

// credentialKey reports whether a query key names a credential. The key is
// compared percent-decoded ("%74oken" is token) and without case.
func credentialKey(k string) bool {
	if d, err := url.QueryUnescape(k); err == nil {
		k = d
	}
	k = strings.ToLower(strings.TrimSpace(k))
	if credentialNames[strings.NewReplacer("-", "", "_", "", ".", "").Replace(k)] {
		return true
	}
	words := strings.FieldsFunc(k, func(r rune) bool {
		return r == '-' || r == '_' || r == '.' || r == '[' || r == ']' || r == ' '
	})
	return len(words) > 0 && credentialWords[words[len(words)-1]]
}

func cutPrefixFold(s, prefix string) (string, bool) {
	if len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix) {
		return s[len(prefix):], true
	}
	return s, false
}

// SafeTitle is a tab's title as shown next to its URL. Chrome titles a
// page that has no <title> with its URL. The URL's user info and
// credentials are hidden there too.
func SafeTitle(title, pageURL string) string {
	if title == "" || Safe(pageURL) == pageURL {
		return title
	}
	if start, _ := authorityStart(pageURL); start >= 0 {
		end := len(pageURL)
		if i := strings.IndexAny(pageURL[start:], "/?#"); i >= 0 {
			end = start + i
		}
		if at := strings.LastIndexByte(pageURL[start:end], '@'); at >= 0 {
			title = strings.ReplaceAll(title, pageURL[start:start+at+1], "")
		}
	}
	var found []string
	redactURLDepth(pageURL, false, maxURLNesting, &found)
	for _, s := range found {
		if s != "" {
			title = strings.ReplaceAll(title, s, Redacted)
		}
	}
	return title
}

// SafeIn is text with every absolute URL in it made safe with Safe. A URL
// runs from "scheme://" to the next space or quote. It is for messages
// and descriptions that quote a URL.
func SafeIn(text string) string {
	if !strings.Contains(text, "://") {
		return text
	}
	var b strings.Builder
	for {
		i := strings.Index(text, "://")
		if i < 0 {
			b.WriteString(text)
			return b.String()
		}
		start := i
		for start > 0 && SchemeChar(text[start-1], false) {
			start--
		}
		for start < i && !SchemeChar(text[start], true) {
			start++
		}
		end := len(text)
		if j := strings.IndexAny(text[i+3:], " \t\r\n\"'<>`"); j >= 0 {
			end = i + 3 + j
		}
		b.WriteString(text[:start])
		b.WriteString(Safe(text[start:end]))
		text = text[end:]
	}
}
