package cdpconn

import (
	"context"
	"encoding/json"
	"net/url"
	"strings"

	"domscope/dom"
)

// Chrome serves each target on a socket of its own,
// /devtools/page/<id>. A connection there is already attached to the
// tab. So a one-shot command skips GET /json/version and
// Target.attachToTarget: about two round trips of its cold start.

// pageSocketURL is the socket of target id on the DevTools endpoint, if
// endpoint is one whose socket paths are Chrome's: http://host:port or
// ws://host:port/devtools/browser/<id>. A farm's URL (a token, another
// path) has no such socket. Nor has an endpoint that needs
// --allow-remote and lacks it: the usual way refuses it.
func pageSocketURL(endpoint string, allowRemote bool, id string) (string, bool) {
	_, u, err := endpointURL(endpoint)
	if err != nil || u.Host == "" || u.User != nil || u.RawQuery != "" || u.Fragment != "" {
		return "", false
	}
	if !isLoopback(u.Hostname()) && !allowRemote {
		return "", false
	}
	switch u.Scheme {
	case "http", "https":
		if u.Path != "" && u.Path != "/" {
			return "", false
		}
	case "ws", "wss":
		if !strings.HasPrefix(u.Path, "/devtools/browser/") {
			return "", false
		}
	default:
		return "", false
	}
	scheme := "ws"
	if u.Scheme == "https" || u.Scheme == "wss" {
		scheme = "wss"
	}
	return (&url.URL{Scheme: scheme, Host: u.Host, Path: "/devtools/page/" + id}).String(), true
}

// openPageSocket opens the tab id through its own socket. The socket is
// kept only if it is a tab's that domtabs.Pick would pick: Chrome serves
// frames and workers the same way. The probe goes with the question.
func openPageSocket(ctx context.Context, wsURL, id string) (*DirectPage, error) {
	c, err := dialDirect(ctx, wsURL)
	if err != nil {
		return nil, err
	}
	c.pageSocket = true
	p := &DirectPage{c: c, id: id, frames: map[string]directSession{}}
	p.directSession = c.session("")
	p.probe(ctx)
	var info struct {
		TargetInfo targetInfo `json:"targetInfo"`
	}
	b, err := c.call(ctx, "", "Target.getTargetInfo", nil, nil)
	if err == nil {
		err = json.Unmarshal(b, &info)
	}
	if err == nil && (info.TargetInfo.TargetID != id || !isTab(info.TargetInfo.Type, info.TargetInfo.URL)) {
		err = dom.Errorf(dom.TargetNotFound, nil, "target %s is no tab", id)
	}
	if err != nil {
		c.Close()
		return nil, err
	}
	return p, nil
}
