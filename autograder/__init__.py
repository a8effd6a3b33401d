"""An autograded exercise kit for the maths of transformers."""

__version__ = "0.1.0"
