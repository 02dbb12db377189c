// Package demo holds small demo pages embedded in the binary and serves
// them on loopback. So a fresh machine has something to look at
// (domscope snapshot --launch --demo, domscope demo).
package demo

import (
	"bytes"
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"path"
	"time"
)

//go:embed site
var site embed.FS

// Pages are the demo pages under the base URL, the index first.
var Pages = []string{"index.html", "signin.html", "products.html", "todo.html", "components.html"}

// Serve serves the demo pages on 127.0.0.1. For the cross-origin iframe of
// components.html it serves the same files on localhost at another port.
// That is a different site, so Chromium puts that frame in its own
// process. baseURL ends without a slash; stop shuts both servers down.
func Serve() (baseURL string, stop func(), err error) {
	files, err := fs.Sub(site, "site")
	if err != nil {
		return "", nil, err
	}
	other, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, fmt.Errorf("demo: listening on loopback: %w", err)
	}
	main, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		other.Close()
		return "", nil, fmt.Errorf("demo: listening on loopback: %w", err)
	}
	otherURL := fmt.Sprintf("http://localhost:%d", other.Addr().(*net.TCPAddr).Port)
	h := handler(files, otherURL)
	s1 := &http.Server{Handler: h, ReadHeaderTimeout: 5 * time.Second}
	s2 := &http.Server{Handler: h, ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = s1.Serve(main) }()
	go func() { _ = s2.Serve(other) }()
	stop = func() {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		_ = s1.Shutdown(ctx)
		_ = s2.Shutdown(ctx)
	}
	return "http://" + main.Addr().String(), stop, nil
}

// handler serves the embedded files, filling in {{OTHER}} (the second origin).
func handler(files fs.FS, otherURL string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name := path.Clean(r.URL.Path)
		if name == "/" {
			name = "/index.html"
		}
		b, err := fs.ReadFile(files, name[1:])
		if errors.Is(err, fs.ErrNotExist) || err != nil {
			http.NotFound(w, r)
			return
		}
		switch path.Ext(name) {
		case ".html":
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			b = bytes.ReplaceAll(b, []byte("{{OTHER}}"), []byte(otherURL))
		case ".css":
			w.Header().Set("Content-Type", "text/css; charset=utf-8")
		}
		w.Header().Set("Cache-Control", "no-store")
		_, _ = w.Write(b)
	})
}
