package mcp_test

import (
	"testing"

	"domscope/cdpconn/cdptest"
)

// TestMain starts one shared headless Chromium for the package's tests
// and stops it when they end.
func TestMain(m *testing.M) { cdptest.Main(m) }
