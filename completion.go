package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"sort"
	"strings"
)

// cmdFlags is a command's flags as its own parser defines them.
type cmdFlags struct {
	name, summary string
	flags         []*flag.Flag
}

// collectKey in a context makes parseFlags record the flag set it was
// given and stop: completion reads every command's flags from the one
// parser each command has, so the scripts cannot drift from it.
type collectKey struct{}

var errCollected = errors.New("flags collected")

// commandFlags lists the subcommands (sorted; "" is the bare UI) with their flags.
func commandFlags() []cmdFlags {
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	out := make([]cmdFlags, 0, len(names)+1)
	collect := func(name, summary string, run func(context.Context, []string) error) {
		var fs *flag.FlagSet
		ctx := context.WithValue(context.Background(), collectKey{}, &fs)
		if err := run(ctx, nil); !errors.Is(err, errCollected) || fs == nil {
			return
		}
		c := cmdFlags{name: name, summary: summary}
		fs.VisitAll(func(f *flag.Flag) { c.flags = append(c.flags, f) })
		out = append(out, c)
	}
	collect("", "open the UI on a page", defaultCommand)
	for _, n := range names {
		collect(n, commands[n].summary, commands[n].run)
	}
	return out
}

// runCompletion prints the completion script for the shell args name.
func runCompletion(w io.Writer, args []string) error {
	if len(args) != 1 {
		return usageError{"usage: domscope completion bash|zsh|fish"}
	}
	cmds := commandFlags()
	switch args[0] {
	case "bash":
		return writeBash(w, cmds)
	case "zsh":
		return writeZsh(w, cmds)
	case "fish":
		return writeFish(w, cmds)
	}
	return usageError{fmt.Sprintf("completion %q: want bash, zsh or fish", args[0])}
}

func isBool(f *flag.Flag) bool {
	b, ok := f.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

// words are the subcommand names (with completion and help) and the
// flags that take a value, as shell words.
func words(cmds []cmdFlags) (subs, valueFlags []string) {
	seen := map[string]bool{}
	for _, c := range cmds {
		if c.name != "" {
			subs = append(subs, c.name)
		}
		for _, f := range c.flags {
			if !isBool(f) && !seen[f.Name] {
				seen[f.Name] = true
				valueFlags = append(valueFlags, "--"+f.Name)
			}
		}
	}
	sort.Strings(valueFlags)
	return append(subs, "completion", "help"), valueFlags
}

func flagWords(c cmdFlags) string {
	var ws []string
	for _, f := range c.flags {
		ws = append(ws, "--"+f.Name)
	}
	return strings.Join(ws, " ")
}

func writeBash(w io.Writer, cmds []cmdFlags) error {
	subs, vals := words(cmds)
	var b strings.Builder
	b.WriteString("# bash completion for domscope; load it with: source <(domscope completion bash)\n")
	b.WriteString("_domscope() {\n")
	b.WriteString("    local cur=\"${COMP_WORDS[COMP_CWORD]}\" prev=\"${COMP_WORDS[COMP_CWORD-1]}\" cmd=\"\" i\n")
	b.WriteString("    for ((i = 1; i < COMP_CWORD; i++)); do\n")
	b.WriteString("        case \"${COMP_WORDS[i]}\" in\n")
	b.WriteString("        -*) ;;\n")
	fmt.Fprintf(&b, "        *) case \"${COMP_WORDS[i-1]}\" in %s) continue ;; esac\n", strings.Join(vals, "|"))
	b.WriteString("           cmd=\"${COMP_WORDS[i]}\"; break ;;\n")
	b.WriteString("        esac\n")
	b.WriteString("    done\n")
	b.WriteString("    case \"$prev\" in\n")
	b.WriteString("    --theme) COMPREPLY=($(compgen -W \"auto dark light\" -- \"$cur\")); return ;;\n")
	b.WriteString("    --format) COMPREPLY=($(compgen -W \"text json tree\" -- \"$cur\")); return ;;\n")
	fmt.Fprintf(&b, "    %s) COMPREPLY=($(compgen -f -- \"$cur\")); return ;;\n", strings.Join(vals, "|"))
	b.WriteString("    esac\n")
	b.WriteString("    local flags\n")
	b.WriteString("    case \"$cmd\" in\n")
	for _, c := range cmds {
		if c.name == "" {
			fmt.Fprintf(&b, "    \"\") flags=%q ;;\n", flagWords(c))
		} else {
			fmt.Fprintf(&b, "    %s) flags=%q ;;\n", c.name, flagWords(c))
		}
	}
	b.WriteString("    completion) COMPREPLY=($(compgen -W \"bash zsh fish\" -- \"$cur\")); return ;;\n")
	b.WriteString("    esac\n")
	b.WriteString("    if [[ \"$cur\" == -* ]]; then\n")
	b.WriteString("        COMPREPLY=($(compgen -W \"$flags\" -- \"$cur\"))\n")
	b.WriteString("    elif [[ -z \"$cmd\" ]]; then\n")
	fmt.Fprintf(&b, "        COMPREPLY=($(compgen -W %q -- \"$cur\"))\n", strings.Join(subs, " "))
	b.WriteString("    else\n")
	b.WriteString("        COMPREPLY=($(compgen -f -- \"$cur\"))\n")
	b.WriteString("    fi\n")
	b.WriteString("}\n")
	b.WriteString("complete -o default -F _domscope domscope\n")
	_, err := io.WriteString(w, b.String())
	return err
}

func writeZsh(w io.Writer, cmds []cmdFlags) error {
	subs, vals := words(cmds)
	var b strings.Builder
	b.WriteString("#compdef domscope\n")
	b.WriteString("# zsh completion for domscope; load it with: source <(domscope completion zsh)\n")
	b.WriteString("# (after compinit), or save it as _domscope in a directory of $fpath.\n")
	b.WriteString("_domscope() {\n")
	b.WriteString("  local cmd=\"\" i\n")
	fmt.Fprintf(&b, "  local -a valueflags=(%s)\n", strings.Join(vals, " "))
	b.WriteString("  for ((i = 2; i < CURRENT; i++)); do\n")
	b.WriteString("    case \"${words[i]}\" in\n")
	b.WriteString("    -*) ;;\n")
	b.WriteString("    *) (( ${valueflags[(Ie)${words[i-1]}]} )) && continue\n")
	b.WriteString("       cmd=\"${words[i]}\"; break ;;\n")
	b.WriteString("    esac\n")
	b.WriteString("  done\n")
	b.WriteString("  case \"${words[CURRENT-1]}\" in\n")
	b.WriteString("  --theme) compadd -- auto dark light; return ;;\n")
	b.WriteString("  --format) compadd -- text json tree; return ;;\n")
	b.WriteString("  esac\n")
	b.WriteString("  if (( ${valueflags[(Ie)${words[CURRENT-1]}]} )); then _files; return; fi\n")
	b.WriteString("  local -a flags\n")
	b.WriteString("  case \"$cmd\" in\n")
	for _, c := range cmds {
		name := c.name
		if name == "" {
			name = "''"
		}
		fmt.Fprintf(&b, "  %s) flags=(%s) ;;\n", name, flagWords(c))
	}
	b.WriteString("  completion) compadd -- bash zsh fish; return ;;\n")
	b.WriteString("  esac\n")
	b.WriteString("  if [[ $PREFIX == -* ]]; then\n")
	b.WriteString("    compadd -- $flags\n")
	b.WriteString("  elif [[ -z $cmd ]]; then\n")
	fmt.Fprintf(&b, "    compadd -- %s\n", strings.Join(subs, " "))
	b.WriteString("  else\n")
	b.WriteString("    _files\n")
	b.WriteString("  fi\n")
	b.WriteString("}\n")
	b.WriteString("if [[ ${zsh_eval_context[-1]} == loadautofunc ]]; then\n")
	b.WriteString("  _domscope \"$@\"\n")
	b.WriteString("else\n")
	b.WriteString("  compdef _domscope domscope\n")
	b.WriteString("fi\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// fishQuote quotes s for fish (single quotes; \ and ' escaped).
func fishQuote(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s) + "'"
}

func writeFish(w io.Writer, cmds []cmdFlags) error {
	subs, _ := words(cmds)
	var b strings.Builder
	b.WriteString("# fish completion for domscope; load it with: domscope completion fish | source\n")
	b.WriteString("# (or save it as ~/.config/fish/completions/domscope.fish)\n")
	b.WriteString("complete -c domscope -e\n")
	for _, c := range cmds {
		if c.name != "" {
			fmt.Fprintf(&b, "complete -c domscope -f -n __fish_use_subcommand -a %s -d %s\n", c.name, fishQuote(c.summary))
		}
	}
	b.WriteString("complete -c domscope -f -n __fish_use_subcommand -a completion -d 'print a shell completion script'\n")
	b.WriteString("complete -c domscope -f -n __fish_use_subcommand -a help -d 'list the commands'\n")
	b.WriteString("complete -c domscope -f -n '__fish_seen_subcommand_from completion' -a 'bash zsh fish'\n")
	for _, c := range cmds {
		cond := "__fish_use_subcommand"
		if c.name != "" {
			cond = "__fish_seen_subcommand_from " + c.name
		}
		for _, f := range c.flags {
			line := fmt.Sprintf("complete -c domscope -n %s -l %s", fishQuote(cond), f.Name)
			if !isBool(f) {
				line += " -r"
				switch f.Name {
				case "theme":
					line += " -f -a 'auto dark light'"
				case "format":
					line += " -f -a 'text json tree'"
				}
			}
			fmt.Fprintf(&b, "%s -d %s\n", line, fishQuote(firstLine(f.Usage)))
		}
	}
	_ = subs
	_, err := io.WriteString(w, b.String())
	return err
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}
