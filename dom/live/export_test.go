package live

// SetHappenedOff turns the work of what happened (flashes, late effects,
// errors seen) off or on, for benchmarks that weigh it.
func SetHappenedOff(off bool) { happenedOff.Store(off) }
