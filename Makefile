# The README's two set-up commands are `make demo` and `make test`; each
# installs what it needs (Chromium from Debian's package) on a fresh machine.
GO ?= $(shell command -v go || echo /usr/local/go/bin/go)

.PHONY: demo test test-long test-short build chromium tmux bench vet

# A static binary (no cgo: Go's own DNS and user lookups) starts about
# 0.7 ms sooner. Every one-shot `domscope snapshot` pays its start.
build:
	CGO_ENABLED=0 $(GO) build -o domscope .

chromium:
	@command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 || \
	  command -v google-chrome >/dev/null 2>&1 || [ -n "$$CHROME_PATH" ] || { \
	  echo "installing Chromium (Debian package chromium)"; \
	  SUDO=$$([ "$$(id -u)" = 0 ] || echo sudo); \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq chromium >/dev/null; }

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

# The long lane: the whole corpus and the 50,000-element page (names end
# in Long). CI runs it once, after make test.
test-long: chromium
	DOMSCOPE_LONG=1 $(GO) test -run 'Long$$' -timeout 60m ./...

bench: chromium
	$(GO) test -run '^$$' -bench . -benchmem -timeout 30m ./...

# The quick lane: units, goldens and fuzz seeds; no browser, under a minute.
test-short: vet
	$(GO) test -short -timeout 5m ./...
