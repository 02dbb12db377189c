package cli

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"domscope/cdpconn"
	"domscope/dom/urls"
	"domscope/views"
)

// targetListWait bounds asking the endpoint for its tabs while a shell
// completes: no browser must not stall the prompt.
const targetListWait = 700 * time.Millisecond

// CompleteTargets lists the endpoint's open tabs for --target: each id,
// described by its title and URL (secrets withheld). No browser, a
// remote endpoint without --allow-remote, or a farm's URL: nothing.
func CompleteTargets(cmd *cobra.Command, _ []string, typed string) ([]string, cobra.ShellCompDirective) {
	none := cobra.ShellCompDirectiveNoFileComp
	fs := cmd.Flags()
	endpoint, _ := fs.GetString("endpoint")
	remote, _ := fs.GetBool("allow-remote")
	u, err := url.Parse(cdpconn.ExpandEndpoint(endpoint))
	if err != nil || u.Host == "" || (u.RawQuery != "") {
		return nil, none
	}
	if ip := net.ParseIP(u.Hostname()); !remote && u.Hostname() != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return nil, none
	}
	switch u.Scheme {
	case "ws":
		u.Scheme = "http"
	case "wss":
		u.Scheme = "https"
	}
	list := url.URL{Scheme: u.Scheme, Host: u.Host, Path: "/json/list"}
	ctx, cancel := context.WithTimeout(context.Background(), targetListWait)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, list.String(), nil)
	if err != nil {
		return nil, none
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, none
	}
	defer resp.Body.Close()
	var tabs []struct {
		ID, Type, Title, URL string
	}
	if json.NewDecoder(resp.Body).Decode(&tabs) != nil {
		return nil, none
	}
	var out []string
	for _, t := range tabs {
		if t.Type != "page" || !strings.HasPrefix(t.ID, typed) {
			continue
		}
		desc := views.Clean(strings.Join(strings.Fields(urls.SafeTitle(t.Title, t.URL)+" · "+urls.Safe(t.URL)), " "))
		out = append(out, t.ID+"\t"+desc)
	}
	return out, none
}
