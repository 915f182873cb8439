# The commands of the README: `make run`, `make check` and `make test`.
# Each installs whatever is missing first (scripts/setup).

.PHONY: run check test tools setup bench docs fuzz sanitize

# Build rxlive for release and serve http://127.0.0.1:8080 (Ctrl-C stops it).
# The flags are scripts/stage's, so this binary is the container's and the
# container test's build is reused. It runs from the repository root, where
# it finds Public/.
run:
	scripts/setup runtime
	swift build -c release --static-swift-stdlib --product rxlive -Xswiftc -use-ld=lld
	.build/release/rxlive

# The fast tier, before each commit: a warning-free build, swift test and the end-to-end
# tests not marked slow (minutes on a built tree).
check:
	scripts/setup test
	scripts/check

# Every test: hadolint, a warning-free build, swift test, 30 s of each fuzz target, the
# concurrency tests under ThreadSanitizer, then pytest.
test:
	scripts/setup test
	scripts/test

# Only the README's terminal tools: websocat in .venv/bin (no test packages).
tools:
	scripts/setup tools

setup:
	scripts/setup test

# Benchmarks (release builds); each prints its figures.
bench:
	scripts/setup test
	swift run -c release rx-bench
	scripts/bench-server.sh
	scripts/bench-sessions.sh
	scripts/bench-tls.sh
	scripts/bench-logins.sh
	scripts/bench-deflate.sh
	scripts/bench-loops.sh
	scripts/bench-peers.sh

# The DocC documentation of the library's public API (RxLive and Sessions), as static HTML in docs-html/.
docs:
	scripts/setup runtime
	swift package --disable-sandbox generate-documentation --target RxLive --target Sessions \
		--warnings-as-errors --output-path docs-html

# Every libFuzzer target (Fuzz/) for FUZZ_SECONDS each (default 60), one after the other:
# executions, coverage and findings per target. docs/FUZZING.md has the longer campaign.
fuzz:
	scripts/setup test
	scripts/fuzz

# swift test under AddressSanitizer, the concurrency tests and a two-loop load under
# ThreadSanitizer (.build-asan/, .build-tsan/).
sanitize:
	scripts/setup test
	scripts/sanitize
