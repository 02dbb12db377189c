package urls

import "strings"

// DefaultEndpoint is the DevTools endpoint an empty one means.
const DefaultEndpoint = "http://127.0.0.1:9222"

// ExpandEndpoint is endpoint as a URL: the default for an empty one,
// http:// for a bare host:port, and http://127.0.0.1:PORT for a bare
// port ("9600" or ":9600"), as Chrome's --remote-debugging-port takes it.
func ExpandEndpoint(endpoint string) string {
	endpoint = strings.TrimSpace(endpoint)
	if endpoint == "" {
		return DefaultEndpoint
	}
	if port := strings.TrimPrefix(endpoint, ":"); port != "" && strings.Trim(port, "0123456789") == "" {
		return "http://127.0.0.1:" + port
	}
	if !strings.Contains(endpoint, "://") {
		return "http://" + endpoint
	}
	return endpoint
}
