"""The official rulebooks hold the game's course as rules (design §3.2, §4): each rule that
replaced a setting is what their games meet, and the engine no longer does it for them.

Before the settings were removed, this file proved each rule form equivalent to its setting:
every official rulebook played with the setting neutral and the rule in its place gave the
same games, event for event, seed by seed, labels aside (commit cfe5f98); the golden
transcripts then changed in their labels only. What stays provable without the settings:
the official rulebook as it is, against a copy with the case's rule line idled (its event
left with no effect), plays other games, so each rule does what the setting did and nothing
else does it in its place. A case is one line of a rules file, found and idled in a copy of
rulesets/ (so the test follows the file's other lines as they change).

The permissions that replaced the building, selling, mortgaging, trading and bidding settings
were proved so too (commit 8a50950: H1, H2, H3, S2 and B1 against their settings; S1 and M1,
which replaced checks of the engine, by the official rulebooks' games before and after, 10,200
of them, labels masked). Idling a permission drops its line.
"""

from __future__ import annotations

import shutil

import attrs
import pytest

import rulelang
from rulelang.engine import actions as act
from rulelang.engine.agents import RandomAgent
from rulelang.runner import make_agents
from scenario import RULESETS
from transcripts import label_changes

SEEDS = range(8)
# Quickest first: a case met by a mixed table's first games is not played by random agents
# alone, whose games are the longest (a case's own agents, CASE_TABLES, go before all).
TABLES = (("default", "random", "default", "random"), ("default",) * 4, ("random",) * 4)
MAX_TURNS = 600

P1 = "when the game starts: shuffle the decks"
P2 = "when the game starts: the player with the highest roll starts"
R61 = ("when rent is due on a street if the space has no building and the owner holds the "
       "whole group: rent x2")
RFR = ("when rent is due on a street if the space has no building and no lot of the group is "
       "mortgaged and the owner holds the whole group: rent x2")
J1 = "when a player rolls if the player is in jail and the dice show doubles: leave jail"
H1 = "a player may not build unless the player holds the whole group"
H2 = "a player may not build unless the space has the fewest buildings of the group"
H3 = "a player may not build if a lot of the group is mortgaged"
S1 = "a player may not trade a property if a lot of the group has a building"
S2 = "a player may not sell a building unless the space has the most buildings of the group"
M1 = "a player may not mortgage a property if a lot of the group has a building"
B1 = "a player may not bid if the bid is more than the player's cash"

# label: (the rulebook played, the file and the line of the rule, [a line both copies add,
# so that the games meet the case often: a scarce supply of houses, little cash])
CASES = {
    "P1": ("classic_1961.rules", "classic_1961.rules", P1),
    "P2": ("classic_1961.rules", "classic_1961.rules", P2),
    "R61": ("classic_1961.rules", "classic_1961.rules", R61),
    "RFR": ("french_standard.rules", "french_standard.rules", RFR),
    # the Ring's `rent x2` and the whole group's multiply
    "RFR_ring": ("lotr.rules", "lotr.rules", RFR),
    # J2 idled, the engine's own exit after the last jail turn does what it does: the test
    # below sees J2 do it first
    "J1": ("classic_1961.rules", "classic_1961.rules", J1),
    "K1": ("classic_1961.rules", "classic_1961.rules",
           "when buildings run short: auction the building", "set houses = 8"),
    "K2": ("french_standard.rules", "french_standard.rules",
           "when buildings run short: auction the building from its cost", "set houses = 8"),
    "M2": ("classic_1961.rules", "classic_1961.rules",
           "when a deed changes hands if the space is mortgaged: lift the mortgage or pay the "
           "interest"),
    "X1": ("classic_1961.rules", "classic_1961.rules",
           "when a player goes bankrupt to the bank: the bank auctions the lots",
           "set starting_cash = $500"),
    "D2": ("classic_1961_short.rules", "classic_1961_short.rules",
           "when the game starts: deal 2 title deeds to each player"),
    "D3": ("lotr_short.rules", "lotr_short.rules",
           "when the game starts: deal 3 title deeds to each player for free"),
    "E1": ("lotr_short.rules", "lotr_short.rules", "when a player goes bankrupt: end the game"),
    "E2": ("classic_1961_short.rules", "classic_1961_short.rules",
           "when a player goes bankrupt if the number of bankruptcies is 2: everything goes to "
           "the creditor, end the game"),
    "T1": ("classic_1961_timed.rules", "classic_1961_timed.rules",
           "when the time limit is reached: end the game"),
    "H1": ("classic_1961.rules", "classic_1961.rules", H1),
    "H2": ("classic_1961.rules", "classic_1961.rules", H2),
    "H3": ("french_standard.rules", "french_standard.rules", H3),
    "H3_lotr": ("lotr.rules", "lotr.rules", H3),
    "S1": ("classic_1961.rules", "classic_1961.rules", S1),
    "S2": ("classic_1961.rules", "classic_1961.rules", S2),
    "S2_dinos": ("dinos.rules", "dinos.rules", S2),
    "M1": ("classic_1961.rules", "classic_1961.rules", M1),
    "B1": ("classic_1961.rules", "classic_1961.rules", B1),
}
# the options a case plays with
OPTIONS = {"RFR_ring": ("one_ring",)}


class Stretching(RandomAgent):
    """Bids beyond its cash, up to what it could raise, unless a permission refuses it (the
    built-in agents never bid more than their cash)."""

    def bid(self, game, seat, lot, high):
        means = act.means(game, seat)
        if self.rng.random() < 0.5 or high + 1 > means:
            return None
        bid = self.rng.randint(high + 1, min(means, high + 300))
        return None if act.why_refused(game, seat, act.Bid(lot, bid)) else bid


class Offering(RandomAgent):
    """Offers a built lot for a little cash, unless a permission refuses it (the built-in
    agents trade only lots of groups without buildings)."""

    def manage(self, game, seat):
        st, rb = game.state, game.rulebook
        built = [q for q in rb.properties if st.owner[q] == seat and (st.houses[q] or st.hotels[q])]
        others = [p for p in game.bidders() if p != seat]
        if built and others and self.rng.random() < 0.2:
            trade = act.Trade(self.rng.choice(others), give=(self.rng.choice(built),))
            if act.why_refused(game, seat, trade) is None:
                return trade
        return super().manage(game, seat)


# the tables a case plays besides TABLES: agents that meet it
CASE_TABLES = {"B1": ((Stretching, "random", Stretching, "default"),),
               "S1": ((Offering, "random", Offering, "random"),)}


def _log(rb, table, seed) -> str:
    lines: list[str] = []
    agents = [a() if isinstance(a, type) else a for a in table]
    rulelang.Game(rb, make_agents(agents, len(table)), seed=seed, max_turns=MAX_TURNS,
                  log=lines.append).play()
    return "".join(line + "\n" for line in lines)


def _idle(when: str) -> str:
    """The event of a `when` line with no effect (`rent is due` takes only `rent xN`); a
    permission, no line at all."""
    if when.startswith("a player may not "):
        return ""
    return when.split(": ", 1)[0] + (": rent x1" if "rent is due" in when else ": nothing")


@pytest.fixture(scope="module")
def official(tmp_path_factory):
    """The official rulebook a case plays (by its label), through a file that extends it
    with the case's common line: one copy of rulesets/, each rulebook loaded once."""
    where = tmp_path_factory.mktemp("official") / "rulesets"
    shutil.copytree(RULESETS, where)
    loaded = {}

    def rulebook_of(label: str) -> rulelang.Rulebook:
        played, _holder, _when, *common = CASES[label]
        key = (played, tuple(common), OPTIONS.get(label, ()))
        if key not in loaded:
            loaded[key] = _load_case(where / f"case{len(loaded)}.rules", played, common,
                                     key[2])
        return loaded[key]
    return rulebook_of


def _load_case(case, played: str, common, options) -> rulelang.Rulebook:
    body = "".join(f"  {c}\n" for c in common)
    case.write_text(f'rulebook "case"\nextends "{played}"\n'
                    + (f'rule case:\n  cite "test", "case"\n{body}' if body else ""),
                    encoding="utf-8")
    return rulelang.load(str(case), options=options)


def _idled(tmp_path, label: str) -> rulelang.Rulebook:
    """The official rulebook of the case with the case's rule line idled, played through a
    file that extends it with the case's common line."""
    played, holder, when, *common = CASES[label]
    where = tmp_path / "idle"
    shutil.copytree(RULESETS, where)
    path = where / holder
    text = path.read_text(encoding="utf-8")
    assert text.count(f"  {when}\n") == 1, f"{label}: the line is not in {holder}"
    idle = _idle(when)
    path.write_text(text.replace(f"  {when}\n", f"  {idle}\n" if idle else ""),
                    encoding="utf-8")
    return _load_case(where / "case.rules", played, common, OPTIONS.get(label, ()))


@pytest.mark.parametrize("label", sorted(CASES))
def test_the_rule_is_what_the_games_meet(tmp_path, official, label):
    """The official rulebook and the copy with the rule idled play other games: the case is
    met, and nothing but the rule does what it says."""
    rulebook, idle = official(label), _idled(tmp_path, label)
    for table in CASE_TABLES.get(label, ()) + TABLES:
        for seed in SEEDS:
            if label_changes(_log(rulebook, table, seed), _log(idle, table, seed))[1]:
                return
    pytest.fail(f"{label}: no game meets the case")


def test_the_forced_exit_is_the_rule_s(official):
    """J2 frees the player after its last jail turn itself, before the engine's own exit
    would: its hook is seen letting a player out, the fine paid by its rule."""
    rulebook = official("J1")
    freed = []

    def spying(hook):
        owners, rule, fn = hook

        def spy(g, f):
            jailed = g.state.in_jail[f.player]
            fn(g, f)
            if jailed and not g.state.in_jail[f.player]:
                freed.append(bool(f.streak))
        return owners, rule, spy

    rb = attrs.evolve(rulebook,
                      jail_roll_hooks=tuple(spying(h) for h in rulebook.jail_roll_hooks))
    assert len(rb.jail_roll_hooks) == 2  # J1 and J2, and nothing else
    for seed in SEEDS:
        _log(rb, ("default",) * 4, seed)
    assert True in freed and False in freed  # by doubles (J1), and after the last turn (J2)
