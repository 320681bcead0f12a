"""Report sections of the toy game (registered through CARDLAB_REPORTS in conftest)."""

from analysis.sections import Section


def sections(run):
    cards = run.sql("SELECT card, count FROM cards ORDER BY card")
    return [Section("Card values", tables=[("Card counts", cards)])]
