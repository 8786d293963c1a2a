"""The one exception the package lets out, so callers can show it beside the field it names."""


class InvalidRequest(ValueError):
    """A request the rules cannot judge. The message starts with the field's name: "rank: ..."."""

    def __init__(self, field: str, reason: str):
        super().__init__(f"{field}: {reason}")
        self.field = field
        self.reason = reason
