"""Every house rule of rulesets/house/ seen at work in a real game: a seeded game of default and
random agents, read through its JSON event log (docs/cookbook.md).

Each test plays one game of a house file and finds in the log an event of a rule that the file
itself defines, or, for a rule that only changes a setting, the effect the setting has (a house
on a group held in parts, a deed dealt before the first roll). `Played` keeps, beside each
event, the board as it stood when the event was written, for the effects the log alone does
not show (who held a group at the moment of a build).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import rulelang
from rulelang.engine import actions as act
from scenario import RULESETS

HOUSE = RULESETS / "house"
MIXED = ("default", "random", "default", "random")
RANDOM = ("random",) * 4
# The items of a rulebook that define or redefine a rule: `rule`, `replace rule`,
# `before X rule`, `after X rule`.
RULE_ITEM = re.compile(r"^(?:replace |(?:before|after) \w+ )?rule (\w+):", re.M)


def own_rules(name: str) -> set[str]:
    """The names of the rules the house file itself defines (inherited ones excluded)."""
    return set(RULE_ITEM.findall((HOUSE / name).read_text(encoding="utf-8")))


class Played:
    """A log callable for one game: each event parsed, with the board when it was written."""

    def __init__(self, name: str, seed: int, agents=MIXED, max_turns: int = 2000):
        rb = rulelang.load(str(HOUSE / name))
        self.rulebook = rb
        self.events: list[dict] = []
        self.boards: list[tuple] = []
        self.game = None  # the setup's events come before the game exists: no board for them
        made = {"default": rulelang.DefaultAgent, "random": rulelang.RandomAgent}
        self.game = rulelang.Game(rb, [made[a]() for a in agents], seed=seed,
                                  max_turns=max_turns, log=self._log)
        self.game.play()

    def _log(self, line: str) -> None:
        self.events.append(json.loads(line))
        if self.game is None:
            self.boards.append(None)
            return
        st = self.game.state
        self.boards.append((tuple(st.owner), tuple(st.houses), tuple(st.hotels),
                            tuple(st.in_jail), tuple(st.mortgaged)))

    def index(self, space: str) -> int:
        return self.rulebook.space(space).index

    def is_property(self, space: str) -> bool:
        return self.index(space) in self.rulebook.properties

    def group_of(self, space: str) -> list[int]:
        rb = self.rulebook
        return list(rb.groups[rb.spaces[self.index(space)].group])

    def until_next(self, i: int, *kinds: str) -> list[dict]:
        """The events after the i-th, up to (not including) the next one of those kinds."""
        out = []
        for e in self.events[i + 1:]:
            if e["event"] in kinds:
                break
            out.append(e)
        return out


def fired(played: Played, name: str) -> list[dict]:
    """The events written under a rule that the house file defines."""
    mine = own_rules(name)
    return [e for e in played.events if e["rule"] in mine]


def test_own_rules_reads_every_kind_of_rule_item():
    """own_rules finds new, replaced and placed rules, and nothing inherited."""
    assert own_rules("no_auctions.rules") == {"unowned_property"}
    assert own_rules("double_salary_on_go.rules") == {"double_salary"}
    assert own_rules("countdown_token.rules") == {"countdown"}


# ------------------------------------------------------------------ the five first house rules


def test_no_auctions_a_declined_lot_is_left_with_the_bank():
    """No auctions: a player stops on an unowned lot and does not buy it; no auction follows
    and the lot is still the bank's; lots that are bought are bought under the file's rule."""
    p = Played("no_auctions.rules", seed=1)
    assert any(e["event"] == "deed" for e in fired(p, "no_auctions.rules"))
    declined = 0
    for i, e in enumerate(p.events):
        if e["event"] != "move" or not p.is_property(e["to"]):
            continue
        if p.boards[i][0][p.index(e["to"])] != -1:
            continue
        after = p.until_next(i, "roll", "move")
        assert not [a for a in after if a["event"] in ("auction", "bid")], after
        if not [a for a in after if a["event"] == "deed" and a["space"] == e["to"]]:
            declined += 1
    assert declined > 0  # the random players declined some lots


def test_free_parking_jackpot_fills_and_is_taken():
    """Free Parking jackpot: taxes go into the pot; stopping on Free Parking takes it, under
    the file's free_parking rule."""
    p = Played("free_parking_jackpot.rules", seed=1)
    assert any(e["event"] == "transfer" and e["to"] == "Free Parking jackpot"
               and e["reason"] in ("income_tax", "luxury_tax") for e in p.events)
    taken = [e for e in fired(p, "free_parking_jackpot.rules")
             if e["event"] == "transfer" and e["source"] == "Free Parking jackpot"]
    assert taken and all(e["rule"] == "free_parking" and e["amount"] > 0 for e in taken)
    for e in taken:
        i = p.events.index(e)
        assert p.events[i - 1]["event"] == "move" and p.events[i - 1]["to"] == "Free Parking"


def test_double_salary_on_go_pays_400_for_stopping_on_go():
    """Double salary: a move ending on GO pays the salary and 200 more, under double_salary."""
    p = Played("double_salary_on_go.rules", seed=1)
    paid = [e for e in fired(p, "double_salary_on_go.rules") if e["event"] == "transfer"]
    assert paid
    for e in paid:
        assert (e["source"], e["amount"], e["reason"]) == ("bank", 200, "double_salary")
        i = p.events.index(e)
        before = p.events[:i]
        move = next(b for b in reversed(before) if b["event"] == "move")
        assert move["to"] == "GO" and move["player"] == e["to"]


def test_no_rent_in_jail_a_jailed_owner_collects_nothing():
    """No rent from jail: a player stops on the lot of a jailed owner and pays no rent; rent
    is otherwise paid under the file's rent rule."""
    p = Played("no_rent_in_jail.rules", seed=3)
    assert any(e["event"] == "transfer" and e["reason"] == "rent"
               for e in fired(p, "no_rent_in_jail.rules"))
    spared = 0
    for i, e in enumerate(p.events):
        if e["event"] != "move":
            continue
        owner, _, _, in_jail, mortgaged = p.boards[i]
        q = p.index(e["to"])
        o = owner[q]
        if o < 0 or o == e["player"] or mortgaged[q] or not in_jail[o]:
            continue
        after = p.until_next(i, "roll", "move")
        assert not [a for a in after if a["event"] == "transfer" and a["reason"] == "rent"]
        spared += 1
    assert spared > 0


def test_lap_before_buying_nothing_is_bought_before_the_first_salary():
    """A lap before buying: no deed and no auction from a landing before the player's first
    salary; after it, lots are bought under the file's unowned_property rule."""
    p = Played("lap_before_buying.rules", seed=1)
    salaried: set[int] = set()
    skipped = 0
    for i, e in enumerate(p.events):
        if e["event"] == "transfer" and e["reason"] == "salary":
            salaried.add(e["to"])
        if e["event"] != "move" or e["player"] in salaried:
            continue
        if not p.is_property(e["to"]) or p.boards[i][0][p.index(e["to"])] != -1:
            continue
        after = p.until_next(i, "roll", "move")
        assert not [a for a in after if a["event"] in ("deed", "auction")], after
        skipped += 1
    assert skipped > 0
    assert any(e["event"] == "deed" for e in fired(p, "lap_before_buying.rules"))


# ------------------------------------------------------------------ the cookbook's new rules


def test_city_build_a_house_on_a_group_held_in_parts():
    """City Build: a house is built, under the file's houses rule, on a street whose group the
    builder does not hold whole."""
    p = Played("city_build.rules", seed=2, agents=RANDOM)
    partial = []
    for i, e in enumerate(p.events):
        if e["event"] == "build" and e["rule"] in own_rules("city_build.rules"):
            owner = p.boards[i][0]
            if any(owner[q] != e["player"] for q in p.group_of(e["space"])):
                partial.append(e)
    assert partial


def test_free_build_houses_built_unevenly_on_a_whole_group():
    """Free Build: a build leaves two streets of one group more than one house apart, and
    every build is on a group the builder holds whole."""
    p = Played("free_build.rules", seed=1, agents=RANDOM)
    uneven = 0
    for i, e in enumerate(p.events):
        if e["event"] != "build":
            continue
        owner, houses, hotels, _, _ = p.boards[i]
        group = p.group_of(e["space"])
        assert {owner[q] for q in group} == {e["player"]}
        levels = [5 if hotels[q] else houses[q] for q in group]
        if max(levels) - min(levels) > 1 and e["rule"] in own_rules("free_build.rules"):
            uneven += 1
    assert uneven > 0


def test_flat_income_tax_is_always_200():
    """Flat income tax: Income Tax takes $200 under the file's income_tax rule, never asks."""
    p = Played("flat_income_tax.rules", seed=1)
    taxed = [e for e in fired(p, "flat_income_tax.rules") if e["event"] == "transfer"]
    assert taxed and all((e["to"], e["amount"], e["reason"]) == ("bank", 200, "income_tax")
                         for e in taxed)
    assert not [e for e in p.events if e["event"] == "tax_choice"]


def test_no_housing_shortage_more_houses_than_the_box_holds():
    """No housing shortage: more than 32 houses stand at once, and no building is auctioned."""
    p = Played("no_housing_shortage.rules", seed=28)
    standing = [sum(board[1]) for e, board in zip(p.events, p.boards) if e["event"] == "build"]
    assert max(standing) > 32
    assert not [e for e in p.events if e["event"] == "auction" and e.get("lot") != "deed"]


def test_random_start_deals_three_paid_deeds_to_each_player():
    """Random start: before the first roll of a turn, every player is dealt three deeds and
    pays each one's printed price."""
    p = Played("random_start.rules", seed=1)
    first = next(i for i, e in enumerate(p.events) if e["event"] == "roll")
    dealt = [e for e in p.events[:first] if e["event"] == "deed"]
    assert sorted(e["to"] for e in dealt) == [0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3]
    assert dealt == [e for e in fired(p, "random_start.rules") if e["event"] == "deed"]
    for e in dealt:
        i = p.events.index(e)
        paid = p.events[i - 1]
        assert paid["event"] == "transfer" and paid["reason"] == "dealt deed"
        assert (paid["source"], paid["amount"]) == (e["to"], p.rulebook.space(e["space"]).price)


def test_free_parking_bonus_pays_100_on_free_parking():
    """Free Parking bonus: a move to Free Parking is followed by $100 from the bank, under
    the file's free_parking rule."""
    p = Played("free_parking_bonus.rules", seed=1)
    bonus = [e for e in fired(p, "free_parking_bonus.rules") if e["event"] == "transfer"]
    assert bonus
    for e in bonus:
        assert (e["source"], e["amount"], e["reason"]) == ("bank", 100, "free_parking")
        move = p.events[p.events.index(e) - 1]
        assert move["event"] == "move" and move["to"] == "Free Parking"
        assert move["player"] == e["to"]


def test_countdown_token_moves_on_a_marked_one_and_ends_the_game():
    """Countdown token: each marked one moves the token to the next property, under the file's
    countdown rule; its reaching Boardwalk ends the game, named after the rule."""
    p = Played("countdown_token.rules", seed=2)
    moves = [e for e in fired(p, "countdown_token.rules") if e["event"] == "token"]
    assert moves
    for e in moves:
        i = p.events.index(e)
        roll = next(b for b in reversed(p.events[:i]) if b["event"] == "roll")
        assert roll["dice"][0] == 1
    assert moves[-1]["to"] == "Boardwalk"
    end = p.events[-1]
    assert end["event"] == "end" and end["reason"] == "countdown"


# ------------------------------------------------------------------ permissions

# A permission shows in a played game in two ways. The engine's own question refused by one
# (the purchase of the lot a player stops on) is not asked, and the log says so: a `refused`
# event naming the rule and the lot. An agent's action or answer is never refused in a game:
# agents ask `actions.refusal` before answering, so a permission on bids, trades, building
# shows only as what does not happen (no `bid`, no `deed`, no `build` where it forbids them).


def _salaried(p: Played) -> list[set[int]]:
    """Per event, the players who had passed GO (their first salary) before it."""
    seen: set[int] = set()
    out = []
    for e in p.events:
        out.append(set(seen))
        if e["event"] == "transfer" and e["reason"] == "salary":
            seen.add(e["to"])
    return out


def test_see_the_sights_nothing_acquired_before_a_lap():
    """See the Sights: before a player's first salary, stopping on an unowned lot is refused
    under the file's rule (the player is not asked, the lot is auctioned), the player makes
    no bid and gets no deed; once round the board, players buy."""
    p = Played("see_the_sights.rules", seed=1)
    lapped = _salaried(p)
    refused = [(i, e) for i, e in enumerate(p.events) if e["event"] == "refused"]
    assert refused
    for i, e in refused:
        assert (e["rule"], e["action"]) == ("see_the_sights", "buy")
        assert e["player"] not in lapped[i]
        move = p.events[i - 1]
        assert move["event"] == "move" and (move["player"], move["to"]) == (e["player"],
                                                                         e["space"])
        assert p.boards[i][0][p.index(e["space"])] == -1
        assert p.events[i + 1]["event"] == "auction"  # the 1961 rules auction it
    for i, e in enumerate(p.events):
        if e["event"] == "bid":
            assert e["player"] in lapped[i], e
        if e["event"] == "deed" and e["rule"] != "bankruptcy":
            assert e["to"] in lapped[i], e
    assert [e for e in p.events if e["event"] == "deed"]


def test_see_the_sights_changes_the_game():
    """The same seeded game under the 1961 rules: players buy before their first lap."""
    classic = Played("../classic_1961.rules", seed=1)
    lapped = _salaried(classic)
    assert [e for i, e in enumerate(classic.events)
            if e["event"] == "deed" and e["to"] not in lapped[i]]



class Watched(Played):
    """A played game that also asks the engine, after each `build`, what the permissions say
    of a hotel on every group held whole with four houses on each lot (where the 1961 rules
    would allow one): `actions.why_refused`, the question the agents ask before building."""

    def __init__(self, *args, **kwargs):
        self.hotel_refusals: list[tuple[int, str | None]] = []
        super().__init__(*args, **kwargs)

    def _log(self, line: str) -> None:
        super()._log(line)
        if self.game is None or self.events[-1]["event"] != "build":
            return
        st = self.game.state
        for group in self.rulebook.groups:
            holders = {st.owner[q] for q in group}
            if len(holders) == 1 and -1 not in holders and all(st.houses[q] == 4
                                                                 for q in group):
                seat = holders.pop()
                self.hotel_refusals.append((len(self.events) - 1, act.why_refused(
                    self.game, seat, act.Build(group[0]))))


def _buildings(p: Played):
    """Per event, each lot's (houses, hotels) rebuilt from the `build`, `sell`, `sell_group`
    and `bankrupt` events alone, checked against the board at every build and sale."""
    rb = p.rulebook
    houses, hotels = [0] * rb.size, [0] * rb.size
    out = []
    for i, e in enumerate(p.events):
        kind = e["event"]
        if kind in ("build", "sell"):
            q = p.index(e["space"])
            if kind == "build" and e["building"] == "hotel":
                houses[q], hotels[q] = 0, 1
            elif kind == "build":
                houses[q] += 1
            elif e["building"] == "hotel":
                houses[q], hotels[q] = 4, 0
            else:
                houses[q] -= 1
            assert (houses[q], hotels[q]) == (p.boards[i][1][q], p.boards[i][2][q]), e
        elif kind == "sell_group":
            for q in rb.groups[rb.group_names.index(e["group"])]:
                houses[q] = hotels[q] = 0
        elif kind == "bankrupt":  # the bankrupt player's buildings go back to the bank
            for q, owner in enumerate(p.boards[i][0]):
                if owner == e["player"]:
                    houses[q] = hotels[q] = 0
        out.append((tuple(houses), tuple(hotels)))
    return out


def test_no_hotel_on_a_monopoly_four_houses_at_most_on_a_whole_group():
    """No hotel on a monopoly: whole groups reach four houses on every lot, the engine then
    refuses their hotel under the file's rule, and no hotel is ever built on a group its
    builder holds whole; per-lot counts are rebuilt from the build and sale events."""
    p = Watched("no_hotel_on_a_monopoly.rules", seed=1)
    counts = _buildings(p)
    full = 0
    for i, (houses, hotels) in enumerate(counts):
        owner = p.boards[i][0] if p.boards[i] else None
        for group in p.rulebook.groups:
            holders = {owner[q] for q in group} if owner else {-1}
            if len(holders) == 1 and -1 not in holders:
                assert not any(hotels[q] for q in group), (i, p.events[i])
                full += all(houses[q] == 4 for q in group)
    assert full  # a group held whole stood at four houses on every lot
    assert p.hotel_refusals
    assert {why for _, why in p.hotel_refusals} == {
        "refused by rule 'no_hotel_on_a_monopoly': a player may not build a hotel if the "
        "player holds the whole group"}


def test_no_hotel_on_a_monopoly_changes_the_game():
    """The same seeded game under the 1961 rules: hotels go up on whole groups."""
    classic = Played("../classic_1961.rules", seed=1)
    assert [e for e in classic.events if e["event"] == "build" and e["building"] == "hotel"]


def test_no_hotel_on_a_monopoly_a_competitor_builds_a_hotel():
    """A player holding only part of a group builds on it (no whole group needed), up to a
    hotel."""
    p = Played("no_hotel_on_a_monopoly.rules", seed=8, agents=RANDOM)
    hotels = [i for i, e in enumerate(p.events)
              if e["event"] == "build" and e["building"] == "hotel"]
    assert hotels
    for i in hotels:
        e = p.events[i]
        assert e["rule"] in own_rules("no_hotel_on_a_monopoly.rules") | {"hotels"}
        assert any(p.boards[i][0][q] != e["player"] for q in p.group_of(e["space"]))


# ------------------------------------------------------------------ docs/cookbook.md

COOKBOOK = RULESETS.parent / "docs" / "cookbook.md"
BLOCK = re.compile(r"^```rules[ \t]*\n(.*?)^```[ \t]*$", re.S | re.M)


def _sections() -> dict[str, str]:
    text = COOKBOOK.read_text(encoding="utf-8")
    parts = re.split(r"^## (.+)$", text, flags=re.M)
    return dict(zip(parts[1::2], parts[2::2]))


# ------------------------------------------------------------------ rules of the new forms


def test_lucky_roller_pays_500_for_snake_eyes_before_the_move():
    """Lucky Roller: each throw of the turn showing 1 and 1, in jail too, is followed at once
    by $500 from the bank under the file's rule, before the pawn moves; no other throw is,
    nor the throws for the first player."""
    p = Played("lucky_roller.rules", seed=6)
    paid = [e for e in fired(p, "lucky_roller.rules") if e["event"] == "transfer"]
    assert paid
    in_jail = 0
    for i, e in enumerate(p.events):
        if e["event"] != "roll":
            continue
        after = p.events[i + 1]
        bonus = after["event"] == "transfer" and after["rule"] == "lucky_roller"
        if e["rule"] == "turn" and e["dice"] == [1, 1]:
            assert bonus and (after["source"], after["to"], after["amount"]) == \
                ("bank", e["player"], 500), after
            in_jail += p.boards[i][3][e["player"]]
        else:
            assert not bonus, (e, after)
    assert in_jail  # a jailed player threw snake eyes and was paid too
    assert len(paid) == sum(1 for e in p.events if e["event"] == "roll"
                            and e["rule"] == "turn" and e["dice"] == [1, 1])


def test_cookbook_has_a_section_for_every_house_file():
    """docs/cookbook.md has one section per file of rulesets/house/, naming the file and how
    to play it."""
    sections = _sections()
    for path in sorted(HOUSE.glob("*.rules")):
        body = sections.get(path.stem)
        assert body is not None, f"no section {path.stem!r} in docs/cookbook.md"
        assert f"`rulesets/house/{path.name}`" in body
        assert f"`rulelang run house/{path.name}" in body


@pytest.mark.parametrize("name", sorted(p.stem for p in HOUSE.glob("*.rules")))
def test_cookbook_shows_the_files_as_they_are(name):
    """Each rules excerpt of a house rule's section is copied verbatim from its file."""
    text = (HOUSE / f"{name}.rules").read_text(encoding="utf-8")
    blocks = BLOCK.findall(_sections()[name])
    assert blocks
    for block in blocks:
        assert block in text, f"docs/cookbook.md, section {name!r}: not in the file:\n{block}"


# ------------------------------------------------------------------ choices and moves by predicate


def test_go_or_anywhere_a_choice_on_go_then_a_move_to_the_property_chosen():
    """Go or anywhere: stopping on GO offers the choice under the file's rule; an answer of the
    second option pays the salary back and moves the player, under the same rule, to the
    property it then chooses among every property."""
    p = Played("go_or_anywhere.rules", seed=1, agents=RANDOM)
    choices = [e for e in fired(p, "go_or_anywhere.rules") if e["event"] == "choice"]
    assert choices
    went = 0
    for e in choices:
        i = p.events.index(e)
        assert [m for m in p.events[:i] if m["event"] == "move"][-1]["to"] == "GO"
        if e["options"] != ["nothing", "pay $200, advance to a property of the player's choice"]:
            continue
        after = p.until_next(i, "roll")
        if e["chosen"] == 0:
            assert not [a for a in after if a["event"] in ("move", "transfer")
                        and a["rule"] == "go_or_anywhere"]
            continue
        paid, target, move = after[0], after[1], after[2]
        assert (paid["event"], paid["source"], paid["amount"]) == ("transfer", e["player"], 200)
        assert target["event"] == "choice" and len(target["options"]) == 28
        assert move["event"] == "move" and move["to"] == target["options"][target["chosen"]]
        assert move["rule"] == "go_or_anywhere" and p.is_property(move["to"])
        went += 1
    assert went


def test_speed_die_mr_monopoly_and_triples():
    """The Speed Die: three dice are thrown; doubles count on the white dice only (a third die's
    number does not spoil them), Mr. Monopoly advances the player to the next lot the bank holds
    (a deed or an auction follows), and triples offer every space of the board."""
    p = Played("speed_die.rules", seed=1)
    rolls = [e for e in p.events if e["event"] == "roll" and e["rule"] == "turn"]
    assert rolls and all(len(e["dice"]) == 3 for e in rolls)
    for i, e in enumerate(p.events):
        if e["event"] == "roll" and e["rule"] == "turn" and e["dice"][0] == e["dice"][1] \
                and e["dice"][2] != e["dice"][0] and not p.boards[i][3][e["player"]]:
            after = p.until_next(i, "roll", "first_player")
            if not [a for a in after if a["event"] in ("jail", "bankrupt", "end")]:
                nxt = p.events[i + 1 + len(after)]
                assert nxt["event"] == "roll" and nxt["player"] == e["player"], (e, nxt)
    moves = [e for e in fired(p, "speed_die.rules")
             if e["event"] == "move" and e["rule"] == "mr_monopoly"]
    assert moves
    for e in moves:
        i = p.events.index(e)
        after = p.until_next(i, "roll", "move")
        if p.boards[i][0][p.index(e["to"])] == -1:
            assert [a for a in after if a["event"] in ("deed", "auction")], after
        else:  # the bank held none: the next lot of another player
            assert p.boards[i][0][p.index(e["to"])] not in (-1, e["player"])
    triples = [e for e in fired(p, "speed_die.rules") if e["event"] == "choice"]
    assert triples and all(e["rule"] == "triples" and len(e["options"]) == 40 for e in triples)
    for e in triples:
        roll = [r for r in p.events[:p.events.index(e)] if r["event"] == "roll"][-1]
        assert len(set(roll["dice"])) == 1
