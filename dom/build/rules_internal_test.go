package build

import "testing"

func TestHasClassWord(t *testing.T) {
	for class, want := range map[string]bool{
		"btn": true, "x btn-primary": true, "nav_link": true, "BUTTON": true, "a  Clickable\tb": true,
		"interactive-card": true, "linkedin": false, "buttonless": false, "": false, "--": false,
		"btné": true, "é-link": true, "bt n": false, "lınk": false,
	} {
		if got := hasClassWord(class); got != want {
			t.Errorf("hasClassWord(%q) = %v, want %v", class, got, want)
		}
	}
}
