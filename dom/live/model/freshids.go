package model

import "domscope/dom"

// NewDocument reports whether the model holds another document than
// prev: its top #document has another backend id. The id assignment
// (build/ids.go) tells documents apart the same way.
func (m *Model) NewDocument(prev *dom.Snapshot) bool {
	return prev != nil && prev.Root != nil && m.ti.Root != nil && m.ti.Root.BackendNodeID != prev.Root.BackendID
}
