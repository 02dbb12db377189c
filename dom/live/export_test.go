package live

// NextUsed waits for a tree being built for the next refresh (next.go).
// It returns how many refreshes of the current model took one.
func (s *Service) NextUsed() int {
	s.mu.Lock()
	m := s.model
	s.mu.Unlock()
	if m == nil {
		return 0
	}
	m.nextRun.Wait()
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.nextUsed
}
