package cdpconn_test

import (
	"context"
	"net"
	"strings"
	"testing"
	"time"

	"domscope/cdpconn"
	"domscope/cdpconn/cdptest"
	"domscope/dom"
)

// TestSilentEndpointIsNotAnswering: a port that accepts connections but
// never replies is a browser that does not answer, not "no browser".
func TestSilentEndpointIsNotAnswering(t *testing.T) {
	cdptest.SkipShort(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			defer c.Close() // held open, never answered
		}
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	_, err = cdpconn.Connect(ctx, "http://"+ln.Addr().String(), false)
	if dom.CodeOf(err) != dom.AttachFailed || !strings.Contains(err.Error(), "is not answering the DevTools protocol: GET /json/version") || strings.Contains(err.Error(), "no browser at") {
		t.Fatalf("got %v", err)
	}
}
