"""The page's Python script (<script type="py" src="py/main.py">): PyScript fetches it as source
and compiles it at every start, so it holds one import. The glue it starts, app/main.py, comes
from py/sources.zip with its bytecode."""

import app.main  # noqa: F401
