package flatten

import (
	"sort"
	"strconv"
	"strings"

	"domscope/dom"
)

// BehindMarker is the Tag of the line that stands for what lies behind
// an open modal dialog (Role "more").
const BehindMarker = "#behind"

// ModalOpen reports whether v is an open modal dialog: an aria-modal
// dialog or a <dialog> opened with showModal() (the browser marks both
// modal), shown.
func ModalOpen(v *dom.VirtualNode) bool {
	if v == nil || v.NodeType != dom.ElementNode || v.Hidden != "" {
		return false
	}
	if v.Role != "dialog" && v.Role != "alertdialog" {
		return false
	}
	return v.States["modal"] == "true" || strings.EqualFold(v.Attrs["aria-modal"], "true")
}

// modalScope puts the open modal dialog first and folds the rest of the
// output into one line that counts it. With no modal open it does
// nothing. The last modal in document order is the one on top.
func (f *flat) modalScope() {
	if !f.opts.ModalScope || !f.on(FlatModalScope) || len(f.opts.Roots) > 0 {
		return
	}
	var modal *dom.SerializedNode
	eachTextNode(f.sd, func(n *dom.SerializedNode, _ int) {
		if ModalOpen(f.s.ByID[n.ID]) {
			modal = n
		}
	})
	if modal == nil {
		return
	}
	counts := map[string]int{}
	others := 0
	eachTextNode(f.sd, func(n *dom.SerializedNode, _ int) {
		if n == modal || n.Role == "more" {
			return
		}
		v := f.s.ByID[n.ID]
		if v != nil && isInteractive(v) && n.Role != "text" {
			counts[controlWord(n)]++
		} else {
			others++
		}
	})
	// the modal's own nodes were counted as behind: take them back
	eachTextNode(&dom.SerializedDom{Nodes: []*dom.SerializedNode{modal}}, func(n *dom.SerializedNode, _ int) {
		if n == modal || n.Role == "more" {
			return
		}
		v := f.s.ByID[n.ID]
		if v != nil && isInteractive(v) && n.Role != "text" {
			counts[controlWord(n)]--
		} else {
			others--
		}
	})
	f.unshowAllBut(modal)
	f.sd.Marks.Modal = modal.ID
	f.sd.Nodes = []*dom.SerializedNode{modal, {Role: "more", Tag: BehindMarker, Text: behindLine(counts, others, modal)}}
}

// unshowAllBut records every output node outside keep as folded away.
func (f *flat) unshowAllBut(keep *dom.SerializedNode) {
	inside := map[*dom.SerializedNode]bool{}
	eachTextNode(&dom.SerializedDom{Nodes: []*dom.SerializedNode{keep}}, func(n *dom.SerializedNode, _ int) { inside[n] = true })
	eachTextNode(f.sd, func(n *dom.SerializedNode, _ int) {
		if inside[n] || n.Role == "more" {
			return
		}
		if k := f.dec.Index(n.ID); k >= 0 {
			f.dec.Change(k, dom.Hoist, FlatModalScope)
		}
	})
}

// controlWord names a control's kind in a count: "link", "button".
func controlWord(n *dom.SerializedNode) string {
	switch w := textRole(n); w {
	case "a":
		return "link"
	case "input", "select", "textarea":
		return "field"
	case "div", "span", "li", "img", "svg", "td":
		return "clickable"
	default:
		return w
	}
}

// behindLine counts what lies behind the modal, the most of a kind first.
func behindLine(counts map[string]int, others int, modal *dom.SerializedNode) string {
	type kc struct {
		k string
		n int
	}
	var l []kc
	for k, n := range counts {
		if n > 0 {
			l = append(l, kc{k, n})
		}
	}
	sort.Slice(l, func(i, j int) bool { return l[i].n > l[j].n || l[i].n == l[j].n && l[i].k < l[j].k })
	var parts []string
	for i, x := range l {
		if i == 4 {
			rest := 0
			for _, y := range l[4:] {
				rest += y.n
			}
			parts = append(parts, strconv.Itoa(rest)+" other controls")
			break
		}
		parts = append(parts, strconv.Itoa(x.n)+" "+plural(x.k, x.n))
	}
	if others > 0 {
		parts = append(parts, strconv.Itoa(others)+" other "+plural("node", others))
	}
	if len(parts) == 0 {
		parts = append(parts, "nothing")
	}
	s := strings.Join(parts, ", ") + " behind the modal " + textRole(modal) + " [" + shortID(modal.ID) + "]"
	if modal.Name != "" {
		s += " " + quote(modal.Name)
	}
	return s + "; dom_snapshot behind:true shows them"
}

func plural(w string, n int) string {
	switch {
	case n == 1:
		return w
	case strings.HasSuffix(w, "x") || strings.HasSuffix(w, "s"):
		return w + "es"
	}
	return w + "s"
}
