package sock

import (
	"bufio"
	"encoding/json"
	"errors"
	"io"
	"net"
	"os"
	"strings"
	"time"
)

// Protocol is the version of serve's request and reply. A server of
// another version is not asked: the client goes direct.
const Protocol = 4

// OpArgv is the request of the small front binary: run this command
// line as the program would, and send back what it printed.
const OpArgv = "argv"

// Commit is the byte a client sends once it has read Accepted. The
// server runs the command only then: a client that gave up waiting for
// Accepted closes instead, and the command runs once, elsewhere.
const Commit = '!'

// ArgvRequest is the front's request line.
type ArgvRequest struct {
	Protocol int      `json:"protocol"`
	Op       string   `json:"op"`
	Argv     []string `json:"argv"`
	// Dir is the client's working directory: relative files resolve there.
	Dir string `json:"dir"`
	// Env holds the client's variables that change a command (Env below).
	Env map[string]string `json:"env"`
}

// Env is the client's environment that matters to an agent command:
// every DOMSCOPE_ variable, and where the config file is. A replay's
// secrets (DOMSCOPE_SECRET_N) stay home: no agent command reads them.
func Env(environ []string) map[string]string {
	m := map[string]string{}
	for _, kv := range environ {
		k, v, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, "DOMSCOPE_SECRET_") {
			continue
		}
		if k == "HOME" || k == "XDG_CONFIG_HOME" || strings.HasPrefix(k, "DOMSCOPE_") {
			m[k] = v
		}
	}
	return m
}

// ArgvAnswer is the reply's body: the command's exit code and output.
type ArgvAnswer struct {
	Code   int    `json:"code"`
	Stdout []byte `json:"stdout,omitempty"`
	Stderr []byte `json:"stderr,omitempty"`
}

// head is a reply's head line, as this client reads it.
type head struct {
	Protocol int             `json:"protocol"`
	Length   int             `json:"length"`
	Direct   string          `json:"direct,omitempty"`
	Accepted bool            `json:"accepted,omitempty"`
	Error    json.RawMessage `json:"error,omitempty"`
}

// AcceptWait is how long a client waits for the server to accept.
const AcceptWait = 2 * time.Second

// ErrLate is Argv's error when the server took the request and did not
// finish it by the deadline.
var ErrLate = errors.New("domscope serve did not answer in time")

// Outcome is what became of an Argv request.
type Outcome int

const (
	// Absent: no safe server answered at the path; nothing ran.
	Absent Outcome = iota
	// Direct: the server will not run it (help, another version);
	// nothing ran, and the caller runs the command itself.
	Direct
	// Answered: the answer is the command's.
	Answered
)

// Argv asks the server at path to run req. An error means the server
// took the request but its answer broke off: the command may have run.
func Argv(path string, req ArgvRequest, deadline time.Time) (a ArgvAnswer, o Outcome, err error) {
	req.Protocol, req.Op = Protocol, OpArgv
	if !Safe(path) {
		return a, Absent, nil
	}
	c, err := net.DialTimeout("unix", path, AcceptWait)
	if err != nil {
		return a, Absent, nil
	}
	defer c.Close()
	_ = c.SetDeadline(deadline)
	b, err := json.Marshal(req)
	if err != nil {
		return a, Absent, err
	}
	if _, err := c.Write(append(b, '\n')); err != nil {
		return a, Absent, nil
	}
	r := bufio.NewReader(c)
	// A stopped (^Z) or stuck server does not accept: go direct soon.
	accept := time.Now().Add(AcceptWait)
	if deadline.Before(accept) {
		accept = deadline
	}
	_ = c.SetReadDeadline(accept)
	h, err := readHead(r)
	switch {
	case err == nil && h.Direct != "":
		return a, Direct, nil
	case err != nil || !h.Accepted:
		return a, Absent, nil // stopped, stuck, or another version
	}
	if _, err := c.Write([]byte{Commit}); err != nil {
		return a, Absent, nil // the server went: nothing ran
	}
	_ = c.SetReadDeadline(deadline)
	h, err = readHead(r)
	switch {
	case errors.Is(err, os.ErrDeadlineExceeded):
		return a, Answered, ErrLate
	case err != nil:
		return a, Answered, errors.New("domscope serve stopped before it answered")
	case h.Direct != "":
		return a, Direct, nil // it ran nothing
	case len(h.Error) > 0 || h.Length < 0 || h.Length > maxBody:
		return a, Answered, errors.New("domscope serve sent an answer this version cannot read")
	}
	body := make([]byte, h.Length)
	if _, err := io.ReadFull(r, body); err != nil {
		return a, Answered, errors.New("domscope serve stopped before it answered")
	}
	if err := json.Unmarshal(body, &a); err != nil {
		return a, Answered, errors.New("domscope serve sent an answer this version cannot read")
	}
	return a, Answered, nil
}

// maxBody bounds the length a client believes: 1 GiB.
const maxBody = 1 << 30

func readHead(r *bufio.Reader) (head, error) {
	var h head
	line, err := r.ReadBytes('\n')
	if err != nil {
		return h, err
	}
	if json.Unmarshal(line, &h) != nil || h.Protocol != Protocol {
		return h, errors.New("not a reply of this version")
	}
	return h, nil
}
