package capture_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"domscope/cdpconn/cdptest"
	"domscope/dom"
	"domscope/dom/demo"
	"domscope/dom/live"
	"domscope/dom/query"
)

// TestRecordSearchPages records the pages the search ranking is tested on.
// They are the demo's sign-in page, and Vue's TodoMVC with two todos, so
// its filter links show. go test ./dom/capture -run TestRecordSearchPages -record
func TestRecordSearchPages(t *testing.T) {
	if !*record {
		t.Skip("recording only with -record")
	}
	t.Run("demo-signin", func(t *testing.T) {
		base, stop, err := demo.Serve()
		if err != nil {
			t.Fatal(err)
		}
		defer stop()
		writeRecording(t, "demo-signin", capRaw(t, cdptest.Page(t, base+"/signin.html")))
	})
	t.Run("todomvc-vue", func(t *testing.T) {
		u, _ := cdptest.Serve(t, filepath.Join(cdptest.Shared(t), "corpus", "todomvc"))
		p := cdptest.Page(t, u+"/vue/index.html")
		svc := live.NewService(p, live.Config{})
		defer svc.Close()
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		for _, todo := range []string{"Buy milk", "Walk the dog"} {
			var input *dom.VirtualNode
			for deadline := time.Now().Add(10 * time.Second); input == nil && time.Now().Before(deadline); {
				s, err := svc.Snapshot(ctx, true)
				if err != nil {
					t.Fatal(err)
				}
				if hits := query.FindNodes(s, query.Query{Role: "textbox"}); len(hits) > 0 {
					input = hits[0]
				} else {
					time.Sleep(100 * time.Millisecond)
				}
			}
			if input == nil {
				t.Fatal("no new-todo textbox")
			}
			if r := svc.Do(ctx, dom.Action{Kind: "type", ID: input.ID, Text: todo + "\n"}); !r.Success {
				t.Fatalf("typing %q: %v", todo, r.Error)
			}
		}
		writeRecording(t, "todomvc-vue", capRaw(t, p))
	})
}
