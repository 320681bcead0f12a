"""A prescription of ``cardlab suggest`` in words (``analysis.advice`` holds its fields): what to
set, what it does to its line on fresh games, its side effects, and which players it holds for.
Shared by the CLI and the verdict; names no game."""

from __future__ import annotations

HOLDS = {"all": "holds for every population played", "some": "holds for some populations only",
         "disagree": "the populations disagree: not a recommendation", "none": "helps no population beyond noise"}


RELATIVE = (":plays", ":score_sd")  # law lines measured as a relative change


def unit(line: str) -> str:
    """How a line's values read: ``number`` (a mean), ``%`` (a share of games, or a relative
    change) or ``pp`` (a difference of shares: spreads, edges, a law's effect)."""
    if line.startswith("mean_"):
        return "number"
    return "%" if line.startswith("rate:") or line == "shared_wins" or line.endswith(RELATIVE) else "pp"


def value(line: str, v: float | None) -> str:
    """A line's value in its unit (``unit``)."""
    if v is None or v != v:
        return "n/a"
    u = unit(line)
    if u == "number":
        return f"{v:.3g}"
    digits = 2 if 0 < abs(v) < 0.001 else 1
    return f"{100 * v:.{digits}f}{'%' if u == '%' else ' pp'}"


def with_ci(line: str, e: dict | None) -> str:
    if not e:
        return "n/a"
    return f"{value(line, e['value'])} (95% CI {value(line, e['lo'])} to {value(line, e['hi'])})"


def setting(p: dict) -> str:
    """The change as ``cardlab simulate --set`` takes it."""
    return " ".join(f"--set {k}={_text(v)}" for k, v in p.get("set", {}).items())


def _text(v) -> str:
    if isinstance(v, (list, tuple)):
        return ",".join(map(str, v))
    return str(v).lower() if isinstance(v, bool) else str(v)


def populations(p: dict) -> str:
    """Each population's before -> after, whether it holds for all, and which populations it
    helps but leaves outside the line's band."""
    line, pops = p["line"], p.get("populations", {})
    parts = [f"{name}: {value(line, d['before']['value'])} -> {value(line, d['after']['value'])} (change "
             f"{_signed(line, d['change'])})" for name, d in pops.items()]
    outside = [name for name, d in pops.items() if d.get("better") and not d.get("in_band")]
    still = f"; it stays outside its band for {' and '.join(outside)}" if outside else ""
    return f"{HOLDS[p.get('holds_for', 'none')]}{still} ({'; '.join(parts)})" if parts else ""


def _signed(line: str, d: dict) -> str:
    scale, u = (1, "") if unit(line) == "number" else (100, " pp" if unit(line) == "pp" else "%")
    return f"{scale * d['value']:+.2g}{u}, 95% CI {scale * d['lo']:+.2g} to {scale * d['hi']:+.2g}"


def side_effects(p: dict) -> str:
    """Every other line before -> after, those that leave their band marked."""
    parts = [f"{s['words']} {value(s['line'], s['before']['value'])} -> {value(s['line'], s['after']['value'])}"
             + ("" if s.get("in_band", True) else " (out of its band)") for s in p.get("side_effects", [])]
    return "; ".join(parts)


def sentence(p: dict) -> str:
    """The prescription in a sentence or two."""
    line = p["line"]
    if p["status"] == "none" or not p.get("set"):
        return f"No lever in range moves this line: {p.get('reason', 'no change tried helped beyond noise')}."
    status = "not advised" if p.get("holds_for") == "disagree" else p["status"]  # never a plain recommendation then
    head = {"prescribed": "Prescription", "not advised": f"Not advised ({p.get('reason', 'the populations disagree')})"
            }.get(status, "No lever in range brings it into its band; closest")
    if status == "closest" and p.get("reason"):
        head += f" ({p['reason']})"
    games = f" on {p['games']:,} fresh games" if p.get("games") else ""
    measured = f" (measured {p['measured']})" if p.get("measured") else ""
    text = (f"{head}: {setting(p)} takes it{measured} from {with_ci(line, p['before'])} to {with_ci(line, p['after'])}"
            f"{games} (band: {_band(p)})")
    pops, side = populations(p), side_effects(p)
    return text + (f"; {pops}" if pops else "") + (f". Other lines: {side}." if side else ".")


def _band(p: dict) -> str:
    lo, hi = p.get("band", [None, None])
    line = p["line"]
    if lo is None or lo == float("-inf"):
        return f"at most {value(line, hi)}"
    if hi is None or hi == float("inf"):
        return f"at least {value(line, lo)}"
    return f"{value(line, lo)} to {value(line, hi)}"


def summary(advice: dict) -> list[str]:
    """Lines for the terminal: each rule line out of its band or within noise of it, how many are
    in, then each prescription."""
    lines = advice.get("lines", [])
    out = [f"{s['words']}: {with_ci(s['line'], s)} - {'out of its band' if s['status'] == 'out' else 'within noise of its band'}"
           for s in lines if s["status"] != "in"]
    out.append(f"{sum(s['status'] == 'in' for s in lines)} of {len(lines)} rule lines are in their band.")
    out += [f"{p['words']}: {sentence(p)}" for p in advice.get("prescriptions", [])]
    if not advice.get("prescriptions"):
        out.append("Every rule line is in its band: nothing to prescribe.")
    return out
