package cdpconn

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"

	"domscope/dom"
)

// startTimeout bounds how long a launched Chromium may take to open its
// DevTools port. The caller's context (--timeout) usually ends it first.
// A loaded machine can take over 30 s to start a browser.
const startTimeout = 2 * time.Minute

// LaunchOptions configure Launch. The zero value finds Chromium on its own,
// runs headless when there is no display, and uses a fresh profile.
type LaunchOptions struct {
	// Path is the browser executable. Empty looks at $CHROME_PATH, then
	// chromium, chromium-browser, google-chrome, google-chrome-stable on
	// $PATH, then on macOS Chrome, Chromium and Chrome Canary in
	// /Applications and ~/Applications.
	Path string
	// Headless forces headless mode. Without it the browser is headless
	// only when $DISPLAY and $WAYLAND_DISPLAY are unset.
	Headless bool
	// UserDataDir is the profile directory. Empty makes a fresh temporary
	// one that Close removes.
	UserDataDir string
	// NoSandbox passes --no-sandbox. It is also set when running as root,
	// where Chromium refuses to start with its sandbox.
	NoSandbox bool
	// Args are extra command-line flags.
	Args []string
	// Env are extra environment variables (KEY=value).
	Env []string
}

// launched is a Chromium process Launch started.
type launched struct {
	cmd     *exec.Cmd
	tmpDir  string // removed on stop when we made it
	profile string // the --user-data-dir, ours or given
	exited  chan struct{}
	once    sync.Once
	err     error
}

// FindChrome returns the Chromium executable Launch would use.
func FindChrome() (string, error) {
	home, _ := os.UserHomeDir()
	return findChrome(runtime.GOOS, os.Getenv, exec.LookPath, fileExists, home)
}

// macApps are where macOS keeps Chrome and Chromium: an app bundle has
// no command on $PATH.
var macApps = []string{
	"Google Chrome.app/Contents/MacOS/Google Chrome",
	"Chromium.app/Contents/MacOS/Chromium",
	"Google Chrome Canary.app/Contents/MacOS/Google Chrome Canary",
}

// findChrome is FindChrome with the system's lookups passed in, so the
// candidates of every system can be tested on one.
func findChrome(goos string, getenv func(string) string, lookPath func(string) (string, error), exists func(string) bool, home string) (string, error) {
	if p := getenv("CHROME_PATH"); p != "" {
		if !exists(p) {
			return "", fmt.Errorf("$CHROME_PATH=%s: no such file", p)
		}
		return p, nil
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome"} {
		if p, err := lookPath(name); err == nil {
			return p, nil
		}
	}
	if goos == "darwin" {
		dirs := []string{"/Applications"}
		if home != "" {
			dirs = append(dirs, filepath.Join(home, "Applications"))
		}
		for _, app := range macApps {
			for _, d := range dirs {
				if p := filepath.Join(d, app); exists(p) {
					return p, nil
				}
			}
		}
		return "", errors.New("no Chrome found: install Google Chrome or Chromium (brew install --cask chromium) in /Applications, or set $CHROME_PATH")
	}
	return "", errors.New("no Chromium found: install chromium (apt-get install chromium) or set $CHROME_PATH")
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// Launch starts a local Chromium with a DevTools port on a free loopback
// port and connects to it. Close stops the browser and removes its
// temporary profile.
func Launch(ctx context.Context, opts LaunchOptions) (*Browser, error) {
	path := opts.Path
	if path == "" {
		var err error
		if path, err = FindChrome(); err != nil {
			return nil, dom.Errorf(dom.AttachFailed, err, "cannot launch a browser")
		}
	}
	l := &launched{exited: make(chan struct{})}
	dir := opts.UserDataDir
	if dir == "" {
		// Profiles of domscopes that were killed before they could clean up.
		cleanLeftovers(os.TempDir())
		var err error
		if dir, err = os.MkdirTemp("", profilePrefix); err != nil {
			return nil, dom.Errorf(dom.AttachFailed, err, "cannot make a profile directory")
		}
		l.tmpDir = dir
		if err := writeOwner(dir); err != nil {
			l.cleanup()
			return nil, dom.Errorf(dom.AttachFailed, err, "cannot write to the profile directory %s", dir)
		}
	}
	l.profile = dir
	headless := opts.Headless || (os.Getenv("DISPLAY") == "" && os.Getenv("WAYLAND_DISPLAY") == "")
	args := []string{
		"--remote-debugging-port=0", // Chrome picks a free port and writes it to DevToolsActivePort
		"--user-data-dir=" + dir,
		"--no-first-run", "--no-default-browser-check",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--disable-quic", "--disable-gpu", "--disable-dev-shm-usage",
		"--disable-features=Translate,MediaRouter,OptimizationHints",
		// An agent's tab behind another must keep its timers and frames
		// (as Playwright launches Chrome).
		"--disable-background-timer-throttling", "--disable-renderer-backgrounding",
		"--disable-backgrounding-occluded-windows",
		"--password-store=basic", "--use-mock-keychain",
	}
	if headless {
		args = append(args, "--headless", "--hide-scrollbars", "--mute-audio", "--window-size=1280,800")
	}
	if opts.NoSandbox || os.Geteuid() == 0 {
		args = append(args, "--no-sandbox")
	}
	args = append(args, opts.Args...)
	args = append(args, "about:blank")

	cmd := exec.Command(path, args...)
	cmd.Env = append(os.Environ(), opts.Env...)
	var stderr bytes.Buffer
	cmd.Stderr = &limitedWriter{w: &stderr, n: 64 << 10}
	setProcAttr(cmd)
	if err := cmd.Start(); err != nil {
		l.cleanup()
		return nil, dom.Errorf(dom.AttachFailed, err, "cannot start %s", path)
	}
	l.cmd = cmd
	go func() { l.err = cmd.Wait(); close(l.exited) }()

	ws, err := waitDevToolsPort(ctx, dir, l.exited)
	if err != nil {
		_ = l.stop()
		msg := strings.TrimSpace(lastLines(stderr.String(), 3))
		if msg != "" {
			err = fmt.Errorf("%w; browser said: %s", err, msg)
		}
		return nil, dom.Errorf(dom.AttachFailed, err, "cannot launch %s", path)
	}
	b, err := connectWS(ctx, ws)
	if err != nil {
		_ = l.stop()
		return nil, err
	}
	b.launched = l
	return b, nil
}

// waitDevToolsPort waits for Chromium to write DevToolsActivePort in its
// profile directory. The file holds the port and browser path.
func waitDevToolsPort(ctx context.Context, dir string, exited <-chan struct{}) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, startTimeout)
	defer cancel()
	file := filepath.Join(dir, "DevToolsActivePort")
	tick := time.NewTicker(25 * time.Millisecond)
	defer tick.Stop()
	for {
		if b, err := os.ReadFile(file); err == nil {
			lines := strings.Split(strings.TrimSpace(string(b)), "\n")
			if len(lines) >= 2 {
				return "ws://127.0.0.1:" + strings.TrimSpace(lines[0]) + strings.TrimSpace(lines[1]), nil
			}
		}
		select {
		case <-exited:
			return "", errors.New("the browser exited before opening its DevTools port")
		case <-ctx.Done():
			return "", fmt.Errorf("the browser did not open its DevTools port in %s", startTimeout)
		case <-tick.C:
		}
	}
}

// stop kills the browser (its whole process group). It removes a
// temporary profile.
func (l *launched) stop() error {
	l.once.Do(func() {
		if l.cmd != nil && l.cmd.Process != nil {
			killProcess(l.cmd)
			select {
			case <-l.exited:
			case <-time.After(10 * time.Second):
			}
		}
		removeSingletonDir(l.profile)
		l.cleanup()
	})
	return nil
}

// removeSingletonDir removes the directory in $TMPDIR that holds the
// browser's singleton socket (org.chromium.Chromium.XXXXXX). The profile
// links to it. Chromium removes it on a clean exit; a killed one does not.
func removeSingletonDir(profile string) {
	if profile == "" {
		return
	}
	target, err := os.Readlink(filepath.Join(profile, "SingletonSocket"))
	if err != nil {
		return
	}
	dir := filepath.Dir(target)
	base := filepath.Base(dir)
	// Only a directory the browser made for this: never the profile or /tmp.
	if !strings.HasPrefix(base, "org.chromium.") && !strings.HasPrefix(base, "com.google.") {
		return
	}
	_ = os.RemoveAll(dir)
}

func (l *launched) cleanup() {
	if l.tmpDir == "" {
		return
	}
	// Chromium's helpers can hold files for a moment after the main
	// process exits.
	_ = removeAllRetry(l.tmpDir)
}

// limitedWriter keeps at most n bytes (the browser can be chatty).
type limitedWriter struct {
	mu sync.Mutex
	w  *bytes.Buffer
	n  int
}

func (lw *limitedWriter) Write(p []byte) (int, error) {
	lw.mu.Lock()
	defer lw.mu.Unlock()
	if room := lw.n - lw.w.Len(); room > 0 {
		if len(p) > room {
			lw.w.Write(p[:room])
		} else {
			lw.w.Write(p)
		}
	}
	return len(p), nil
}

func lastLines(s string, n int) string {
	var lines []string
	sc := bufio.NewScanner(strings.NewReader(s))
	for sc.Scan() {
		if t := strings.TrimSpace(sc.Text()); t != "" {
			lines = append(lines, t)
		}
	}
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, " | ")
}

// Process is the browser process Launch started, or nil for a browser
// this program connected to.
func (b *Browser) Process() *os.Process {
	if b.launched == nil || b.launched.cmd == nil {
		return nil
	}
	return b.launched.cmd.Process
}
