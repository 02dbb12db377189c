package sock

import (
	"maps"
	"testing"
)

// TestEnv: the variables that change a command go to the service; a
// replay's secrets and the rest of the environment do not.
func TestEnv(t *testing.T) {
	got := Env([]string{"HOME=/h", "XDG_CONFIG_HOME=/c", "DOMSCOPE_ENDPOINT=9333", "DOMSCOPE_SESSION=a=b",
		"DOMSCOPE_SECRET_3=hunter2", "PATH=/bin", "AWS_SECRET_ACCESS_KEY=x", "DOMSCOPE"})
	want := map[string]string{"HOME": "/h", "XDG_CONFIG_HOME": "/c", "DOMSCOPE_ENDPOINT": "9333", "DOMSCOPE_SESSION": "a=b"}
	if !maps.Equal(got, want) {
		t.Errorf("Env = %v, want %v", got, want)
	}
}
