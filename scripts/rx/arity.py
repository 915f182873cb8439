"""What the generators of the fixed-arity operators (zip, combineLatest) share: the arities,
the Swift names of one arity's sources and elements, and writing the generated file.
"""
import pathlib
from typing import Callable, Dict, NamedTuple, Optional

MAX_ARITY = 8
OBSERVABLES = pathlib.Path(__file__).resolve().parents[2] / "Sources/RxSwift/Observables"
TRAITS = pathlib.Path(__file__).resolve().parents[2] / "Sources/RxSwift/Traits"


class Names(NamedTuple):
    """Swift spellings for the sources 1...n of one arity."""

    r: range
    o_params: str  # O1: ObservableType, O2: ObservableType
    args: str  # _ source1: O1, _ source2: O2
    o_elements: str  # O1.Element, O2.Element
    e_params: str  # E1, E2
    as_obs: str  # source1: source1.asObservable(), ...
    dollar: str  # $0, $1
    doc_sources: str  # one "- parameter sourceN" doc line per source


def names(n: int) -> Names:
    r = range(1, n + 1)
    return Names(
        r=r,
        o_params=", ".join(f"O{i}: ObservableType" for i in r),
        args=", ".join(f"_ source{i}: O{i}" for i in r),
        o_elements=", ".join(f"O{i}.Element" for i in r),
        e_params=", ".join(f"E{i}" for i in r),
        as_obs=", ".join(f"source{i}: source{i}.asObservable()" for i in r),
        dollar=", ".join(f"${i - 1}" for i in r),
        doc_sources="\n".join(f"    /// - parameter source{i}: Source {i}." for i in r),
    )


# Set by scripts/rx/check_generated.py: `output` then writes nothing and maps each file it
# would write to whether the file already holds that text.
checked: Optional[Dict[pathlib.Path, bool]] = None


def output(path: pathlib.Path, text: str) -> None:
    """Writes `text` to `path`, or only compares them when `checked` is set."""
    if checked is None:
        path.write_text(text)
    else:
        checked[path.resolve()] = path.exists() and path.read_text() == text


def write(file_name: str, header: str, generate: Callable[[int], str], directory: pathlib.Path = OBSERVABLES) -> None:
    """Writes `header` and the code of the arities 2 to MAX_ARITY to `directory`/`file_name`
    (Sources/RxSwift/Observables unless told otherwise)."""
    body = "\n".join(generate(n) for n in range(2, MAX_ARITY + 1))
    output(directory / file_name, header + body)
