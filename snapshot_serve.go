package main

import (
	"errors"
	"net"
	"net/url"

	"domscope/dom/render"
	"domscope/dom/serve"
)

// request is what o asks of the server.
func (o snapshotOpts) request(conn connFlags, st *settings) serve.Request {
	return serve.Request{
		Protocol: serve.Protocol, Target: conn.target, Format: o.format, BackendIDs: o.backendIDs,
		Shape: o.view.Shape, MaxTokens: o.view.maxTokens,
		TierOff: st.tierOff, FlattenOff: st.flattenOff, Timeout: conn.timeout,
	}
}

// render is how o prints a view, on either path.
func (o snapshotOpts) render(flattenOff map[string]bool) render.View {
	return render.View{Format: o.format, BackendIDs: o.backendIDs, Shape: o.view.Shape, MaxTokens: o.view.maxTokens, FlattenOff: flattenOff}
}

// servable says whether a server may answer this snapshot. What it does
// not do (emulation, screenshots, stats, other capture paths, a tab of
// its own) goes direct.
func servable(conn connFlags, o snapshotOpts, mode string) bool {
	if o.direct || mode == classicCapture || o.capture != "cdp" || o.shot != "" || o.stats {
		return false
	}
	if conn.launch || conn.demo || conn.url != "" || conn.viewport != "" || conn.device != "" || conn.scale != 0 {
		return false
	}
	return conn.allowRemote || loopbackEndpoint(conn.endpoint)
}

// loopbackEndpoint reports whether endpoint is on this machine. Another
// one needs --allow-remote, which the direct path checks.
func loopbackEndpoint(endpoint string) bool {
	u, err := url.Parse(serve.NormalEndpoint(endpoint))
	if err != nil {
		return false
	}
	ip := net.ParseIP(u.Hostname())
	return ip != nil && ip.IsLoopback()
}

// served is a served error as this command reports it: bad input keeps
// the usage exit code.
func served(err error) error {
	var se *serve.Error
	if errors.As(err, &se) && se.Usage {
		return usageError{se.Text}
	}
	var ue render.UsageError
	if errors.As(err, &ue) {
		return usageError{ue.Msg}
	}
	return err
}
