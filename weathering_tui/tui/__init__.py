"""The Textual app: screens, widgets and the French and English words."""
