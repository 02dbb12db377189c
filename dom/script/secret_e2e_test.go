package script_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	. "domscope/dom"
	"domscope/dom/demo"
	"domscope/dom/live"
	"domscope/dom/script"
)

// A recorded step whose password was withheld (••••) does not type the
// mask. run stops there and names the variable to set. Given the value
// (DOMSCOPE_SECRET_<step>), it types it and the page signs in. The value
// is in none of run's output.
func TestRunWithheldSecret(t *testing.T) {
	base, stop, err := demo.Serve()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stop)
	steps := `{"action":"type","target":{"role":"textbox","name":"Email"},"text":"ann@example.com"}
# the password was typed into a sensitive field
{"action":"type","target":{"role":"textbox","name":"Password"},"text":"` + Mask + `\n","comment":"` + script.WithheldComment + `"}
`
	secret := fmt.Sprintf("RunPw%06dSecret", time.Now().UnixNano()%1e6)

	svc, page := openService(t, base+"/signin.html", live.Config{})
	var out bytes.Buffer
	err = script.Run(ctx(t), svc, strings.NewReader(steps), &out, script.Options{Snapshots: "text",
		Secret: script.SecretFromEnv(func(string) string { return "" })})
	if err == nil || !strings.Contains(err.Error(), "step 2 (line 3") || !strings.Contains(err.Error(), "DOMSCOPE_SECRET_2") {
		t.Fatalf("run without the value: %v, want an error naming step 2 and DOMSCOPE_SECRET_2", err)
	}
	if v := evalString(t, page, "document.getElementById('password').value"); v != "" {
		t.Errorf("the password field holds %q: the mask was typed", v)
	}

	svc2, page2 := openService(t, base+"/signin.html", live.Config{})
	out.Reset()
	env := map[string]string{script.SecretEnv(2): secret}
	err = script.Run(ctx(t), svc2, strings.NewReader(steps), &out, script.Options{Snapshots: "text",
		Secret: script.SecretFromEnv(func(k string) string { return env[k] })})
	if err != nil {
		t.Fatalf("run with the value: %v\n%s", err, out.String())
	}
	if v := evalString(t, page2, "document.getElementById('password').value"); v != secret {
		t.Errorf("the password field holds %q, want the value from the environment", v)
	}
	if v := evalString(t, page2, "document.getElementById('msg').textContent"); v != "Welcome back, ann@example.com!" {
		t.Errorf("the page says %q: the Enter after the value did not submit", v)
	}
	if strings.Contains(out.String(), secret) {
		t.Errorf("run's output holds the password:\n%s", out.String())
	}
}
