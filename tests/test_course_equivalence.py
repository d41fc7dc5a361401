"""The events of the game's course can replace the settings (design §3.2): each official
rulebook played with one setting turned to its neutral value and the rule form of the design
in its place gives the same games, event for event, as with the setting; only labels (the
`rule` of an event, the `reason` of the end) may differ.

Each case is a copy of an official rulebook: a temporary rules file that extends it and
replaces one rule with its rule form (tests/transcripts.py's labels-only comparison).
"""

from __future__ import annotations

import pytest

import rulelang
from rulelang.runner import make_agents
from transcripts import label_changes

SEEDS = range(8)
TABLES = (("default",) * 4, ("random",) * 4, ("default", "random", "default", "random"))
MAX_TURNS = 600


def _replace(rule: str, cite: tuple[str, str], *lines: str) -> str:
    body = "".join(f"  {line}\n" for line in lines)
    return f'replace rule {rule}:\n  cite "{cite[0]}", "{cite[1]}"\n{body}'


S61 = "004_123fb5734ffa9d0f.txt"
SFR = "000_f0eb6d046e265a62.txt"
SLO = "001_bd79da9b55a59a3a.txt"

# label: (official rulebook, the replaced rule with the setting neutral and the rule form
# [, a line both copies add, so that the games meet the case often: a scarce supply of
# houses, little cash])
CASES = {
    "P1": ("classic_1961.rules", _replace(
        "preliminaries", (S61, "PRÉLIMINAIRES"),
        "set shuffle_decks = no",
        "when the game starts: shuffle the decks")),
    "P2": ("classic_1961.rules", _replace(
        "first_player", (S61, "DÉBUT DE LA PARTIE"),
        "set first_player = first_seat",
        "when the game starts: the player with the highest roll starts")),
    "J1": ("classic_1961.rules", _replace(
        "leaving_jail", (S61, "LA PRISON"),
        "set jail_fine = $50",
        "set jail_turns = 3",
        "set jail_exit_doubles = no",
        "when a player rolls if the player is in jail and the dice show doubles: leave jail")),
    # J1 and J2 in one rule, as the design has them (J1 first: doubles win, no fine); the
    # neutral copy idles J1 only, since J2 replays the engine's own exit after the last turn
    # (test_the_forced_exit_is_the_rule_s below sees J2 do it)
    "J2": ("classic_1961.rules", _replace(
        "leaving_jail", (S61, "LA PRISON"),
        "set jail_fine = $50",
        "set jail_turns = 3",
        "set jail_exit_doubles = no",
        "when a player rolls if the player is in jail and the dice show doubles: leave jail",
        "when a player rolls if the player is in jail and the player has no jail turn left: "
        "pay the fine, leave jail")),
    "K1": ("classic_1961.rules", _replace(
        "building_shortage", (S61, "LA CRISE DU BÂTIMENT!"),
        "set building_shortage_auction = no",
        "when buildings run short: auction the building"), "set houses = 8"),
    "K2": ("french_standard.rules", _replace(
        "building_shortage", (SFR, "Crise de l'immobilier"),
        "set building_shortage_auction = no",
        "set building_auction_from_cost = no",
        "when buildings run short: auction the building from its cost"), "set houses = 8"),
    "M2": ("classic_1961.rules", _replace(
        "mortgages", (S61, "HYPOTHÈQUES"),
        "set mortgage_interest = 10%",
        "a player may not mortgage a property if a lot of the group has a building",
        "set transfer_interest = no",
        "when a deed changes hands: lift the mortgage or pay the interest")),
    "X1": ("classic_1961.rules", _replace(
        "bankruptcy", (S61, "FAILLITE"),
        "set bankruptcy_to_bank = keep",
        "set winner = last_player",
        "when a player goes bankrupt to the bank: the bank auctions the lots"),
        "set starting_cash = $500"),
    "D2": ("classic_1961_short.rules", _replace(
        "dealt_deeds", (S61, "RÈGLES pour une PARTIE ABRÉGÉE"),
        "set deal_deeds = 0",
        "when the game starts: deal 2 title deeds to each player")),
    "D3": ("lotr_short.rules", _replace(
        "dealt_deeds", (SLO, "RULES for a SHORT GAME"),
        "set deal_deeds = 0",
        "when the game starts: deal 3 title deeds to each player for free")),
    "E1": ("lotr_short.rules", _replace(
        "end_of_game", (SLO, "RULES for a SHORT GAME"),
        "set end_at_bankruptcy = 0",
        "set winner = richest",
        "when a player goes bankrupt: end the game")),
    "E2": ("classic_1961_short.rules", _replace(
        "end_of_game", (S61, "RÈGLES pour une PARTIE ABRÉGÉE"),
        "set end_at_bankruptcy = 0",
        "set winner = richest",
        "when a player goes bankrupt if the number of bankruptcies is 2: everything goes to "
        "the creditor, end the game")),
    "T1": ("classic_1961_timed.rules", _replace(
        "time_limit", (S61, "Autre partie abrégée"),
        "parameter time_limit = 90",
        "set seconds_per_turn = 60",
        "set winner = richest",
        "when the time limit is reached: end the game")),
}

def _log(rb, table, seed) -> str:
    lines: list[str] = []
    rulelang.Game(rb, make_agents(list(table), len(table)), seed=seed, max_turns=MAX_TURNS,
                  log=lines.append).play()
    return "".join(line + "\n" for line in lines)


def _official(name: str):
    from scenario import rulebook
    return rulebook(name)


def _copies(tmp_path, label: str):
    """(the official rulebook, the rule form, the neutral setting with the rule's event
    doing nothing), each a copy with the official title and the case's common line."""
    official, text, *common = CASES[label]
    title = _official(official).title
    head = f'rulebook "{title}"\nextends "{official}"\n' + "".join(f"{c}\n" for c in common)
    when = next(line for line in text.splitlines() if line.strip().startswith("when "))
    out = []
    idle = when.split(": ", 1)[0] + ": nothing"  # the event with no effect
    for name, body in (("setting", ""), ("rule", text), ("neutral", text.replace(when, idle))):
        path = tmp_path / f"{label}_{name}.rules"
        path.write_text(f"{head}\n{body}", encoding="utf-8")
        out.append(rulelang.load(str(path)))
    return out


@pytest.mark.parametrize("label", sorted(CASES))
def test_the_rule_form_plays_the_games_of_the_setting(tmp_path, label):
    """Same events, same order, same values, seed by seed and table by table; only labels
    may differ. And the comparison is not blind: the neutral setting without the rule form
    plays other games (the case meets what the rule does)."""
    as_setting, as_rule, neutral = _copies(tmp_path, label)
    changed = 0
    for table in TABLES:
        for seed in SEEDS:
            old, new = _log(as_setting, table, seed), _log(as_rule, table, seed)
            _, other = label_changes(old, new)
            assert other == [], (label, table, seed, other[:3])
            if not changed:
                changed += bool(label_changes(old, _log(neutral, table, seed))[1])
    assert changed, f"{label}: no game meets the case"


def test_the_forced_exit_is_the_rule_s(tmp_path):
    """J2 frees the player after its last jail turn itself, before the engine's own exit
    would: its hook is seen letting a player out, the fine paid by its rule."""
    _, as_rule, _ = _copies(tmp_path, "J2")
    freed = []

    def spying(hook):
        owners, rule, fn = hook

        def spy(g, f):
            jailed = g.state.in_jail[f.player]
            fn(g, f)
            if jailed and not g.state.in_jail[f.player]:
                freed.append(bool(f.streak))
        return owners, rule, spy

    import attrs
    rb = attrs.evolve(as_rule, jail_roll_hooks=tuple(spying(h) for h in as_rule.jail_roll_hooks))
    for seed in SEEDS:
        _log(rb, TABLES[0], seed)
    assert True in freed and False in freed  # by doubles (J1), and after the last turn (J2)
