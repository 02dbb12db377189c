package capture_test

import (
	"testing"

	"domscope/cdpconn/cdptest"
)

// TestMain is the single TestMain of package capture's tests. One shared
// headless Chromium serves every test that needs a browser. It is
// stopped when the tests end.
func TestMain(m *testing.M) { cdptest.Main(m) }
