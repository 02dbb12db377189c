package main

import (
	"github.com/spf13/pflag"

	"domscope/dom/urls"
)

// policyFlags say where an agent may navigate (urls.Policy). They guard
// against a page that sends the agent to a local file; they are not a
// sandbox.
type policyFlags struct {
	allowed, blocked string
	allowFile        bool
}

func (p *policyFlags) register(fs *pflag.FlagSet, prefix string) {
	fs.StringVar(&p.allowed, "allowed-origins", "", prefix+"the only origins the agent may open, separated by ';': https://example.com:8080, http://localhost:* (any port) or a host name (default: every web origin)")
	fs.StringVar(&p.blocked, "blocked-origins", "", prefix+"origins the agent may not open, read before --allowed-origins (same forms)")
	fs.BoolVar(&p.allowFile, "allow-file-access", false, prefix+"let the agent open file: URLs (refused by default, as are chrome: and javascript:)")
}

// policy is the flags' navigation policy, or a usage error.
func (p policyFlags) policy() (urls.Policy, error) {
	var pol urls.Policy
	var err error
	if pol.Allowed, err = urls.ParseOrigins(p.allowed); err != nil {
		return pol, usageError{"--allowed-origins: " + err.Error()}
	}
	if pol.Blocked, err = urls.ParseOrigins(p.blocked); err != nil {
		return pol, usageError{"--blocked-origins: " + err.Error()}
	}
	pol.AllowFile = p.allowFile
	return pol, nil
}
