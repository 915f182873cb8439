"""Every hand-written Swift file fits in a head: at most 400 lines (split a type by concern,
`Type+Concern.swift`, before it grows past that). Generated files, which say so in their
first line and are checked against their generators elsewhere, are exempt."""
import support

REPO = support.REPO
LIMIT = 400


def test_no_hand_written_swift_file_is_over_400_lines():
    checked, over = 0, []
    for folder in ("Sources", "Tests", "Fuzz", "Examples"):
        for path in sorted((REPO / folder).rglob("*.swift")):
            if any(part.startswith(".build") for part in path.parts):
                continue
            lines = path.read_text().splitlines()
            if lines and "generated" in lines[0].lower():
                continue
            checked += 1
            if len(lines) > LIMIT:
                over.append(f"{path.relative_to(REPO)}: {len(lines)} lines")
    assert checked > 300, f"only {checked} Swift files found"
    assert not over, "hand-written Swift files over 400 lines:\n" + "\n".join(over)
