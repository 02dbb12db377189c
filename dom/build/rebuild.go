package build

import "domscope/dom"

// Rebuild builds a snapshot again from its raw capture with other tier
// rules switched off. It keeps every node ID and the capture's sequence
// number, time and cost; no new capture is taken.
func Rebuild(s *dom.Snapshot, disabled map[string]bool) (*dom.Snapshot, error) {
	if !s.HasCapture() {
		return nil, dom.Errorf(dom.SnapshotFailed, nil, "this snapshot has no raw capture to rebuild from")
	}
	var ns *dom.Snapshot
	var err error
	if s.Source != nil {
		ns, err = s.Source.Rebuild(s, disabled)
	} else {
		ns, err = Build(s.Raw, Options{Prev: s, Disabled: disabled})
	}
	if err != nil {
		return nil, err
	}
	ns.Seq, ns.Taken, ns.CaptureTime = s.Seq, s.Taken, s.CaptureTime
	if ns.TargetID == "" {
		ns.TargetID = s.TargetID
	}
	return ns, nil
}
