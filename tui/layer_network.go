package tui

import (
	"fmt"

	"domscope/dom"
	"domscope/views"
)

// network adds the requests the last action started to the diff list.
// They answer "did the click reach the server?".
func (o *diffLayer) network(x *layerCtx, last *dom.ActionResult) {
	if last == nil {
		return
	}
	o.header(fmt.Sprintf("Network of the last action (%d)", len(last.Network)))
	if len(last.Network) == 0 {
		o.add(x.st.Dim.Render("no requests"), "")
		return
	}
	for _, r := range last.Network {
		o.add(views.Request(x.st, r, "", 200), "")
	}
}
