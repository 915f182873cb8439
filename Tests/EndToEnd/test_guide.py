"""The guide's Swift snippets are pieces of the example packages that make test builds, so
they cannot rot: each must still be in one of their files, word for word."""
import re

import support

GUIDE = support.REPO / "docs" / "GUIDE.md"
EXAMPLES = support.REPO / "Examples"


def test_every_swift_snippet_of_the_guide_is_compiled_code_of_the_example():
    snippets = re.findall(r"```swift\n(.*?)```", GUIDE.read_text(), re.S)
    assert snippets, "the guide has Swift snippets"
    sources = [path.read_text() for path in EXAMPLES.glob("*/**/*.swift") if ".build" not in path.parts]
    for snippet in snippets:
        assert any(snippet in source for source in sources), f"not in Examples/:\n{snippet}"
