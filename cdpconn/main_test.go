package cdpconn_test

import (
	"testing"

	"domscope/cdpconn/cdptest"
)

func TestMain(m *testing.M) { cdptest.Main(m) }
