# The compiler warnings of a build log that are ours (in Sources/ or Tests/; dependencies'
# warnings do not count); source it from the repository root.

# Writes the warnings of build log $1 in our code to $2, one per line, and fails when there
# is any (printing them).
our_warnings() {
    grep -E '^[^ ]+:[0-9]+:[0-9]+: warning:' "$1" \
        | awk -v root="$PWD/" 'index($0, root "Sources/") == 1 || index($0, root "Tests/") == 1' \
        | sort -u >"$2" || true
    if [ -s "$2" ]; then
        echo "== $(wc -l <"$2") compiler warning(s) in Sources/ or Tests/:"
        cat "$2"
        return 1
    fi
}
