"""Copied work: every pair of an assignment's submissions compared by winnowing (MOSS's
algorithm: fingerprints of k-grams of normalised tokens, one per window), with `copydetect`.

Tokens are normalised before fingerprinting (every variable, function and class name and every
string becomes one letter; comments and layout go), so renaming variables or reordering
functions changes nothing. Two kinds of text are not evidence and are ignored: the released
stub's (signatures and docstrings every student starts from), and passages that a large share
of the class has in common (as MOSS's `-m`: the shape a proof or an argument check must take
is shared by everyone who got it right). A pair is listed when either side has at least
`threshold` of its fingerprinted text in common with the other, and that is at least
MIN_SHARED normalised characters.
"""

from __future__ import annotations

import hashlib
import io
import itertools
import math
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from autograder.errors import AutograderError

if TYPE_CHECKING:
    from autograder.course.assignment import Assignment

NOISE = 25
"""k: matches shorter than this many normalised characters are never found (noise)."""
GUARANTEE = 30
"""Matches at least this long are always found (the window is GUARANTEE − NOISE + 1)."""
THRESHOLD = 0.6
MIN_SHARED = 200
"""Normalised characters a pair must share (about five lines of code): a few matching lines
between a short file and a long one are a high share of the short one, and no evidence."""
COMMON_SHARE = 0.5
COMMON_AT_LEAST = 10
"""A passage in at least COMMON_SHARE of the class's submissions, and in at least this many
(MOSS's default for `-m`), is ignored: a few students sharing code is what is looked for."""
MAX_SOURCE_CHARS = 64 * 1024
"""Characters of each source compared: a student's module is a few KiB, and tokenising costs
about 15 µs a character, so a padded file costs at most about a second."""


@dataclass(frozen=True)
class Region:
    """Characters [start, end) of a source that match the other side of a pair."""

    start: int
    end: int


@dataclass(frozen=True)
class Pair:
    first: str
    second: str
    similarity: tuple[float, float]
    """The share of each side's fingerprinted text found in the other."""
    shared: int
    """Normalised characters of the first side found in the second."""
    regions: tuple[tuple[Region, ...], tuple[Region, ...]]

    @property
    def score(self) -> float:
        return max(self.similarity)


@dataclass(frozen=True)
class Comparison:
    pairs: tuple[Pair, ...]
    """Pairs at or above the threshold, most similar first."""
    compared: int
    """Submissions compared (those with a source to read)."""
    common_passages: int
    """Fingerprints ignored as shared by much of the class."""
    threshold: float
    nearest: tuple[Pair, ...] = ()
    """The NEAREST most similar pairs not listed (under the threshold, or sharing too little),
    each sharing something: how close the class came when no pair, or few, reach it."""


NEAREST = 5
"""Pairs under the threshold a comparison keeps, most similar first."""


def released_stub(assignment: Assignment) -> str:
    """The module students were given (empty when not released): what no pair shares by copying."""
    stub_file = assignment.release_dir / assignment.spec.module
    return stub_file.read_text(encoding="utf-8") if stub_file.is_file() else ""


def compare(
    sources: Mapping[str, str],
    *,
    stub: str = "",
    threshold: float = THRESHOLD,
    common_share: float = COMMON_SHARE,
) -> Comparison:
    """Compare every pair of `sources` (student → module source)."""
    import numpy as np  # here, not above: the `autograder` command starts without NumPy

    try:
        from copydetect import CodeFingerprint, compare_files
    except ImportError:
        raise AutograderError(
            "similarity needs copydetect: pip install 'transformer-maths-autograder[report]'"
        ) from None

    texts = {name: text[:MAX_SOURCE_CHARS] for name, text in sources.items() if text.strip()}
    tokens = {name: _normalised(text) for name, text in texts.items()}
    stub_hashes = _kgram_hashes(_normalised(stub[:MAX_SOURCE_CHARS])[0]) if stub.strip() else set()
    counts: Counter[int] = Counter()
    for filtered, _ in tokens.values():
        counts.update(_kgram_hashes(filtered) - stub_hashes)
    limit = max(COMMON_AT_LEAST, math.ceil(common_share * len(texts)))
    common = {h for h, n in counts.items() if n >= limit}
    ignored = np.array(sorted(stub_hashes | common), dtype=np.int64)
    window = GUARANTEE - NOISE + 1
    prints = {}
    for name, (filtered, offsets) in tokens.items():
        # fingerprinted from the tokens already normalised (each text is tokenised once); the
        # offsets map matches back to the student's own text
        fingerprint = CodeFingerprint(
            f"{name}.py", NOISE, window, ignored, filter=False, fp=io.StringIO(filtered)
        )
        fingerprint.raw_code, fingerprint.offsets = texts[name], offsets
        _fingerprint_stably(fingerprint, filtered, window, ignored)
        prints[name] = fingerprint
    pairs, others = [], []
    for first, second in itertools.combinations(sorted(prints), 2):
        shared, similarity, slices = compare_files(prints[first], prints[second])
        pair = Pair(
            first,
            second,
            (float(similarity[0]), float(similarity[1])),
            int(shared),
            (_regions(slices[0]), _regions(slices[1])),
        )
        if pair.score >= threshold and pair.shared >= MIN_SHARED:
            pairs.append(pair)
        elif pair.score > 0:  # a pair sharing nothing says nothing of how close the class came
            others.append(pair)
            if len(others) > 4 * NEAREST:  # a large class has many pairs: keep the nearest
                others.sort(key=lambda p: (-p.score, p.first, p.second))
                del others[NEAREST:]
    pairs.sort(key=lambda p: (-p.score, p.first, p.second))
    others.sort(key=lambda p: (-p.score, p.first, p.second))
    nearest = tuple(others[:NEAREST])
    return Comparison(tuple(pairs), len(texts), len(common), threshold, nearest)


def _normalised(text: str) -> tuple[str, Any]:
    """`text`'s tokens normalised (names and strings one letter each, no comments or layout),
    and the offsets that map them back to `text`."""
    from copydetect.utils import filter_code

    return filter_code(text, "text.py", "python")  # type: ignore[no-any-return]


def _stable_kgrams(filtered: str) -> Any:
    """The hash of every k-gram of normalised tokens, the same in every process: copydetect
    hashes with Python's `hash`, which each process seeds anew, so its winnowing (which keeps
    the smallest hash of each window) picked other fingerprints, and a pair's similarity moved
    by a few points, from one run to the next."""
    import numpy as np

    grams = (filtered[i : i + NOISE] for i in range(len(filtered) - NOISE + 1))
    digests = [
        hashlib.blake2b(gram.encode("utf-8", "surrogatepass"), digest_size=8).digest()
        for gram in grams
    ]
    return np.array([int.from_bytes(d, "little", signed=True) for d in digests], dtype=np.int64)


def _fingerprint_stably(fingerprint: Any, filtered: str, window: int, ignored: Any) -> None:
    """Give `fingerprint` the winnowed k-grams of `filtered` hashed by _stable_kgrams, less
    `ignored` (what copydetect's own get_document_fingerprints does, with its hash)."""
    import numpy as np
    from copydetect.utils import get_token_coverage, winnow

    hashes, idx = np.array([], dtype=np.int64), np.array([], dtype=np.int64)
    if len(filtered) >= NOISE:
        hashes, idx = winnow(_stable_kgrams(filtered), window, remove_duplicates=False)
    keep = ~np.isin(hashes, ignored)
    by_hash: dict[int, list[int]] = {}
    for value, index in zip(hashes[keep].tolist(), idx[keep].tolist(), strict=True):
        by_hash.setdefault(value, []).append(index)
    fingerprint.hashes = set(by_hash)
    fingerprint.hash_idx = by_hash
    fingerprint.token_coverage = get_token_coverage(by_hash, NOISE, len(filtered))


def _kgram_hashes(filtered: str) -> set[int]:
    """Every k-gram fingerprint of normalised tokens (no winnowing)."""
    return set(_stable_kgrams(filtered).tolist()) if len(filtered) >= NOISE else set()


def _regions(slices: Any) -> tuple[Region, ...]:
    import numpy as np

    array = np.asarray(slices)
    if array.ndim != 2 or array.shape[1] == 0:
        return ()
    starts, ends = array
    return tuple(Region(int(a), int(b)) for a, b in zip(starts, ends, strict=True))


def clusters(pairs: tuple[Pair, ...]) -> list[list[str]]:
    """Groups of submissions joined by listed pairs (a shared source copied by several)."""
    parent: dict[str, str] = {}

    def root(name: str) -> str:
        parent.setdefault(name, name)
        while parent[name] != name:
            parent[name] = parent[parent[name]]
            name = parent[name]
        return name

    for pair in pairs:
        parent[root(pair.first)] = root(pair.second)
    groups: dict[str, list[str]] = {}
    for name in parent:
        groups.setdefault(root(name), []).append(name)
    return sorted((sorted(g) for g in groups.values()), key=lambda g: (-len(g), g))
