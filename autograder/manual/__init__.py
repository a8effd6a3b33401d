"""Written answers graded by people, and instructors' overrides of automatic scores.

Stages, one module each: autograder.grading.written_answers reads each manual part's answer from
a submission at grading time (trusted process, the submission reader's bounds); `store` keeps
grades, rubric items and overrides in tables of their own in the gradebook file; `sheet` exports
and imports the grading spreadsheet; `server` is the grading page, `render` its inert answers,
`bounded` the limits it is served within; `totals` computes each student's total, the one
function every output (gradebook CSV, LMS file, feedback, class report) reads.

The grading model (as Gradescope's rubrics): an answer's points are its own adjustment plus the
points of the rubric items applied to it, clamped to [0, max]; an item's points may be negative;
changing an item's points changes every answer it is applied to. An answer with no grade is "not
graded yet", never 0.

Gradescope: the kit's results.json is written at grading time, before anyone has graded the
written answers, so it holds the automatic tests alone; grade written answers there with
Gradescope's own manual questions, or here (`autograder manual serve`) and hand the totals back
through the LMS file.
"""
