"""Every assignment of this repository's course passes the course checks that every course's
assignments pass (autograder/authoring/course_tests.py): release, validate, the sample class
against its expected.toml, the Gradescope zip, the nbgrader round trip, `check`."""

from autograder.authoring.course_tests import (
    course_assignment,
    released_copy,
    test_check_in_the_released_folder,
    test_check_names_what_grade_names,
    test_sample_learns_no_secret,
    test_sample_scores_what_expected_toml_says,
    test_the_gradescope_zip_grades_as_the_kit_does,
    test_the_independent_corpus_is_large_enough_and_sourced,
    test_the_notebook_round_trip_agrees_with_the_kit,
    test_the_release_is_current,
    test_the_sample_class_is_all_graded,
    test_validate_passes,
)

__all__ = [
    "course_assignment",
    "released_copy",
    "test_check_in_the_released_folder",
    "test_check_names_what_grade_names",
    "test_sample_learns_no_secret",
    "test_sample_scores_what_expected_toml_says",
    "test_the_gradescope_zip_grades_as_the_kit_does",
    "test_the_independent_corpus_is_large_enough_and_sourced",
    "test_the_notebook_round_trip_agrees_with_the_kit",
    "test_the_release_is_current",
    "test_the_sample_class_is_all_graded",
    "test_validate_passes",
]
