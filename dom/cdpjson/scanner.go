package cdpjson

import (
	"bytes"
	"errors"
	"math"
	"strconv"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"
)

// scanner reads one CDP reply straight from its bytes. The layout of a
// 10,000-element page is about 1.6 MB of numbers. A token decoder spent
// 14 ms on it, mostly on per-token bookkeeping. This reader skips that.
// The reply comes from Chrome, so it checks structure only as far as
// reading needs. Skipped parts are only balanced, not validated. It never
// panics and always ends: every step moves forward or fails.
type scanner struct {
	data []byte
	pos  int
}

var errScan = errors.New("layout: malformed JSON")

// peek skips white space and returns the next byte (0 at the end).
func (s *scanner) peek() byte {
	for s.pos < len(s.data) {
		switch c := s.data[s.pos]; c {
		case ' ', '\t', '\n', '\r':
			s.pos++
		default:
			return c
		}
	}
	return 0
}

// object calls f with each key of the object that comes next. A key it
// does not know comes as "". f must consume the value. A non-object is
// skipped.
func (s *scanner) object(f func(key string) error) error {
	if s.peek() != '{' {
		return s.skip()
	}
	s.pos++
	if s.peek() == '}' {
		s.pos++
		return nil
	}
	for {
		if s.peek() != '"' {
			return errScan
		}
		start := s.pos + 1
		if err := s.skipString(); err != nil {
			return err
		}
		// keys are looked up raw, not unquoted: none of ours has escapes
		key := knownKeys[string(s.data[start:s.pos-1])]
		if s.peek() != ':' {
			return errScan
		}
		s.pos++
		if err := f(key); err != nil {
			return err
		}
		switch s.peek() {
		case ',':
			s.pos++
		case '}':
			s.pos++
			return nil
		default:
			return errScan
		}
	}
}

// array calls f for each element of the array that comes next. f must
// consume it. A non-array is skipped.
func (s *scanner) array(f func() error) error {
	if s.peek() != '[' {
		return s.skip()
	}
	s.pos++
	if s.peek() == ']' {
		s.pos++
		return nil
	}
	for {
		if err := f(); err != nil {
			return err
		}
		switch s.peek() {
		case ',':
			s.pos++
		case ']':
			s.pos++
			return nil
		default:
			return errScan
		}
	}
}

// skip passes over the value that comes next.
func (s *scanner) skip() error {
	switch s.peek() {
	case 0, ',', ':', '}', ']':
		return errScan
	case '"':
		return s.skipString()
	case '{', '[':
	default:
		if len(s.scalar()) == 0 {
			return errScan
		}
		return nil
	}
	depth := 0
	for s.pos < len(s.data) {
		switch s.data[s.pos] {
		case '"':
			if err := s.skipString(); err != nil {
				return err
			}
			continue
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth == 0 {
				s.pos++
				return nil
			}
		}
		s.pos++
	}
	return errScan
}

// delim marks the bytes that end a number or literal.
var delim = func() (t [256]bool) {
	for _, c := range []byte(",]}: \t\n\r\"[{") {
		t[c] = true
	}
	return t
}()

// scalar passes over a number, true, false or null and returns its bytes.
func (s *scanner) scalar() []byte {
	start := s.pos
	for s.pos < len(s.data) && !delim[s.data[s.pos]] {
		s.pos++
	}
	return s.data[start:s.pos]
}

// skipString passes over the string that starts at pos.
func (s *scanner) skipString() error {
	i := bytes.IndexByte(s.data[s.pos+1:], '"')
	for i >= 0 {
		end := s.pos + 1 + i
		// an escaped quote has an odd run of backslashes before it
		k := end - 1
		for k > s.pos && s.data[k] == '\\' {
			k--
		}
		if (end-1-k)%2 == 0 {
			s.pos = end + 1
			return nil
		}
		j := bytes.IndexByte(s.data[end+1:], '"')
		if j < 0 {
			break
		}
		i += 1 + j
	}
	s.pos = len(s.data)
	return errScan
}

// str reads a string as the token decoder did: escapes undone, invalid
// UTF-8 replaced. A number or literal reads as "".
func (s *scanner) str() (string, error) {
	switch s.peek() {
	case '"':
	case '{', '[', 0:
		return "", errScan
	default:
		if len(s.scalar()) == 0 {
			return "", errScan
		}
		return "", nil
	}
	start := s.pos
	if err := s.skipString(); err != nil {
		return "", err
	}
	raw := s.data[start:s.pos]
	body := raw[1 : len(raw)-1]
	if bytes.IndexByte(body, '\\') < 0 && utf8.Valid(body) {
		return string(body), nil
	}
	dec := jsontext.NewDecoder(bytes.NewReader(raw), jsontext.AllowInvalidUTF8(true))
	t, err := dec.ReadToken()
	if err != nil {
		return "", err
	}
	return t.String(), nil
}

// number reads a number. A string or literal reads as 0, as with the
// token decoder. An object or array is an error.
func (s *scanner) number() (float64, bool, error) {
	switch s.peek() {
	case '{', '[', 0:
		return 0, false, errScan
	case '"':
		return 0, false, s.skipString()
	}
	b := s.scalar()
	if len(b) == 0 {
		return 0, false, errScan
	}
	if b[0] != '-' && (b[0] < '0' || b[0] > '9') {
		return 0, false, nil // true, false, null
	}
	if v, ok := fastFloat(b); ok {
		return v, true, nil
	}
	v, err := strconv.ParseFloat(string(b), 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return 0, false, errScan
	}
	return v, true, nil
}

func (s *scanner) float(v *float64) error {
	f, ok, err := s.number()
	if ok {
		*v = f
	}
	return err
}

// int reads a number truncated toward zero and saturated, as the token
// decoder's Int did.
func (s *scanner) int(v *int) error {
	f, ok, err := s.number()
	if !ok {
		return err
	}
	switch {
	case math.IsNaN(f):
		*v = 0
	case f >= math.MaxInt64:
		*v = math.MaxInt64
	case f <= math.MinInt64:
		*v = math.MinInt64
	default:
		*v = int(f)
	}
	return nil
}

// ints appends the numbers of the array that comes next, as int reads
// them. The loop is the decoder's hot path.
func (s *scanner) ints(out *[]int) error {
	if s.peek() != '[' {
		return s.skip()
	}
	s.pos++
	if s.peek() == ']' {
		s.pos++
		return nil
	}
	for {
		v, ok := s.plainInt()
		if !ok {
			if err := s.int(&v); err != nil {
				return err
			}
		}
		*out = append(*out, v)
		switch s.peek() {
		case ',':
			s.pos++
		case ']':
			s.pos++
			return nil
		default:
			return errScan
		}
	}
}

// floats appends the numbers of the array that comes next. It is written
// out like ints rather than through array. A call per number through a
// closure more than doubled the decoding time of a layout.
func (s *scanner) floats(out *[]float64) error {
	if s.peek() != '[' {
		return s.skip()
	}
	s.pos++
	if s.peek() == ']' {
		s.pos++
		return nil
	}
	for {
		var v float64
		if err := s.float(&v); err != nil {
			return err
		}
		*out = append(*out, v)
		switch s.peek() {
		case ',':
			s.pos++
		case ']':
			s.pos++
			return nil
		default:
			return errScan
		}
	}
}

// plainInt reads a short integer written plainly ("-12") at pos. It moves
// nothing and reports false for anything else.
func (s *scanner) plainInt() (int, bool) {
	i, neg := s.pos, false
	if i < len(s.data) && s.data[i] == '-' {
		neg = true
		i++
	}
	start, v := i, 0
	for i < len(s.data) && i-start < 18 {
		c := s.data[i]
		if c < '0' || c > '9' {
			break
		}
		v = v*10 + int(c-'0')
		i++
	}
	if i == start || (i < len(s.data) && !delim[s.data[i]]) {
		return 0, false
	}
	if neg {
		v = -v
	}
	s.pos = i
	return v, true
}

// pow10 are the powers of ten a float64 holds exactly.
var pow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
	1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// fastFloat parses the plain decimals Chrome writes ("-12", "3.25") when
// the result is exact. A mantissa below 2^53 divided by an exact power of
// ten rounds correctly, as strconv would. Anything else is left to
// strconv.
func fastFloat(b []byte) (float64, bool) {
	neg := b[0] == '-'
	if neg {
		b = b[1:]
	}
	if len(b) == 0 || len(b) > 17 {
		return 0, false
	}
	var m uint64
	frac, dot := 0, false
	for i, c := range b {
		switch {
		case c >= '0' && c <= '9':
			m = m*10 + uint64(c-'0')
			if dot {
				frac++
			}
		case c == '.' && !dot && i > 0 && i < len(b)-1:
			dot = true
		default:
			return 0, false
		}
	}
	if m >= 1<<53 || frac >= len(pow10) {
		return 0, false
	}
	v := float64(m) / pow10[frac]
	if neg {
		v = -v
	}
	return v, true
}
