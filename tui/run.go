// Package tui is domscope's terminal UI. One Bubble Tea model shows the
// VirtualNode tree beside the flattened LLM view. It acts on the
// selection through a dom.Actor and re-snapshots after every action.
package tui

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"

	"domscope/dom"
	"domscope/dom/export"
	"domscope/dom/script"
	"domscope/keymap"
)

// Config is what Run needs. Exactly one of Actor and Saved is set.
type Config struct {
	// Actor is the service of the attached page (dom.NewService).
	Actor dom.Actor
	// Browser lists and attaches tabs for `T`; nil disables tab picking.
	Browser dom.Browser
	// NewActor makes a service for a tab attached with `T`
	// (typically func(p dom.Page) dom.Actor { return dom.NewService(p, cfg) }).
	NewActor func(dom.Page) dom.Actor
	// Saved is a capture file written by `e`, to show with no browser
	// (`domscope open FILE`).
	Saved string
	// Theme is "auto" (ask the terminal), "dark" or "light".
	Theme string
	// NoColor draws without colour (also when $NO_COLOR is set).
	NoColor bool
	// NoHighlight starts with the browser-side highlight off.
	NoHighlight bool
	// FollowPaused starts with follow mode paused; F resumes it. Until
	// then the page's own changes are not shown.
	FollowPaused bool
	// Record, when set, gets each action of the session as a `run` script
	// line, as it happens (--record FILE).
	Record io.Writer
	// OutputDir is where `e` exports and `w` scripts go. "" is the current
	// directory.
	OutputDir string
	// Replay is the command that replays a script w wrote to file. It runs
	// on a fresh load of start with this session's connection flags. When
	// nil, the hint shows URL in place of the page.
	Replay func(start, file string) string
	// Format is the flat pane's first format: "json", else text.
	Format string
	// TierOff and FlattenOff name the rules switched off at the start (the
	// config file). The actor is expected to build with TierOff already.
	TierOff, FlattenOff map[string]bool
	// Keys replaces the default key table (overrides from the config
	// file). An empty one means keymap.Default().
	Keys keymap.KeyMap
	// Script is a script to step through (`domscope run --ui FILE`), named
	// ScriptName. Refs are the snapshot lines its {"ref":…} targets name.
	Script     []script.Line
	ScriptName string
	Refs       *script.Refs
	// Input and Output replace the terminal (tests).
	Input  io.Reader
	Output io.Writer
	// Now replaces the clock (tests).
	Now func() time.Time
	// Agent, when set, shows and records an MCP server's calls on this
	// page (domscope --mcp). p pauses them.
	Agent *Agent
	// OpTimeout bounds each browser operation (an action and its
	// snapshot). 0 means 60 s.
	OpTimeout time.Duration
}

// Run shows the UI until the user quits or ctx ends. The terminal is
// always restored: on quit, ctrl+c, a signal or a panic.
func Run(ctx context.Context, cfg Config) error {
	if cfg.Actor == nil && cfg.Saved == "" {
		return errors.New("nothing to show: attach to a page or open a saved capture")
	}
	if os.Getenv("NO_COLOR") != "" {
		cfg.NoColor = true
	}
	m := newModel(ctx, cfg)
	m.limitMemory = memoryLimited()
	m.fitMemory()
	if cfg.Saved != "" {
		c, err := export.ReadCaptureFile(cfg.Saved)
		if err != nil {
			return err
		}
		if err := m.openSaved(filepath.Base(cfg.Saved), c); err != nil {
			return err
		}
	}
	opts := []tea.ProgramOption{tea.WithContext(ctx)}
	if cfg.Input != nil {
		opts = append(opts, tea.WithInput(cfg.Input))
	}
	if cfg.Output != nil {
		opts = append(opts, tea.WithOutput(cfg.Output))
	}
	if cfg.NoColor {
		opts = append(opts, tea.WithColorProfile(colorprofile.Ascii))
	}
	_, err := tea.NewProgram(m, opts...).Run()
	m.shutdown()
	switch {
	case err == nil, errors.Is(err, tea.ErrInterrupted):
		return nil
	case errors.Is(err, tea.ErrProgramPanic):
		return fmt.Errorf("domscope hit an internal error; the terminal was restored (%w)", err)
	case ctx.Err() != nil:
		return nil
	}
	return err
}

// openSaved shows a saved capture with no browser.
func (m *Model) openSaved(name string, c *export.SavedCapture) error {
	s, err := c.Snapshot()
	if err != nil {
		return fmt.Errorf("%s: cannot rebuild the saved capture: %w", name, err)
	}
	m.conn.saved, m.conn.savedAs = c, name
	m.doc.flatOpts = c.FlattenOptions()
	if m.doc.flatOpts.Disabled == nil {
		m.doc.flatOpts.Disabled = map[string]bool{}
	}
	m.doc.tierOff = dom.CopyRules(c.TierDisabledSet())
	m.status.last = c.LastAction
	if r := c.LastAction; r != nil {
		if r.Duration == 0 && r.DurationMs > 0 {
			r.Duration = time.Duration(r.DurationMs * float64(time.Millisecond))
		}
		m.status.lastDesc = c.LastActionDesc
		if m.status.lastDesc == "" {
			m.status.lastDesc = string(r.Action)
			if r.ID != "" {
				m.status.lastDesc += " on " + r.ID
			}
		}
	}
	m.setSnapshot(s, false)
	// the page's last picture, saved masked: P shows it
	if p, err := c.LoadPicture(); err != nil {
		m.pic.err = "no picture: " + err.Error()
	} else if p != nil {
		m.pic.shot, m.pic.shotSeq, m.pic.tried = p, c.Picture.Seq, s.Seq
		m.pic.shotN++
	}
	return nil
}

// shutdown hides the browser highlight and closes the services this UI
// created. The caller owns the one it passed in.
func (m *Model) shutdown() {
	if m.op.busy != nil {
		m.op.busy.cancel()
	}
	if m.conn.actor != nil && m.hl.shown != "" {
		ctx, cancel := ctxTimeout(context.Background(), highlightTimeout)
		_ = m.conn.actor.Highlight(ctx, "")
		cancel()
	}
	if m.conn.own && m.conn.actor != nil {
		_ = m.conn.actor.Close()
	}
}
