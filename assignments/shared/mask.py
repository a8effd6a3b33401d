"""The causal mask, at course level: its known mistakes, for every assignment that masks.

A causal mask is a (T, T) boolean matrix, True where query t may attend to key s (s ≤ t). Its
mistakes are the convention's orientation, its diagonal, an offset, and where and how it is
applied to scores. An assignment maps them to its own functions in its misconceptions.py:

    CATALOGUE = (*mask_mistakes("my_mask", "mask", also_affects=(...)),
                 *masked_softmax_mistakes("my_masked_softmax", "masked"), ...)

Each variant is written for the signature the lessons use, mask(T) and masked_softmax(S, mask,
axis=-1), with True meaning allowed, and uses no name but np (the grader replays it in the
reference's namespace); they run in the grader only, on the student's inputs.
"""

from __future__ import annotations

import numpy as np

from autograder.authoring import Misconception


# PyTorch code builds the *blocked* keys with torch.triu(…, diagonal=1) and masked_fill (e.g.
# makeesyai/makeesy-deep-learning, self_attention/create_atten_mask_decoder.py); ported to a
# "True = allowed" mask, the same triu lets every token attend to the future.
def mask_upper(T):
    if isinstance(T, bool) or not isinstance(T, (int, np.integer)) or T < 0:
        raise ValueError(f"T must be an integer >= 0, got {T!r}")
    return np.triu(np.ones((T, T), dtype=bool))  # attends to the future


def mask_without_diagonal(T):
    if isinstance(T, bool) or not isinstance(T, (int, np.integer)) or T < 0:
        raise ValueError(f"T must be an integer >= 0, got {T!r}")
    return np.tril(np.ones((T, T), dtype=bool), k=-1)  # s < t: no token sees itself


def mask_one_ahead(T):
    if isinstance(T, bool) or not isinstance(T, (int, np.integer)) or T < 0:
        raise ValueError(f"T must be an integer >= 0, got {T!r}")
    return np.tril(np.ones((T, T), dtype=bool), k=1)  # s <= t + 1: one peek ahead


def renormalise_forgotten(S, mask, axis=-1):
    scores = np.asarray(S, dtype=np.float64)
    e = np.exp(scores - np.max(scores, axis=axis, keepdims=True))
    return e / np.sum(e, axis=axis, keepdims=True) * mask  # masked after the softmax


def mask_by_multiplying(S, mask, axis=-1):
    scores = np.asarray(S, dtype=np.float64) * mask  # a masked score of 0 still has exp(0) = 1
    e = np.exp(scores - np.max(scores, axis=axis, keepdims=True))
    return e / np.sum(e, axis=axis, keepdims=True)


def fill_too_small(S, mask, axis=-1):
    # a finite fill, as in BERT-style additive masks ((1 - mask) * -10000.0) or
    # masked_fill(mask == 0, -1e9) (e.g. NHMDenmark/HTROCR, htr_tests/test.py): finite fills lose
    # to scores further below them
    scores = np.where(mask, np.asarray(S, dtype=np.float64), -1e4)
    e = np.exp(scores - np.max(scores, axis=axis, keepdims=True))
    return e / np.sum(e, axis=axis, keepdims=True)


def mask_mistakes(
    target: str, part: str, also_affects: tuple[str, ...] = ()
) -> tuple[Misconception, ...]:
    """The mask's own mistakes, for the function `target`(T) of rubric part `part`."""
    return (
        Misconception("mask_upper", target, part,
                      "the mask's triangle points the wrong way: each token attends to the future",
                      "query t may attend to keys s ≤ t: the lower triangle, np.tril",
                      mask_upper, also_affects=also_affects),
        Misconception("mask_without_diagonal", target, part,
                      "the diagonal is masked: no token may attend to itself",
                      "s ≤ t includes s = t; without it row 0 allows nothing at all",
                      mask_without_diagonal, also_affects=also_affects),
        Misconception("mask_one_ahead", target, part,
                      "the mask lets each token see one token ahead (s ≤ t + 1)",
                      "np.tril(…, k=0): the offset k=1 admits the next token",
                      mask_one_ahead, also_affects=also_affects),
    )  # fmt: skip


def masked_softmax_mistakes(
    target: str, part: str, also_affects: tuple[str, ...] = ()
) -> tuple[Misconception, ...]:
    """Where and how a mask meets the scores, for `target`(S, mask, axis=-1) of part `part`;
    the finite fill shows on large scores only, so it costs `part` alone."""
    return (
        Misconception("renormalise_forgotten", target, part,
                      "the mask is applied after the softmax, without renormalising",
                      "zeroing weights after the softmax leaves rows that sum to less than 1: "
                      "mask the scores (−inf) before it",
                      renormalise_forgotten, also_affects=also_affects),
        Misconception("mask_by_multiplying", target, part,
                      "the scores are masked by multiplying them by 0",
                      "a masked score of 0 still gets exp(0) = 1, but a masked entry must get "
                      "weight exactly 0: set masked scores to −inf (or drop them) before exp",
                      mask_by_multiplying, also_affects=also_affects),
        Misconception("fill_too_small", target, part,
                      "masked scores are filled with −1e4, which large scores overwhelm",
                      "fill with −inf (np.where(mask, S, -np.inf)) and subtract the allowed "
                      "maximum",
                      fill_too_small),
    )  # fmt: skip
