"""Report sections of the toy game (registered through CARDLAB_REPORTS in conftest)."""

from analysis.sections import Section


def sections(run):
    cards = run.table("cards")
    return [Section("Card values", tables=[("Card counts", cards)])]
