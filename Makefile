# MIGA — a mindful gateway for the Linux desktop.
#   make run    set up, build, install to ~/.local and open MIGA (setup on the first run, the hub after)
#   make test   set up the test tools, run every test (end-to-end included), then check a fresh clone's make run
#   make bench  measure start-up, pass-through, memory, size and the syncs before a first frame, and the pause in a browser tab
#               (BEFORE=path: an earlier build measured beside this one)
#   make soak   the long reliability runs: 1000 sessions, and the installed binary alone
#   make fuzz   libFuzzer on every parser, a million inputs each (FUZZ_RUNS)
#   make deb    a Debian package in .build/deb, checked (lintian, install and removal in a throwaway root)
#   make install PREFIX=~/.local

PREFIX ?= $(HOME)/.local
SWIFT ?= swift
RUN_ARGS ?=
# `make install` ends with the hook line to add; `make run` leaves it to setup.
HOOK_HINT ?= yes

# What building needs, and what the tests add: a terminal multiplexer, a real
# notification server under a virtual display on a private bus, the sqlite3
# shell (another process holding the history's lock), a Wayland desktop with
# no X11 (sway, headless; Xwayland for one test) with foot to pause in and
# wtype to type there.
BUILD_PACKAGES = libnotify-dev libsqlite3-dev
TEST_PACKAGES = $(BUILD_PACKAGES) tmux xvfb dbus dbus-bin dunst bash zsh fish xterm desktop-file-utils fortunes-min procps \
	libglib2.0-bin libgtk-3-bin dex systemd kitty fonts-dejavu-core chromium firefox-esr xdg-utils imagemagick x11-utils zip sqlite3 \
	sway foot wtype xwayland
BENCH_PACKAGES = $(BUILD_PACKAGES) fortune-mod fortunes-min python3 time chromium zip strace

# The installed binary: the Swift runtime linked in (no toolchain needed to
# run it), position-independent like every program Debian ships, so all of it
# is address-randomized. It is small enough for that to cost little: no
# target imports Foundation (FoundationEssentials, and the C library for zones).
# No $ORIGIN run path (no library is looked for beside the binary, nor one
# planted there loaded). Every start pays for each library the loader maps,
# so the C++ library the Swift runtime and toml++ need is linked in too
# (loading the shared one costs about a millisecond: Benchmarks/RESULTS.md),
# from a folder that holds only its archive, found before the system's.
# And no symbol is exported: the runtime's flag would export every one of
# MIGA's, which nothing looks up, for the loader to hash and dladdr to scan.
# A generic type's metadata is made by a call with its conformances in hand,
# not from its mangled name: the runtime would demangle the name and look
# each conformance up through all 4 400 in the binary, the first time each
# type is met (about half a millisecond of every launch).
# Smaller (Benchmarks/RESULTS.md, "A leaner binary", has each step's bytes):
# linked by LLVM's lld, which writes the 46 000 relocations of position
# independence in the compact form the C library has read since 2.36 (RELR:
# 9 KB, not 1.1 MB); MIGA's own modules optimized for size, not speed (they
# are a fifth of the binary); no unwinding tables (scripts/no-unwind-tables.ld
# says why none is needed); and MIGA's code optimised whole at the link, which
# takes it under 15 MB for about 35 s more of a first `make run`.
# (lld, unlike gold, does not warn at every link of the mktemp call inside
# the toolchain's FoundationEssentials, which nobody building MIGA could act on.)
STATIC_LIBRARIES = $(CURDIR)/.build/static-libraries
RELEASE_FLAGS = -c release --static-swift-stdlib --disable-local-rpath -Xswiftc -Xclang-linker -Xswiftc -static-libgcc \
	-Xswiftc -Xclang-linker -Xswiftc -L$(STATIC_LIBRARIES) -Xlinker --no-export-dynamic \
	-Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors \
	-Xswiftc -use-ld=lld -Xlinker -z -Xlinker pack-relative-relocs -Xswiftc -Osize \
	-Xlinker -T$(CURDIR)/scripts/no-unwind-tables.ld --experimental-lto-mode=full

.PHONY: run build test soak fuzz bench man install uninstall release deb clean extension

# MIGA installed where it stays (as `make install` does: the binary, its
# manual and completions), then opened from there: the shims, menu entries
# and hook line it writes name that miga, never this clone's build folder,
# so `make clean` or a removed clone does not end the protection.
RUN_PREFIX ?= $(HOME)/.local

run:
	@$(MAKE) --no-print-directory install PREFIX=$(RUN_PREFIX) HOOK_HINT=
	$(RUN_PREFIX)/bin/miga $(RUN_ARGS)

build:
	@scripts/ensure-packages $(BUILD_PACKAGES)
	$(SWIFT) build

# Every test, then a fresh clone of this repository: its `make run` builds
# and installs MIGA where it stays, and setup and a new login shell of each
# kind work with the miga it installed (a release build: minutes). Plain
# `swift test` skips the end-to-end suites; MIGA_END_TO_END=1 runs them.
test:
	@scripts/ensure-packages $(TEST_PACKAGES)
	$(SWIFT) build --build-tests
	MIGA_END_TO_END=1 $(SWIFT) test --skip-build
	scripts/check-fresh-clone

# Minutes rather than seconds: a thousand sessions through tmux, and the
# release binary installed and then run from a folder of its own.
soak:
	@scripts/ensure-packages $(TEST_PACKAGES)
	$(SWIFT) build --build-tests
	MIGA_SOAK=1 $(SWIFT) test --skip-build --filter SoakEndToEndTests
	$(MAKE) install PREFIX=$$(mktemp -d)/prefix INSTALL_CHECK=1

# The parsers under libFuzzer and the address sanitizer, in a package of
# their own (Fuzz/) so that no sanitizer flag reaches the product. The C and
# C++ underneath (toml++, and CSQLite's loader of SQLite) are instrumented
# too. Inputs that break a promise land in Fuzz/Regressions/, which
# `make test` replays.
FUZZ_FLAGS = -c release -Xswiftc -sanitize=fuzzer,address \
	-Xcc -fsanitize=fuzzer-no-link,address -Xcxx -fsanitize=fuzzer-no-link,address

fuzz:
	@scripts/ensure-packages $(BUILD_PACKAGES)
	@# SwiftPM does not notice files added to a path dependency: plan the build afresh.
	rm -f Fuzz/.build/release.yaml
	cd Fuzz && $(SWIFT) build $(FUZZ_FLAGS) --product miga-fuzz
	scripts/fuzz

# The toolchain's own clang, which links miga: the GCC whose libraries it
# links with is the one whose libstdc++ archive is wanted.
TOOLCHAIN_CLANG = $(dir $(realpath $(shell command -v $(SWIFT))))clang

release:
	@scripts/ensure-packages $(BUILD_PACKAGES)
	@gcc=$$(basename "$$(dirname "$$($(TOOLCHAIN_CLANG) -print-libgcc-file-name)")") \
		&& scripts/ensure-packages libstdc++-$$gcc-dev \
		&& archive=$$($(TOOLCHAIN_CLANG) -print-file-name=libstdc++.a) && test -f "$$archive" \
		|| { echo "make: no archive of the C++ library (libstdc++.a) for $(TOOLCHAIN_CLANG)" >&2; exit 1; } \
		&& mkdir -p $(STATIC_LIBRARIES) && ln -sf "$$archive" $(STATIC_LIBRARIES)/libstdc++.a
	$(SWIFT) build $(RELEASE_FLAGS)

bench: release
	@scripts/ensure-packages $(BENCH_PACKAGES)
	@$(MAKE) --no-print-directory extension
	python3 Benchmarks/bench.py .build/release/miga $(if $(BEFORE),before=$(BEFORE))
	python3 Benchmarks/sites.py .build/release/miga .build/extension/chromium

# The manual (docs/miga.1) comes from the same source as --help
# (swift-argument-parser's generate-manual plugin), the completions from the
# binary itself. It is written here, on purpose, when a command or option
# changes (Tests/EndToEndTests/ManualTests.swift fails until it is), not at
# each install: the plugin needs a debug build of its own, minutes on a
# first run.
# Its EXIT STATUS section is the generator's generic one; MIGA's statuses are
# in the description, from the same table as --help and docs/GUIDE.md.
MANUAL = docs/miga.1

man: build
	$(SWIFT) package plugin --allow-writing-to-package-directory generate-manual \
		--configuration debug --section 1 --authors "The MIGA authors"
	sed -e 's/^\.Ex -std$$/The statuses and what each means are listed under DESCRIPTION, after the overview./' \
		-e '/^$$/d' .build/plugins/GenerateManual/outputs/miga/miga.1 > $(MANUAL)
	@# (The second expression: blank lines are not mdoc, groff warns of each; paragraphs are .Pp.)

# The unpacked extensions go to PREFIX/share/miga/extension (chromium/, firefox/,
# and the packed miga-firefox.xpi), where `miga browser setup` names them.
install: release extension
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1 \
		$(DESTDIR)$(PREFIX)/share/miga/extension \
		$(DESTDIR)$(PREFIX)/share/bash-completion/completions \
		$(DESTDIR)$(PREFIX)/share/zsh/site-functions \
		$(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d
	install -m 0755 -s .build/release/miga $(DESTDIR)$(PREFIX)/bin/miga
	install -m 0644 $(MANUAL) $(DESTDIR)$(PREFIX)/share/man/man1/miga.1
	.build/release/miga --generate-completion-script bash > $(DESTDIR)$(PREFIX)/share/bash-completion/completions/miga
	.build/release/miga --generate-completion-script zsh > $(DESTDIR)$(PREFIX)/share/zsh/site-functions/_miga
	.build/release/miga --generate-completion-script fish > $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/miga.fish
	rm -rf $(DESTDIR)$(PREFIX)/share/miga/extension/chromium $(DESTDIR)$(PREFIX)/share/miga/extension/firefox
	cp -R .build/extension/chromium .build/extension/firefox $(DESTDIR)$(PREFIX)/share/miga/extension/
	install -m 0644 .build/extension/miga-firefox.xpi $(DESTDIR)$(PREFIX)/share/miga/extension/miga-firefox.xpi
	@if [ -n "$(INSTALL_CHECK)" ]; then scripts/check-install $(DESTDIR)$(PREFIX); fi
	@# Installed for this user (not into a package's DESTDIR, nor a check's prefix): the
	@# refresh that covers application entries as they appear, run by systemd.
	@if [ -z "$(DESTDIR)" ] && [ -z "$(INSTALL_CHECK)" ]; then $(PREFIX)/bin/miga refresh --units; fi
	@echo "Installed $(DESTDIR)$(PREFIX)/bin/miga, its manual, completions and browser extension (miga browser setup equips the browsers)."
	@# miga by name when this PATH finds it there, else by its path: a new
	@# shell whose PATH lacks the folder would say "command not found".
	@# (`make run` goes on to setup, which offers the line itself.)
	@if [ -n "$(HOOK_HINT)" ]; then \
	case ":$$PATH:" in *":$(PREFIX)/bin:"*) miga=miga ;; *) miga="$(PREFIX)/bin/miga" ;; esac; \
	echo "Add this line to your shell's start-up file (zsh: ~/.zshrc, init zsh; fish: $$miga init fish | source):"; \
	echo "  eval \"\$$($$miga init bash)\""; fi

# The binary, manual, completions and systemd user units (the refresh on
# changes of the application folders, and a timer for miga sync), checked by
# scripts/make-deb.
deb: release extension
	@scripts/ensure-packages $(BUILD_PACKAGES) lintian
	scripts/make-deb .build/release/miga $(MANUAL) .build/deb .build/extension $(STATIC_LIBRARIES)/libstdc++.a

# The browser extension (Extension/), unpacked for each browser and packed:
# one source, the manifest chosen per browser. Plain files, nothing to compile.
EXTENSION_FILES = background.js rules.js quotes.js host.js workers.js claims.js local-pause.js pause.html pause.js pause.css focus.html status.html status.js

extension:
	@scripts/ensure-packages zip
	@for browser in chromium firefox; do \
	rm -rf .build/extension/$$browser && install -d .build/extension/$$browser && \
	(cd Extension && cp $(EXTENSION_FILES) ../.build/extension/$$browser/) && \
	cp Extension/manifests/$$browser.json .build/extension/$$browser/manifest.json || exit 1; done
	rm -f .build/extension/miga-chromium.zip .build/extension/miga-firefox.xpi
	cd .build/extension/chromium && zip -q -X -r ../miga-chromium.zip .
	cd .build/extension/firefox && zip -q -X -r ../miga-firefox.xpi .
	@echo "Built .build/extension/{chromium,firefox}/, miga-chromium.zip and miga-firefox.xpi."

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/miga $(DESTDIR)$(PREFIX)/share/man/man1/miga.1 \
		$(DESTDIR)$(PREFIX)/share/bash-completion/completions/miga \
		$(DESTDIR)$(PREFIX)/share/zsh/site-functions/_miga \
		$(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/miga.fish
	rm -rf $(DESTDIR)$(PREFIX)/share/miga/extension/chromium $(DESTDIR)$(PREFIX)/share/miga/extension/firefox
	rm -f $(DESTDIR)$(PREFIX)/share/miga/extension/miga-firefox.xpi
	-rmdir $(DESTDIR)$(PREFIX)/share/miga/extension $(DESTDIR)$(PREFIX)/share/miga 2>/dev/null

clean:
	rm -rf .build
