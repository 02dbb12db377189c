package dom

// IDIndex finds a place in a list (a tree in preorder, rows on screen)
// by node ID. A map by ID costs about 20 bytes an entry at 100,000
// nodes; build's IDs are node_N with N below the count of nodes made,
// so most places sit in a slice by N, 4 bytes a number. Other IDs, and
// numbers far past the list's length, go in a map. The first place of
// an ID is kept. The zero value finds nothing.
type IDIndex struct {
	byNum []int32 // place+1 of node_N, by N; 0 for none
	other map[string]int32
}

// NewIDIndex indexes the n IDs id gives, by place.
func NewIDIndex(n int, id func(i int) string) IDIndex {
	// A number far past the length is an ID of a long session, or of a
	// file. At 4 bytes a number, a slice that long would cost more than
	// a map (about 30 bytes an ID).
	limit := 4*n + 1024
	top := -1
	for i := range n {
		if num, ok := nodeNumber(id(i)); ok && num < limit {
			top = max(top, num)
		}
	}
	x := IDIndex{byNum: make([]int32, top+1)}
	for i := range n {
		s := id(i)
		if num, ok := nodeNumber(s); ok && num < limit {
			if x.byNum[num] == 0 {
				x.byNum[num] = int32(i + 1)
			}
			continue
		}
		if x.other == nil {
			x.other = map[string]int32{}
		}
		if _, dup := x.other[s]; !dup {
			x.other[s] = int32(i)
		}
	}
	return x
}

// Find is the first place of id, or -1.
func (x IDIndex) Find(id string) int {
	if num, ok := nodeNumber(id); ok && num < len(x.byNum) {
		if i := int(x.byNum[num]) - 1; i >= 0 {
			return i
		}
	}
	if i, ok := x.other[id]; ok {
		return int(i)
	}
	return -1
}

// nodeNumber parses N of "node_N" written as build writes it: no sign,
// no leading zero. "node_012" is another ID than "node_12".
func nodeNumber(id string) (int, bool) {
	const prefix = "node_"
	if len(id) <= len(prefix) || len(id) > len(prefix)+9 || id[:len(prefix)] != prefix {
		return 0, false
	}
	s := id[len(prefix):]
	if s[0] == '0' && len(s) > 1 {
		return 0, false
	}
	n := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}
