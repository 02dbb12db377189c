package dom

// NetworkRequest is one request an action started, as its ActionResult
// lists it. Only the method, the URL with its query values redacted and
// the outcome are kept: never headers (cookies, Authorization), bodies or
// query values, which carry tokens and personal data.
type NetworkRequest struct {
	Method string `json:"method"`
	URL    string `json:"url"`
	// Status is the HTTP status of the response (0 when none came).
	Status int `json:"status"`
	// Ms is how long the request took, or has been under way when it is
	// still pending at settle.
	Ms float64 `json:"ms"`
	// Failed is set when the request failed (network error, blocked,
	// canceled); Error is the browser's reason ("net::ERR_CONNECTION_REFUSED").
	Failed bool   `json:"failed,omitempty"`
	Error  string `json:"error,omitempty"`
	// Pending is set when no response had finished when the page settled.
	Pending bool `json:"pending,omitempty"`
	// Type is the browser's resource type: Document, XHR, Fetch, Script…
	Type string `json:"type,omitempty"`
}
