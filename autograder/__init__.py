"""An autograded exercise kit for the maths of transformers."""

__version__ = "0.2.0"
