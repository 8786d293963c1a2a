"""What every handler of the page shares: no exception reaches the page as a traceback, and a
problem is said beside its field when the page has one, else under the main button."""

from __future__ import annotations

import functools
import inspect
import traceback

from pyscript import web, window
from skillcheck import InvalidRequest

from . import page

SOMETHING_WRONG = "Something went wrong. Please try again; the details are in the console."


def guarded(handler):
    """Run an event handler so that no exception escapes to the page (async ones too)."""
    if inspect.iscoroutinefunction(handler):
        @functools.wraps(handler)
        async def run_async(event):
            try:
                await handler(event)
            except Exception:
                failed()
        return run_async

    @functools.wraps(handler)
    def run(event):
        try:
            handler(event)
        except Exception:  # the page shows a sentence; the console keeps the traceback
            failed()
    return run


def failed() -> None:
    window.console.error(traceback.format_exc())
    trouble(SOMETHING_WRONG)


def trouble(message: str) -> None:
    web.page["form-error"].textContent = message


def explain_invalid(form, error: InvalidRequest) -> str:
    """Show `error` beside its field; returns the message in the field's own words."""
    if page.show_error(form, error.field, error.reason):
        return f"{page.label_of(form, error.field)}: {error.reason}"
    return str(error)
