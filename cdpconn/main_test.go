package cdpconn_test

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	"domscope/cdpconn"
	"domscope/cdpconn/cdptest"
)

// DOMSCOPE_LAUNCH_CHILD=1 makes this test binary a program that launches
// Chromium and waits to be killed (TestLaunchCleansKilledProfile).
func TestMain(m *testing.M) {
	if os.Getenv("DOMSCOPE_LAUNCH_CHILD") != "" {
		os.Exit(launchChild())
	}
	cdptest.Main(m)
}

func launchChild() int {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	b, err := cdpconn.Launch(ctx, cdpconn.LaunchOptions{Headless: true})
	if err != nil {
		fmt.Println("launch:", err)
		return 1
	}
	fmt.Printf("LAUNCHED %d\n", b.Process().Pid)
	time.Sleep(2 * time.Minute) // the test kills it long before
	return 0
}
