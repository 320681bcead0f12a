"""Config machinery: coercion, bounds, bots, TOML files, hashing."""

import pytest

from sim.kit.config import ConfigError, Param, RunConfig, parse_overrides, read_toml


def test_param_coercion_and_bounds():
    p = Param("n", 3, "int", "assumed", "X-1", lo=0, hi=9)
    assert p.coerce("4") == 4
    for bad in ("-1", "10", "2.5", "x", True):
        with pytest.raises(ConfigError, match="'n'"):
            p.coerce(bad)
    b = Param("flag", False, "bool", "seed", "X-2")
    assert b.coerce("true") is True and b.coerce("0") is False
    with pytest.raises(ConfigError):
        b.coerce("maybe")
    c = Param("mode", "a", "choice", "seed", "X-3", choices=("a", "b"))
    assert c.coerce("b") == "b"
    with pytest.raises(ConfigError, match="a \\| b"):
        c.coerce("z")
    s = Param("cards", (1, 2), "set", "seed", "X-4", choices=(1, 2, 3))
    assert s.coerce("3,1") == (1, 3)
    with pytest.raises(ConfigError, match="bad item '7'"):
        s.coerce("1,7")


def test_make_config_layers(toy):
    cfg = toy.make_config(players=3, bots=["lucky"], seed=5, overrides={"lucky_bonus": "2", "bot.lucky.nerve": "0.9"},
                          file={"params": {"mode": "fancy"}})
    assert cfg.bots == ("lucky", "lucky", "lucky")
    assert cfg.params == {"lucky_bonus": 2, "mode": "fancy"}
    assert cfg.bot_params == {"lucky": {"nerve": 0.9}}
    assert RunConfig.from_dict(cfg.to_dict()) == cfg
    assert cfg.digest() == RunConfig.from_dict(cfg.to_dict()).digest()
    assert cfg.digest() != toy.make_config(players=3, bots=["lucky"], seed=6).digest()


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"players": 1}, "2 to 5 players"),
        ({"players": 6}, "2 to 5 players"),
        ({"bots": ["nobody"]}, "unknown bot 'nobody'"),
        ({"players": 3, "bots": ["plain", "lucky"]}, "lists 2 bots for 3 players"),
        ({"overrides": {"no_such": "1"}}, "unknown parameter 'no_such'"),
        ({"overrides": {"lucky_bonus": "-1"}}, "bad value '-1'"),
        ({"overrides": {"bot.lucky.guts": "1"}}, "unknown parameter 'guts'"),
        ({"overrides": {"bot.lucky.nerve": "x"}}, "expected a number"),
        ({"seed": -4}, "seed must be"),
        ({"file": {"colour": "red"}}, "unknown config section"),
    ],
)
def test_bad_config_is_one_line_error(toy, kwargs, message):
    with pytest.raises(ConfigError, match=message) as e:
        toy.make_config(**kwargs)
    assert "\n" not in str(e.value)


def test_toml_errors(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text("players = = 3\n")
    with pytest.raises(ConfigError, match="cannot read config file"):
        read_toml(bad)
    with pytest.raises(ConfigError, match="not found"):
        read_toml(tmp_path / "missing.toml")
    good = tmp_path / "good.toml"
    good.write_text('players = 4\nbots = ["plain"]\n[params]\nlucky_bonus = 1\n')
    assert read_toml(good)["params"] == {"lucky_bonus": 1}


def test_parse_overrides():
    assert parse_overrides(["a=1", " b = x "]) == {"a": "1", "b": "x"}
    with pytest.raises(ConfigError):
        parse_overrides(["novalue"])
