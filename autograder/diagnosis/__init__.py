"""Judgement the kit derives from the reference itself: its first-order mutants, what each
changes said in words, and the honesty rule every cause obeys (no pytest here: the grader, the
student's own check and `validate` ask the same plain functions)."""
