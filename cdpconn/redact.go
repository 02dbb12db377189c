package cdpconn

import (
	"errors"
	"net/url"
	"sort"
	"strings"

	"domscope/dom"
)

// A hosted browser farm's endpoint carries its secret in the URL. It is a
// token or key in the query (ws://host:3000/?token=…), sometimes user
// info. Whatever shows an endpoint shows it through Redact. Every error
// Connect returns has the secrets taken out again (hideSecrets).

// hidden stands in for a secret.
const hidden = "…"

// Redact is an endpoint as it may be shown. It has no user info and no
// fragment. Every query parameter's value shows as "…", since any of
// them may be the key.
func Redact(endpoint string) string {
	u, err := url.Parse(strings.TrimSpace(endpoint))
	if err != nil {
		// Unparsable: keep what comes before anything that may be secret.
		s := endpoint
		if i := strings.IndexAny(s, "?#"); i >= 0 {
			s = s[:i] + "?" + hidden
		}
		if i := strings.Index(s, "://"); i >= 0 {
			if j := strings.LastIndex(s[i+3:], "@"); j >= 0 {
				s = s[:i+3] + s[i+3+j+1:]
			}
		}
		return s
	}
	u.User = nil
	u.Fragment, u.RawFragment = "", ""
	u.RawQuery = redactQuery(u.RawQuery)
	return u.String()
}

// redactQuery keeps a query's keys and hides its values.
func redactQuery(raw string) string {
	if raw == "" {
		return ""
	}
	var keys []string
	seen := map[string]bool{}
	for _, kv := range strings.Split(raw, "&") {
		k, _, _ := strings.Cut(kv, "=")
		if k != "" && !seen[k] {
			seen[k] = true
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for i, k := range keys {
		keys[i] = k + "=" + hidden
	}
	return strings.Join(keys, "&")
}

// secretsOf lists what in a URL must not be shown: user info and query
// values. It lists both as written and decoded, longest first. Values shorter than
// minSecret are left out. Hiding "1" everywhere would garble a message.
func secretsOf(raw string) []string {
	const minSecret = 4
	var out []string
	add := func(s string) {
		if len(s) >= minSecret {
			out = append(out, s)
		}
	}
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil {
		return nil
	}
	if u.User != nil {
		add(u.User.Username())
		if p, ok := u.User.Password(); ok {
			add(p)
		}
	}
	for _, kv := range strings.Split(u.RawQuery, "&") {
		_, v, _ := strings.Cut(kv, "=")
		add(v)
		if d, err := url.QueryUnescape(v); err == nil {
			add(d)
		}
	}
	add(u.Fragment)
	sort.Slice(out, func(i, j int) bool { return len(out[i]) > len(out[j]) })
	return out
}

// hideSecrets returns err with the secrets of the URLs taken out of its
// message and of its cause's text. The code stays. The cause becomes
// plain text; it is only ever printed.
func hideSecrets(err error, urls ...string) error {
	if err == nil {
		return nil
	}
	var secrets []string
	for _, u := range urls {
		secrets = append(secrets, secretsOf(u)...)
	}
	if len(secrets) == 0 {
		return err
	}
	scrub := func(s string) string {
		for _, sec := range secrets {
			s = strings.ReplaceAll(s, sec, hidden)
		}
		return s
	}
	var de *dom.Error
	if !errors.As(err, &de) {
		return errors.New(scrub(err.Error()))
	}
	c := *de
	c.Message = scrub(c.Message)
	if c.Err != nil {
		c.Err = errors.New(scrub(c.Err.Error()))
	}
	return &c
}
