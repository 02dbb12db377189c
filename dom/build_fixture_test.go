package dom

import (
	"encoding/json"
	"strconv"
)

// tn describes a node of a CDP-shaped test tree: the tests generate the
// DOM.getDocument, getFullAXTree and DOMSnapshot shapes from it, so rules
// can be checked one by one without a browser. (Behaviour on real pages is
// checked on recordings and in the end-to-end coverage test.)
type tn struct {
	tag      string // "#text" for text, "#shadow-root" (shadow: mode), "#document"
	text     string
	attrs    []string
	kids     []*tn
	shadow   string // shadow root mode for #shadow-root
	frameID  string // for <iframe>: frame id (its content is a separate target)
	role     string // AX role; "" = no AX node, "-" = ignored AX node
	name     string // AX name
	props    map[string]string
	value    string // AX value
	nobox    bool   // no layout box
	box      *Rect  // default 0,0,100,20
	styles   map[string]string
	listener bool
	id       int64 // backend id, filled by the generator
}

func el(tag string, attrs []string, kids ...*tn) *tn { return &tn{tag: tag, attrs: attrs, kids: kids} }
func txt(s string) *tn                               { return &tn{tag: "#text", text: s} }
func (n *tn) ax(role, name string) *tn               { n.role, n.name = role, name; return n }

// noBox takes the layout box away from n and its subtree (display:none).
func (n *tn) noBox() *tn {
	stack := []*tn{n}
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		x.nobox = true
		stack = append(stack, x.kids...)
	}
	return n
}

// contents takes the box away from n alone (display:contents).
func (n *tn) contents() *tn { n.nobox = true; return n }
func (n *tn) style(k, v string) *tn {
	if n.styles == nil {
		n.styles = map[string]string{}
	}
	n.styles[k] = v
	return n
}
func (n *tn) at(x, y, w, h float64) *tn { n.box = &Rect{X: x, Y: y, W: w, H: h}; return n }

// page wraps body children in #document > html > body.
func page(body ...*tn) *tn {
	return &tn{tag: "#document", role: "RootWebArea", kids: []*tn{
		el("html", nil, el("body", nil, body...)),
	}}
}

// rawOf turns a test tree into one target of a RawCapture.
func rawTarget(root *tn, targetID, frameID string) RawTarget {
	var next int64 = 1 << 20 // preset ids (tests of ID reuse) stay below
	var axNodes []map[string]any
	strs := []string{}
	strIdx := map[string]int{}
	str := func(s string) int {
		if i, ok := strIdx[s]; ok {
			return i
		}
		strIdx[s] = len(strs)
		strs = append(strs, s)
		return len(strs) - 1
	}
	var backend []int64
	var nodeIndex []int
	var bounds [][]float64
	var styles [][]int

	type pending struct {
		n   *tn
		out map[string]any
	}
	// iterative so the generator also makes very deep trees
	build := func(root *tn) map[string]any {
		rootOut := map[string]any{}
		stack := []pending{{root, rootOut}}
		for len(stack) > 0 {
			p := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			n, out := p.n, p.out
			if n.id == 0 {
				n.id = next
				next++
			}
			out["backendNodeId"] = n.id
			out["nodeId"] = n.id
			switch n.tag {
			case "#text":
				out["nodeType"], out["nodeName"], out["nodeValue"] = 3, "#text", n.text
			case "#document":
				out["nodeType"], out["nodeName"] = 9, "#document"
			case "#shadow-root":
				out["nodeType"], out["nodeName"], out["shadowRootType"] = 11, "#document-fragment", n.shadow
			default:
				out["nodeType"], out["nodeName"], out["localName"] = 1, n.tag, n.tag
				if n.attrs != nil {
					out["attributes"] = n.attrs
				}
				if n.frameID != "" {
					out["frameId"] = n.frameID
				}
			}
			if n.role != "" {
				a := map[string]any{"nodeId": strconv.FormatInt(n.id, 10), "backendDOMNodeId": n.id}
				if n.role == "-" {
					a["ignored"] = true
					a["role"] = map[string]any{"type": "role", "value": "none"}
				} else {
					a["role"] = map[string]any{"type": "role", "value": n.role}
					a["name"] = map[string]any{"type": "computedString", "value": n.name}
					var props []map[string]any
					for k, v := range n.props {
						var val any = v
						if v == "true" || v == "false" {
							val = v == "true"
						}
						props = append(props, map[string]any{"name": k, "value": map[string]any{"type": "booleanOrUndefined", "value": val}})
					}
					a["properties"] = props
					if n.value != "" {
						a["value"] = map[string]any{"type": "string", "value": n.value}
					}
				}
				axNodes = append(axNodes, a)
			}
			if !n.nobox && n.tag != "#shadow-root" {
				backend = append(backend, n.id)
				nodeIndex = append(nodeIndex, len(backend)-1)
				b := Rect{W: 100, H: 20}
				if n.box != nil {
					b = *n.box
				}
				bounds = append(bounds, []float64{b.X, b.Y, b.W, b.H})
				row := make([]int, len(LayoutStyles))
				for i, s := range LayoutStyles {
					v := map[string]string{"display": "block", "visibility": "visible", "opacity": "1", "cursor": "auto"}[s]
					if x, ok := n.styles[s]; ok {
						v = x
					}
					if v == "" {
						row[i] = -1
					} else {
						row[i] = str(v)
					}
				}
				styles = append(styles, row)
			} else {
				backend = append(backend, n.id)
			}
			var shadows, kids []any
			for i := len(n.kids) - 1; i >= 0; i-- {
				c := n.kids[i]
				co := map[string]any{}
				if c.tag == "#document" {
					out["contentDocument"] = co
				} else if c.tag == "#shadow-root" {
					shadows = append([]any{co}, shadows...)
				} else {
					kids = append([]any{co}, kids...)
				}
				stack = append(stack, pending{c, co})
			}
			if len(kids) > 0 {
				out["children"] = kids
			}
			if len(shadows) > 0 {
				out["shadowRoots"] = shadows
			}
		}
		return rootOut
	}
	doc := build(root)
	docJSON, err := json.Marshal(map[string]any{"root": doc})
	if err != nil {
		panic(err)
	}
	axJSON, _ := json.Marshal(map[string]any{"nodes": axNodes})
	snap := map[string]any{
		"strings": strs,
		"documents": []any{map[string]any{
			"documentURL": 0, "frameId": 0,
			"nodes":  map[string]any{"backendNodeId": backend},
			"layout": map[string]any{"nodeIndex": nodeIndex, "bounds": bounds, "styles": styles},
		}},
	}
	layJSON, _ := json.Marshal(snap)
	var listeners []RawListener
	stack := []*tn{root}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if n.listener {
			listeners = append(listeners, RawListener{BackendID: n.id, Type: "click"})
		}
		stack = append(stack, n.kids...)
	}
	return RawTarget{TargetID: targetID, FrameID: frameID, URL: "http://test/", Document: docJSON,
		AXTrees: []json.RawMessage{axJSON}, Layout: layJSON, Listeners: listeners}
}

// captureOf makes a one-target RawCapture of a test tree.
func captureOf(root *tn) *RawCapture {
	return &RawCapture{Version: 1, URL: "http://test/", Title: "test", TargetID: "T1",
		Timestamp: "2026-01-02T03:04:05Z", Viewport: Rect{W: 1280, H: 800},
		Targets: []RawTarget{rawTarget(root, "T1", "F1")}}
}

// mustBuild builds a test tree or fails.
func mustBuild(t interface {
	Helper()
	Fatalf(string, ...any)
}, root *tn, opts BuildOptions) *Snapshot {
	t.Helper()
	s, err := Build(captureOf(root), opts)
	if err != nil {
		t.Fatalf("Build: %v", err)
	}
	return s
}

// findNode returns the first node (preorder) matching pred.
func findNode(s *Snapshot, pred func(*VirtualNode) bool) *VirtualNode {
	stack := []*VirtualNode{s.Root}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if pred(n) {
			return n
		}
		for i := len(n.Children) - 1; i >= 0; i-- {
			stack = append(stack, n.Children[i])
		}
	}
	return nil
}

func byAttr(k, v string) func(*VirtualNode) bool {
	return func(n *VirtualNode) bool { return n.Attrs[k] == v && n.NodeType == ElementNode }
}
