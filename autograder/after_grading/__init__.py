"""After grading: each student's feedback, grades for the LMS, copied work, and what the class
got wrong. Every module here reads a gradebook (and the rubric); none runs student code."""
