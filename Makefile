# The README's two set-up commands are `make demo` and `make test`; each
# installs what it needs (Chromium from Debian's package) on a fresh machine.
GO ?= $(shell command -v go || echo /usr/local/go/bin/go)

.PHONY: demo test test-long test-short build install chromium tmux bench vet

# The version `domscope version` and the MCP handshake say: git describe
# in a clone; outside git, Go's own build info (module version).
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null)
LDFLAGS := $(if $(VERSION),-X main.buildVersion=$(VERSION))
# Where `make install` puts domscope: $GOBIN, else ~/.local/bin.
BINDIR ?= $(or $(shell $(GO) env GOBIN 2>/dev/null),$(HOME)/.local/bin)

# Two programs: domscope-engine is the whole of domscope (the root
# package); domscope is its small front (tui/front), which sends the
# agent commands to the resident service and runs the engine for the
# rest. An agent command then pays a few milliseconds of start, not the
# engine's. A static binary (no cgo) starts sooner still.
build:
	@[ -x domscope-engine ] || echo "building ./domscope and ./domscope-engine (the first build fetches Go modules and takes a few minutes)"
	CGO_ENABLED=0 $(GO) build -ldflags '$(LDFLAGS)' -o domscope-engine .
	CGO_ENABLED=0 $(GO) build -trimpath -ldflags '-s -w' -o domscope ./tui/front

install: build
	@mkdir -p '$(BINDIR)' && install -m 0755 domscope-engine '$(BINDIR)/domscope-engine'
	@install -m 0755 domscope '$(BINDIR)/domscope'
	@echo "installed $(BINDIR)/domscope ($$('$(BINDIR)/domscope' version))"
	@case ":$$PATH:" in *":$(BINDIR):"*) ;; *) echo "note: $(BINDIR) is not in PATH; add it, or use the absolute path in MCP configs";; esac

# macOS has no apt-get: the launcher finds Chrome or Chromium in
# /Applications, so this only says what to install.
chromium:
	@command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 || \
	  command -v google-chrome >/dev/null 2>&1 || [ -n "$$CHROME_PATH" ] || \
	  if [ "$$(uname)" = Darwin ]; then \
	    for a in "/Applications/Google Chrome.app" "/Applications/Chromium.app" "/Applications/Google Chrome Canary.app" \
	      "$$HOME/Applications/Google Chrome.app" "$$HOME/Applications/Chromium.app"; do [ -d "$$a" ] && exit 0; done; \
	    echo "no Chrome or Chromium found: install Google Chrome (https://www.google.com/chrome/)"; \
	    echo "or Chromium (brew install --cask chromium), or set CHROME_PATH to a Chrome binary"; exit 1; \
	  else \
	    echo "installing Chromium (Debian package chromium)"; \
	    SUDO=$$([ "$$(id -u)" = 0 ] || echo sudo); \
	    $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq chromium >/dev/null; \
	  fi

# The UI's full-program tests drive the program in a real terminal.
tmux:
	@command -v tmux >/dev/null 2>&1 || { \
	  echo "installing tmux"; \
	  SUDO=$$([ "$$(id -u)" = 0 ] || echo sudo); \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq tmux >/dev/null; }

demo: chromium build
	./domscope demo

vet:
	$(GO) vet ./...

# The timeout is a hang guard: a loaded machine can take four times as long.
test: chromium tmux vet
	$(GO) test -timeout 40m ./...

# The long lane: the corpus pages make test leaves and the 50,000-element page (names end
# in Long). CI runs it once, beside make test.
test-long: chromium
	DOMSCOPE_LONG=1 $(GO) test -run 'Long$$' -timeout 60m ./...

bench: chromium
	$(GO) test -run '^$$' -bench . -benchmem -timeout 30m ./...

# The quick lane: units, goldens and fuzz seeds; no browser, under a minute.
test-short: vet
	$(GO) test -short -timeout 5m ./...
