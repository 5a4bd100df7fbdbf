import os

# NO_COLOR changes every Textual snapshot; the tests must not depend on the caller's shell.
os.environ.pop("NO_COLOR", None)
