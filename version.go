package main

import "runtime/debug"

// buildVersion is set at link time (-ldflags "-X main.buildVersion=v1.2.3").
// Without it the module version or the VCS revision Go recorded is used.
var buildVersion string

// version is what --version prints.
func version() string {
	bi, ok := debug.ReadBuildInfo()
	return versionOf(buildVersion, bi, ok)
}

// versionOf is the version of a build stamped stamp with build info bi.
func versionOf(stamp string, bi *debug.BuildInfo, ok bool) string {
	if stamp != "" {
		return stamp
	}
	if !ok || bi == nil {
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
