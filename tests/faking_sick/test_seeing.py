"""The all-seeing faking-sick search (bots.SEEING, kernel.search.reveal): seeing the banned cards
(FS-11.3) wins more than the honest search. That its worlds are the true game, only the chance still
to come drawn again, and that the driver marks its seat: tests/test_search_contract.py."""

from sim.games.faking_sick import GAME


def test_seeing_the_banned_cards_beats_the_honest_search_at_the_same_budget():
    """80 games of one search seat against three callers, budget 4, the same deals: the seat that
    sees the hidden cards (FS-11.3) wins more, the Newcombe 95% interval of the difference above 0."""
    from sim.run.stats import rate_difference

    wins = {}
    for bot in ("search", "seeing"):
        cfg = GAME.make_config(players=4, bots=[bot, "caller", "caller", "caller"], seed=11,
                               overrides={f"bot.{bot}.budget": 4})
        seats = GAME.run_batch(cfg, 0, 80, "fast")["seats"]
        mine = seats[seats["bot"] == bot]
        wins[bot] = (int(mine["win"].sum()), len(mine))
    d = rate_difference(*wins["seeing"], *wins["search"])
    assert d["lo"] > 0, (wins, d)
