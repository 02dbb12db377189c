// Command domscope shows what an LLM browser agent sees of a page: the
// complete VirtualNode tree next to the flattened view an LLM receives.
//
//	domscope snapshot [--format json|text|tree] [--backend-ids] [--out FILE] [--stats]
//	                  [--screenshot FILE.png [--marks]]
//	                  [--endpoint URL | --launch] [--url URL | --target SPEC | --demo] [--allow-remote]
//	                  [--viewport WxH | --device NAME] [--scale F]
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"slices"
	"sort"
	"strings"
	"syscall"
	"time"

	"domscope/cdpconn"
	"domscope/dom"
	"domscope/dom/demo"
	"domscope/dom/live"
	"domscope/dom/script"
	"domscope/tui"
	"domscope/views"
)

// Exit codes: 1 for failures, 2 for connection problems and bad usage.
const (
	exitFail    = 1
	exitConnect = 2
)

// command is one subcommand. The integrator adds "demo", "run", "open" and
// the bare TUI (no subcommand) to commands below; each gets its own flags
// and the shared connection flags through connFlags.
type command struct {
	summary string
	run     func(ctx context.Context, args []string) error
}

var commands = map[string]command{
	"snapshot": {"print one snapshot of a page and exit", runSnapshot},
	"demo":     {"serve the built-in demo pages, launch Chromium and open the UI on them", runDemo},
	"run":      {"replay a file of JSON-line actions against a page (- reads stdin)", runScript},
	"open":     {"show a capture saved from the UI (e) with no browser", runOpen},
}

// defaultCommand runs when no subcommand is given: the UI on an attached page.
var defaultCommand = runUI

// quitSignals end the program as q does: the tab it opened is closed and
// a browser it launched stops. SIGHUP is the terminal going away (its
// window closed, an ssh session dropped); under nohup it stays ignored
// (asking for it would undo that).
var quitSignals = func() []os.Signal {
	sigs := []os.Signal{os.Interrupt, syscall.SIGTERM}
	if !signal.Ignored(syscall.SIGHUP) {
		sigs = append(sigs, syscall.SIGHUP)
	}
	return sigs
}()

func main() {
	ctx, cancel := signal.NotifyContext(context.Background(), quitSignals...)
	err := dispatch(ctx, os.Args[1:])
	cancel()
	if err != nil {
		os.Exit(report(err))
	}
}

func dispatch(ctx context.Context, args []string) error {
	if len(args) == 1 && (args[0] == "--version" || args[0] == "-version" || args[0] == "version") {
		fmt.Println("domscope " + version())
		return nil
	}
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		if args[0] == "help" {
			usage(os.Stdout)
			return nil
		}
		if args[0] == "completion" {
			return runCompletion(os.Stdout, args[1:])
		}
		c, ok := commands[args[0]]
		if !ok {
			return usageError{fmt.Sprintf("unknown command %q (try: domscope help)", args[0])}
		}
		st, err := loadSettings(args[1:], os.Getenv)
		if err != nil {
			return err
		}
		return c.run(withSettings(ctx, st), args[1:])
	}
	st, err := loadSettings(args, os.Getenv)
	if err != nil {
		return err
	}
	return defaultCommand(withSettings(ctx, st), args)
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: domscope [flags]            open the UI on a page (--endpoint, --launch, --url, --target)")
	fmt.Fprintln(w, "       domscope <command> [flags]")
	fmt.Fprintln(w, "\ncommands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-10s %s\n", n, commands[n].summary)
	}
	fmt.Fprintf(w, "  %-10s %s\n", "completion", "print a shell completion script: bash, zsh or fish")
	fmt.Fprintln(w, "\nrun 'domscope <command> --help' for its flags")
}

// usageError is bad command-line input.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

// report prints err as one line on stderr and returns the exit code.
func report(err error) int {
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	fmt.Fprintln(os.Stderr, errorLine(err))
	var ue usageError
	if errors.As(err, &ue) {
		return exitConnect
	}
	switch dom.CodeOf(err) {
	case dom.AttachFailed, dom.TargetNotFound, dom.NotAttached:
		return exitConnect
	}
	return exitFail
}

// errorLine is err as the one line report prints. Page titles and URLs in
// messages can hold escape sequences: the one sanitizer for page strings
// makes the line safe for a terminal.
func errorLine(err error) string {
	return "domscope: " + views.Clean(err.Error())
}

// connFlags are the flags every command that talks to a browser shares.
type connFlags struct {
	endpoint    string
	launch      bool
	url         string
	target      string
	allowRemote bool
	demo        bool
	headless    bool
	timeout     time.Duration
	// viewport, device and scale emulate the agent's window (viewport.go).
	viewport string
	device   string
	scale    float64
}

func (c *connFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&c.endpoint, "endpoint", cdpconn.DefaultEndpoint, "DevTools endpoint: http://host:port, ws://host:port/devtools/browser/<id>, or a browser farm's ws(s):// URL with its token (used as given)")
	fs.BoolVar(&c.launch, "launch", false, "launch a local Chromium (headless when there is no display) instead of connecting")
	fs.StringVar(&c.url, "url", "", "open this URL in a new tab (closed again on exit)")
	fs.StringVar(&c.target, "target", "", "attach to an existing tab: target id, 0-based index, or URL/title substring")
	fs.BoolVar(&c.allowRemote, "allow-remote", false, "allow a non-loopback endpoint (a CDP port is full control of a browser)")
	fs.BoolVar(&c.demo, "demo", false, "serve the built-in demo pages on loopback and open them")
	fs.BoolVar(&c.headless, "headless", false, "with --launch: headless even when a display is available")
	fs.DurationVar(&c.timeout, "timeout", 90*time.Second, "give up on the browser after this long")
	c.registerViewport(fs)
}

// session is an attached page and what must be closed after it.
type session struct {
	browser *cdpconn.Browser
	page    dom.Page
	closers []func()
}

func (s *session) Close() {
	if s.page != nil {
		_ = s.page.Detach()
	}
	if s.browser != nil {
		_ = s.browser.Close()
	}
	for i := len(s.closers) - 1; i >= 0; i-- {
		s.closers[i]()
	}
}

// open connects (or launches) and attaches to the page the flags name.
func (c *connFlags) open(ctx context.Context) (*session, error) {
	vp, err := c.emulation()
	if err != nil {
		return nil, err
	}
	s := &session{}
	url := c.url
	if c.demo {
		base, stop, err := demo.Serve()
		if err != nil {
			return nil, err
		}
		s.closers = append(s.closers, stop)
		if url == "" {
			url = base + "/"
		} else if !strings.Contains(url, "://") {
			url = base + "/" + strings.TrimPrefix(url, "/")
		}
	}
	if url != "" && c.target != "" {
		s.Close()
		return nil, usageError{"give --url (or --demo) or --target, not both"}
	}
	if c.launch {
		s.browser, err = cdpconn.Launch(ctx, cdpconn.LaunchOptions{Headless: c.headless})
	} else {
		s.browser, err = cdpconn.Connect(ctx, c.endpoint, c.allowRemote)
	}
	if err != nil {
		s.Close()
		return nil, err
	}
	if url != "" {
		s.page, err = s.browser.NewPage(ctx, url)
	} else {
		var tabs []dom.TargetInfo
		if tabs, err = s.browser.Targets(ctx); err == nil {
			var t dom.TargetInfo
			if t, err = cdpconn.PickTarget(tabs, c.target); err == nil {
				s.page, err = s.browser.Attach(ctx, t.ID)
			}
		}
	}
	if err == nil {
		err = emulate(ctx, s.page, vp)
	}
	if err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

func runSnapshot(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("snapshot", flag.ContinueOnError)
	fs.SetOutput(os.Stderr)
	var conn connFlags
	conn.register(fs)
	format := fs.String("format", "text", "output format: json, text or tree")
	backendIDs := fs.Bool("backend-ids", false, "add \"backendNodeId\" to every node in json output")
	out := fs.String("out", "", "write the output to this file instead of stdout")
	stats := fs.Bool("stats", false, "print token count (o200k), tier counts, node count and timings to stderr")
	shot := fs.String("screenshot", "", "also save the page's viewport as a PNG at its CSS size to this file")
	marks := fs.Bool("marks", false, "with --screenshot: draw the flattened view's ids ([N]) as numbered boxes; list those not on it on stderr")
	fs.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: domscope snapshot [flags]\n\nPrints one snapshot of a page and exits.\n\nflags:")
		fs.PrintDefaults()
	}
	if err := parseFlags(ctx, fs, args, 0); err != nil {
		return err
	}
	switch *format {
	case "json", "text", "tree":
	default:
		return usageError{fmt.Sprintf("unknown --format %q: want json, text or tree", *format)}
	}
	if *marks && *shot == "" {
		return usageError{"--marks draws on the screenshot: give --screenshot FILE.png too"}
	}
	ctx, cancel := context.WithTimeout(ctx, conn.timeout)
	defer cancel()

	s, err := conn.open(ctx)
	if err != nil {
		return err
	}
	defer s.Close()

	st := settingsFrom(ctx)
	// A one-shot command: keep the heap near what is live (about 90 MB on a
	// 50,000-element page) rather than twice that, for some more GC work.
	// GOMEMLIMIT, when set, wins.
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(snapshotMemoryLimit)
	}
	// Printed and dropped: the capture's JSON is let go as it is decoded.
	snap, err := dom.Take(ctx, s.page, dom.BuildOptions{Disabled: st.tierOff, Lean: true})
	if err != nil {
		return err
	}
	opts := dom.DefaultOptions()
	opts.IncludeBackendIDs = *backendIDs
	opts.Disabled = st.flattenOff
	t2 := time.Now()
	sd, dec := dom.Flatten(snap, opts)
	var text string
	switch *format {
	case "json":
		b, err := dom.FormatJSON(sd)
		if err != nil {
			return err
		}
		text = string(b)
	case "text":
		text = dom.FormatText(sd)
	case "tree":
		text = dom.FormatTree(snap, dec)
	}
	flattenTime := time.Since(t2)
	if !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	if *out != "" {
		if err := os.WriteFile(*out, []byte(text), 0o644); err != nil {
			return err
		}
	} else if _, err := io.WriteString(os.Stdout, text); err != nil {
		return err
	}
	if *shot != "" {
		if err := writeScreenshot(ctx, s.page, snap, sd, *shot, *marks, os.Stderr); err != nil {
			return err
		}
	}
	if *stats {
		printStats(os.Stderr, snap, text, *format, snap.CaptureTime, snap.BuildTime, flattenTime)
	}
	return nil
}

// snapshotMemoryLimit is the snapshot command's soft memory limit (see
// runtime/debug.SetMemoryLimit): the GC works harder near it, it never
// fails an allocation.
const snapshotMemoryLimit = 120 << 20

// printStats writes the --stats lines.
func printStats(w io.Writer, snap *dom.Snapshot, out, format string, capture, build, flatten time.Duration) {
	var nodes, hidden int
	tiers := map[dom.Tier]int{}
	dom.Walk(snap.Root, func(n *dom.VirtualNode) {
		nodes++
		tiers[n.Tier]++
		if !n.Visible {
			hidden++
		}
	})
	fmt.Fprintf(w, "tokens (o200k, %s): %d\n", format, dom.CountTokens(out))
	fmt.Fprintf(w, "nodes: %d (semantic %d, non-semantic %d, structural %d; hidden %d)\n",
		nodes, tiers[dom.Semantic], tiers[dom.NonSemantic], tiers[dom.Structural], hidden)
	oop := 0
	for _, f := range snap.Frames {
		if f.OutOfProcess {
			oop++
		}
	}
	fmt.Fprintf(w, "frames: %d, out-of-process targets: %d\n", len(snap.Frames), oop)
	fmt.Fprintf(w, "capture %s, build %s, flatten+format %s\n", ms(capture), ms(build), ms(flatten))
}

func ms(d time.Duration) string { return fmt.Sprintf("%.0f ms", float64(d.Microseconds())/1000) }

// uiFlags are the flags of the commands that open the UI.
type uiFlags struct {
	theme       string
	noColor     bool
	noHighlight bool
	noEffects   bool
	paused      bool
	record      string
	outputDir   string
}

// themes are the values --theme takes.
var themeNames = []string{"auto", "dark", "light"}

// register adds the UI's flags; live: the UI is on a page in a browser
// (the browser-side flags apply), not on a saved capture.
func (u *uiFlags) register(fs *flag.FlagSet, live bool) {
	fs.StringVar(&u.theme, "theme", "auto", "colours: auto (ask the terminal), dark or light")
	fs.BoolVar(&u.noColor, "no-color", false, "draw without colour (also when $NO_COLOR is set)")
	fs.StringVar(&u.outputDir, "output-dir", "", "where e (export) and w (script) write their files (default the current directory)")
	if !live {
		return
	}
	fs.BoolVar(&u.noHighlight, "no-highlight", false, "start with the browser-side highlight of the selection off")
	fs.BoolVar(&u.noEffects, "no-effects", false, "no click ripple in the browser")
	fs.BoolVar(&u.paused, "paused", false, "start with follow mode paused: the page's own changes show only after F")
	fs.StringVar(&u.record, "record", "", "append each action done in the UI to FILE as a run script step, as it happens")
}

// parseFlags parses args into fs and refuses positional arguments beyond max.
// The config file and the environment (settings in ctx) give the flags'
// defaults first, so a flag on the command line wins over both.
func parseFlags(ctx context.Context, fs *flag.FlagSet, args []string, max int) error {
	fs.SetOutput(os.Stderr)
	settingsFrom(ctx).apply(fs)
	if into, ok := ctx.Value(collectKey{}).(**flag.FlagSet); ok {
		*into = fs // completion wants the flags, not a run
		return errCollected
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return usageError{err.Error()}
	}
	if fs.NArg() > max {
		return usageError{fmt.Sprintf("unexpected argument %q", fs.Arg(max))}
	}
	if f := fs.Lookup("theme"); f != nil && !slices.Contains(themeNames, f.Value.String()) {
		return usageError{fmt.Sprintf("--theme %q: want %s", f.Value, strings.Join(themeNames, ", "))}
	}
	// A zero or negative timeout would end every browser call at once and
	// read as a dead endpoint.
	if f := fs.Lookup("timeout"); f != nil {
		if d, ok := f.Value.(flag.Getter).Get().(time.Duration); ok && d <= 0 {
			return usageError{fmt.Sprintf("--timeout %s: give a positive duration such as 30s or 2m", f.Value)}
		}
	}
	return nil
}

// runUI opens the UI on the page the connection flags name.
func runUI(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("domscope", flag.ContinueOnError)
	var conn connFlags
	var ui uiFlags
	conn.register(fs)
	ui.register(fs, true)
	fs.Usage = func() {
		usage(os.Stderr)
		fmt.Fprintln(os.Stderr, "\nflags of the UI:")
		fs.PrintDefaults()
	}
	if err := parseFlags(ctx, fs, args, 0); err != nil {
		return err
	}
	return openUI(ctx, conn, ui, nil)
}

// runDemo serves the embedded demo pages, launches Chromium and opens the UI.
func runDemo(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("demo", flag.ContinueOnError)
	var conn connFlags
	var ui uiFlags
	conn.register(fs)
	ui.register(fs, true)
	fs.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: domscope demo [flags]\n\nServes the demo pages built into the binary on loopback, launches a local\nChromium (or uses --endpoint when given) and opens the UI on them.\n\nflags:")
		fs.PrintDefaults()
	}
	if err := parseFlags(ctx, fs, args, 0); err != nil {
		return err
	}
	conn.demo = true
	if !flagGiven(fs, "endpoint") {
		conn.launch = true
	}
	return openUI(ctx, conn, ui, nil)
}

func flagGiven(fs *flag.FlagSet, name string) bool {
	given := false
	fs.Visit(func(f *flag.Flag) { given = given || f.Name == name })
	return given
}

// openWithin opens the page the flags name, giving up after --timeout; the
// session itself lives as long as ctx.
func (c *connFlags) openWithin(ctx context.Context) (*session, error) {
	openCtx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	return c.open(openCtx)
}

// openUI opens the UI on the page the flags name; more, if set, adds to
// its configuration (a script to step through).
func openUI(ctx context.Context, conn connFlags, ui uiFlags, more func(*tui.Config)) error {
	if conn.launch {
		// Chromium takes a few seconds to start; say so before the screen opens.
		fmt.Fprintln(os.Stderr, "domscope: launching Chromium…")
	}
	var record io.Writer
	if ui.record != "" {
		// appended to, so a session can be recorded in several sittings
		f, err := os.OpenFile(ui.record, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
		if err != nil {
			return fmt.Errorf("--record: %w", err)
		}
		defer func() { _ = f.Close() }()
		record = f
	}
	s, err := conn.openWithin(ctx)
	if err != nil {
		return err
	}
	defer s.Close()
	st := settingsFrom(ctx)
	cfg := live.Config{VisualEffects: !ui.noEffects, TierDisabled: st.tierOff}
	// Kept by the service, so a reconnected or newly picked tab gets it too.
	cfg.Viewport, _ = conn.emulation()
	var browser dom.Browser = s.browser
	if !conn.launch {
		// A browser we attached to can be restarted under us: redial its
		// endpoint, and let the tab picker use whatever connection is live.
		// One we launched is gone with its process.
		rd := cdpconn.NewRedialer(conn.endpoint, conn.allowRemote, s.browser)
		defer func() { _ = rd.Close() }()
		cfg.Reconnect = rd.Reattach
		browser = rd
	}
	newActor := func(p dom.Page) dom.Actor { return live.NewService(p, cfg) }
	actor := newActor(s.page)
	defer func() { _ = actor.Close() }()
	km, err := st.keyMap()
	if err != nil {
		return err
	}
	tc := tui.Config{
		Actor:       actor,
		Browser:     browser,
		NewActor:    newActor,
		Theme:       ui.theme,
		NoColor:     ui.noColor,
		NoHighlight: ui.noHighlight,
		Record:      record,
		OutputDir:   ui.outputDirOr(st),
		Format:      st.format,
		TierOff:     st.tierOff,
		FlattenOff:  st.flattenOff,
		Keys:        km,

		FollowPaused: ui.paused,
	}
	if more != nil {
		more(&tc)
	}
	return tui.Run(ctx, tc)
}

// runOpen shows a saved capture with no browser.
func runOpen(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("open", flag.ContinueOnError)
	var ui uiFlags
	ui.register(fs, false)
	fs.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: domscope open [flags] FILE\n\nShows a capture saved from the UI (key e) with no browser.\n\nflags:")
		fs.PrintDefaults()
	}
	if err := parseFlags(ctx, fs, args, 1); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return usageError{"open needs the capture file to show"}
	}
	st := settingsFrom(ctx)
	km, err := st.keyMap()
	if err != nil {
		return err
	}
	return tui.Run(ctx, tui.Config{Saved: fs.Arg(0), Theme: ui.theme, NoColor: ui.noColor,
		Format: st.format, OutputDir: ui.outputDirOr(st), Keys: km})
}

// runScript replays a file of actions, printing each result.
func runScript(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	var conn connFlags
	conn.register(fs)
	snapshots := fs.String("snapshots", "", "print the snapshot after each step: text or json")
	keepGoing := fs.Bool("keep-going", false, "run the remaining steps after a failed one")
	effects := fs.Bool("effects", false, "show a click ripple in the browser")
	refsFile := fs.String("refs", "", "the snapshot text (Playwright aria snapshot or domscope text) that {\"ref\":…} targets name")
	stepUI := fs.Bool("ui", false, "step through FILE in the UI: run, skip, edit and retry each step, act by hand in between")
	var ui uiFlags
	ui.register(fs, true)
	fs.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: domscope run [flags] FILE\n\nReplays FILE (JSON lines, one action each; - reads stdin) against the page\nand prints each result. Exit code 1 when a step fails. A step recorded\nwith a withheld value (•••• typed into a sensitive field) takes it from\nthe environment variable DOMSCOPE_SECRET_<step number>.\n\nflags:")
		fs.PrintDefaults()
	}
	if err := parseFlags(ctx, fs, args, 1); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return usageError{"run needs a file of actions (or - for stdin)"}
	}
	var refs *script.Refs
	if *refsFile != "" {
		r, err := script.ReadRefsFile(*refsFile)
		if err != nil {
			return usageError{err.Error()}
		}
		refs = r
	}
	if *stepUI {
		if fs.Arg(0) == "-" {
			return usageError{"run --ui reads its keys from the terminal: give the script as a file, not -"}
		}
		b, err := os.ReadFile(fs.Arg(0))
		if err != nil {
			return err
		}
		lines, err := script.Load(strings.NewReader(string(b)))
		if err != nil {
			return usageError{err.Error()}
		}
		if len(lines) == 0 {
			return usageError{fs.Arg(0) + " has no steps"}
		}
		return openUI(ctx, conn, ui, func(c *tui.Config) {
			c.Script, c.ScriptName, c.Refs = lines, fs.Arg(0), refs
		})
	}
	var in io.Reader = os.Stdin
	if name := fs.Arg(0); name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return err
		}
		defer f.Close()
		in = f
	}
	s, err := conn.openWithin(ctx)
	if err != nil {
		return err
	}
	defer s.Close()
	vp, _ := conn.emulation() // checked by openWithin
	actor := live.NewService(s.page, live.Config{VisualEffects: *effects, Viewport: vp})
	defer func() { _ = actor.Close() }()
	return script.Run(ctx, actor, in, os.Stdout, script.Options{Snapshots: *snapshots, KeepGoing: *keepGoing, Refs: refs,
		Secret: script.SecretFromEnv(os.Getenv)})
}

// outputDir is --output-dir, or the config file's output_dir when the flag
// is not given.
func (u uiFlags) outputDirOr(st *settings) string {
	if u.outputDir != "" {
		return u.outputDir
	}
	return st.outputDir
}
