"""Report sections of the toy game (the toy plug-in names this module: ``report_module``)."""

from analysis.sections import Section


def sections(run):
    cards = run.sql("SELECT card, count FROM cards ORDER BY card")
    return [Section("Card values", tables=[("Card counts", cards)])]
