package main

import "runtime/debug"

// buildVersion is set at link time (-ldflags "-X main.buildVersion=v1.2.3").
// Without it the module version or the VCS revision Go recorded is used.
var buildVersion string

// version is what --version prints.
func version() string {
	if buildVersion != "" {
		return buildVersion
	}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "(unknown version)"
	}
	v := bi.Main.Version
	var rev, modified string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				modified = "+dirty"
			}
		}
	}
	if (v == "" || v == "(devel)") && rev != "" {
		if len(rev) > 12 {
			rev = rev[:12]
		}
		return "devel " + rev + modified
	}
	if v == "" {
		v = "(devel)"
	}
	return v
}
