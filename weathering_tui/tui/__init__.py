"""The Textual app: screens, widgets and the French and English words."""

from . import typography  # noqa: F401 - a French colon never starts a line
