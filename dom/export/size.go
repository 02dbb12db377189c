package export

import (
	"encoding/binary"
	"errors"
	"io"
	"os"

	"domscope/dom"
)

// MaxCaptureSize bounds a capture file's JSON, once uncompressed. The
// largest export measured, of the 50,000-element synthetic page, is 191 MB
// (16 MB compressed). A gzip bomb (1 MB that inflates to 1 GB) is refused
// once this much has come out. If its gzip trailer says so, it is refused
// at once.
const MaxCaptureSize = 512 << 20

// errTooBig is what a capReader returns past its bound.
var errTooBig = dom.Errorf(dom.ValidationError, nil, "the capture file is over %d MiB once uncompressed, more than a domscope export may have (the largest pages make about 200 MiB): refusing it", MaxCaptureSize>>20)

// capReader reads at most left bytes of r, then fails with errTooBig.
// io.EOF would pass for a cut-off file.
type capReader struct {
	r    io.Reader
	left int64
}

func (c *capReader) Read(p []byte) (int, error) {
	if c.left <= 0 {
		// One byte more tells a file of exactly the bound from a bigger one.
		var one [1]byte
		if n, _ := c.r.Read(one[:]); n > 0 {
			return 0, errTooBig
		}
		return c.r.Read(p)
	}
	if int64(len(p)) > c.left {
		p = p[:c.left]
	}
	n, err := c.r.Read(p)
	c.left -= int64(n)
	return n, err
}

// captureSize is the size a capture file's JSON has. That is the file's
// own, or for a gzip file what its trailer says (modulo 4 GiB). known is
// false when it cannot tell (not a regular file).
func captureSize(f *os.File) (size int64, known bool) {
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		return 0, false
	}
	size = st.Size()
	var head [2]byte
	if _, err := f.ReadAt(head[:], 0); err != nil {
		return size, true
	}
	if head[0] == 0x1f && head[1] == 0x8b && size >= 18 {
		var tail [4]byte
		if _, err := f.ReadAt(tail[:], size-4); err != nil {
			return 0, false
		}
		return int64(binary.LittleEndian.Uint32(tail[:])), true
	}
	return size, true
}

// errNotAsSaid: a file that holds more than its size or trailer says.
var errNotAsSaid = dom.Errorf(dom.ValidationError, nil, "the capture file holds more than its gzip trailer says: it is damaged, joined from several files, or made to be refused; refusing it")

// readSized reads r whole into one buffer of want bytes. A file that
// holds more is refused there. So it never costs more memory than it
// announced (a bomb's trailer may lie).
func readSized(r io.Reader, want int64) ([]byte, error) {
	b := make([]byte, want)
	if _, err := io.ReadFull(r, b); err != nil {
		if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
			return nil, dom.Errorf(dom.ValidationError, err, "the capture file is cut short (it holds less than its size or gzip trailer says)")
		}
		return nil, err
	}
	// the end: gzip checks its checksum and size here
	var one [1]byte
	n, err := r.Read(one[:])
	if n > 0 {
		return nil, errNotAsSaid
	}
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	return b, nil
}

// readChunked reads r whole, in chunks joined once at the end. A bomb
// read from a pipe holds no more than MaxCaptureSize when it is refused.
// A growing buffer would hold two copies of it while it grows.
func readChunked(r io.Reader) ([]byte, error) {
	const chunk = 4 << 20
	var chunks [][]byte
	total := 0
	for {
		c := make([]byte, chunk)
		n, err := io.ReadFull(r, c)
		chunks = append(chunks, c[:n])
		total += n
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			break
		}
		if err != nil {
			return nil, err
		}
	}
	if len(chunks) == 1 {
		return chunks[0], nil
	}
	b := make([]byte, 0, total)
	for _, c := range chunks {
		b = append(b, c...)
	}
	return b, nil
}

// readErr says what went wrong reading a capture file.
func readErr(err error) error {
	var de *dom.Error
	if errors.As(err, &de) {
		return err
	}
	return dom.Errorf(dom.ValidationError, err, "cannot read the capture file (damaged?)")
}
