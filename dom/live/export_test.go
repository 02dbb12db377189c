package live

// SetHappenedOff turns the work of what happened (flashes, late effects,
// errors seen) off or on, for benchmarks that weigh it.
func SetHappenedOff(off bool) { happenedOff.Store(off) }

// SetAskCutOff stops asking for a bare inserted element's children, as
// a loaded machine asks too late.
func SetAskCutOff(off bool) { askCutOff.Store(off) }
