"""The README and docs/ point at things that exist: every relative link reaches a file (and
its heading, for a #anchor), and every repository path that docs/ARCHITECTURE.md names in
code spans is still there, so a newcomer's path does not rot when code moves."""
import re

import support

REPO = support.REPO
DOCUMENTS = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md")),
             REPO / "deploy" / "README.md", REPO / "Examples" / "SignUp" / "README.md"]


def prose(text: str) -> str:
    """The text without fenced code blocks, where links and headings are not Markdown."""
    return re.sub(r"^```.*?^```", "", text, flags=re.S | re.M)


def slug(heading: str) -> str:
    """A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading.strip().lower())
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(path) -> set:
    found, seen = set(), {}
    for heading in re.findall(r"^#{1,6} (.+)$", prose(path.read_text()), re.M):
        name = slug(heading)
        count = seen.get(name, 0)
        seen[name] = count + 1
        found.add(name if count == 0 else f"{name}-{count}")
    return found


def relative_links(path):
    text = re.sub(r"`[^`\n]*`", "", prose(path.read_text()))
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        if not re.match(r"[a-z][a-z0-9+.-]*:", target):
            yield target


def test_every_relative_link_of_the_readme_and_docs_resolves():
    broken, checked = [], 0
    for document in DOCUMENTS:
        for target in relative_links(document):
            checked += 1
            name, _, anchor = target.partition("#")
            destination = (document.parent / name).resolve() if name else document
            if not destination.exists():
                broken.append(f"{document.relative_to(REPO)}: {target} (no such file)")
            elif anchor and destination.suffix == ".md" and anchor not in anchors(destination):
                broken.append(f"{document.relative_to(REPO)}: {target} (no such heading)")
    assert checked > 40, f"only {checked} links found: the link pattern no longer matches"
    assert not broken, "broken links:\n" + "\n".join(broken)


def test_every_path_the_architecture_names_exists():
    text = (REPO / "docs" / "ARCHITECTURE.md").read_text()
    paths = {path for path in re.findall(r"`((?:Sources|Tests|Public|scripts|deploy)/[^`\s<>*]+)`", text)}
    assert len(paths) > 20, f"only {len(paths)} paths found: the pattern no longer matches"
    missing = sorted(path for path in paths if not (REPO / path).exists())
    assert not missing, "docs/ARCHITECTURE.md names paths that do not exist:\n" + "\n".join(missing)


def test_the_readme_configuration_table_sits_between_its_markers():
    # The settings generator replaces exactly what lies between these two lines.
    lines = (REPO / "README.md").read_text().splitlines()
    begin = lines.index("<!-- settings-table:begin -->")
    end = lines.index("<!-- settings-table:end -->")
    table = lines[begin + 1:end]
    assert len(table) > 2 and all(line.startswith("| ") for line in table), "only the table between the markers"


def test_the_benchmarks_state_the_present():
    # Today's figures and how to make them; how they got there lives in the commit messages.
    text = (REPO / "docs" / "BENCHMARKS.md").read_text()
    assert len(text.splitlines()) <= 250, "docs/BENCHMARKS.md is over 250 lines"
    rounds = re.findall(r"\b[Rr]ounds?\b(?! trips)", text)
    assert not rounds, "docs/BENCHMARKS.md speaks of rounds: history belongs in git"
    hashes = [word for word in re.findall(r"\b[0-9a-f]{7,40}\b", text)
              if re.search(r"[a-f]", word) and re.search(r"[0-9]", word)]
    assert not hashes, f"docs/BENCHMARKS.md names builds by commit: {hashes}"


def test_every_script_has_its_line_in_scripts_readme():
    listed = set(re.findall(r"^\| `([^`]+)` \|", (REPO / "scripts" / "README.md").read_text(), re.M))
    present = {str(path.relative_to(REPO / "scripts")) for path in (REPO / "scripts").rglob("*")
               if path.is_file() and path.name != "README.md" and "__pycache__" not in path.parts}
    assert not present - listed, f"scripts/README.md lacks: {sorted(present - listed)}"
    assert not listed - present, f"scripts/README.md lists what is not there: {sorted(listed - present)}"


# Inlinable operators whose measure has gone and that are still to go back to the private form.
OPERATORS_AWAITING_THE_PRIVATE_FORM = {"Do.swift"}


def test_every_inlinable_operator_names_the_measure_that_keeps_it():
    # docs/ARCHITECTURE.md's rule: an operator in the inlinable form names, at the top of its
    # producer, the rx-bench row or callgrind-sessions measure that shows the form matters.
    rows = set(re.findall(r'Workload\(name: "([^"]+)"', (REPO / "Sources/rx-bench/main.swift").read_text()))
    measures = {"message", "session", "login", "signed-in", "anonymous-store"}
    assert len(rows) > 10, "rx-bench's rows were not found"
    unnamed, unknown = [], []
    for path in sorted((REPO / "Sources/RxSwift/Observables").glob("*.swift")):
        text = path.read_text()
        if not re.search(r"@usableFromInline\s+final class \w+<[^>]*>: Producer<", text):
            continue
        claims = re.findall(r'^// Inlinable, not RxSwift\'s private form, for the (rx-bench rows?|callgrind-sessions measure) ((?:"[^"]+"(?:,? and |, |\s*\n//\s*)?)+)',
                            text, re.M)
        if not claims:
            if path.name not in OPERATORS_AWAITING_THE_PRIVATE_FORM:
                unnamed.append(path.name)
            continue
        for kind, names in claims:
            for name in re.findall(r'"([^"]+)"', names):
                if name not in (measures if kind.startswith("callgrind") else rows):
                    unknown.append(f"{path.name}: {name}")
    assert not unnamed, f"inlinable operators that name no measure: {unnamed}"
    assert not unknown, f"operators name measures that do not exist: {unknown}"
