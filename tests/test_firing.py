"""The firing context and the causes in the log: every hook and effect gets an immutable
Firing by its rule, and every event and refusal names its real cause."""

from __future__ import annotations

import json

import rulelang
from rulelang.engine.actions import Mortgage, Sell
from rulelang.engine.firing import HOTEL, HOUSE, NO_BUILDING, Firing
from rulelang.engine.tables import RentContext
from scenario import RULESETS, Scripted, pos, rulebook, scenario


def events(log: list[str]) -> list[dict]:
    return [json.loads(line) for line in log]


def test_a_firing_never_changes_and_derives_new_ones():
    """Deriving a firing leaves the original as it was and changes only what it says."""
    rent = RentContext(2)
    f = Firing(1, 5, 2, -1, (3, 4), 7, "turn", rent)
    assert f.by_rule("rent").fields() == (1, 5, 2, -1, (3, 4), 7, "rent", rent, 0, -1, 0, 0, -1)
    assert f.by_card("card CH05").fields() == (1, 5, 2, -1, (3, 4), 7, "card CH05", None, 0,
                                               -1, 0, 0, -1)
    assert f.at(9, -1).fields() == (1, 9, -1, -1, (3, 4), 7, "turn", None, 0, -1, 0, 0, -1)
    assert f.with_token(0).token == 0 and f.thrown((1, 1), 2).fields()[4:6] == ((1, 1), 2)
    assert f.fields() == (1, 5, 2, -1, (3, 4), 7, "turn", rent, 0, -1, 0, 0, -1)
    assert f == Firing(1, 5, 2, -1, (3, 4), 7, "turn", rent) != f.by_rule("x")
    assert not hasattr(f, "__dict__")  # slotted: no attribute can be added either


def test_a_hook_gets_the_firing_of_its_own_rule():
    """A rule's effects get a firing whose rule is the rule, with the landing's player, space,
    owner on landing and throw; the game keeps none of it."""
    seen = []
    game = scenario(dice=[(1, 2)], owners={"Baltic Avenue": 1})
    rb = game.rulebook  # shared by the session's tests: its hooks are put back below
    original = rb.land_hooks
    baltic = pos(game, "Baltic Avenue")

    def spy(fn):
        def hook(g, f):
            seen.append(f)
            fn(g, f)
        return hook

    # spy on the rent rule's hook of Baltic Avenue
    object.__setattr__(rb, "land_hooks", tuple(
        tuple((o, r, spy(h) if r == "rent" else h) for o, r, h in hooks) if q == baltic
        else hooks for q, hooks in enumerate(original)))
    try:
        # a game reads the rulebook's tables when it is built: this one sees the spy
        game = scenario(dice=[(1, 2)], owners={"Baltic Avenue": 1})
        game.play_turn()
    finally:
        object.__setattr__(rb, "land_hooks", original)
    (f,) = seen
    assert f.fields() == (0, baltic, 1, -1, (1, 2), 3, "rent", None, 0, -1, 0, 0, -1)
    for name in ("rule", "token", "_landed_owner"):
        assert not hasattr(game, name)


def test_a_dice_move_is_the_turns_and_a_cards_move_the_cards():
    """The move after doubles (a rule fired) and after passing GO (a rule fired) is the
    turn's; a card's move is the card's."""
    log: list[str] = []
    game = scenario(dice=[(3, 3), (2, 1)], positions={0: "Luxury Tax"},
                    decks={"Chance": ["CH01"]}, log=log)
    log.clear()  # the setup's events
    game.play_turn()
    moves = [e for e in events(log) if e["event"] == "move"]
    # Luxury Tax + 6, passing GO: Income Tax; doubles, so + 3: Chance, CH01 advances to GO
    assert [(e["to"], e["rule"]) for e in moves] == [
        ("Income Tax", "turn"), ("Chance", "turn"), ("GO", "card CH01")]
    paid = [(e["reason"], e["rule"]) for e in events(log) if e["event"] == "transfer"]
    assert paid == [("salary", "salary"), ("tax", "income_tax"), ("salary", "salary")]


def test_rent_is_the_rule_that_said_pay_rent_even_after_raising_funds():
    """Rent the player mortgages to pay is the `rent` rule's; the mortgage is the mortgages
    rule's."""
    log: list[str] = []
    game = scenario(dice=[(1, 2)], cash={0: 2}, owners={"Baltic Avenue": 1,
                                                           "Mediterranean Avenue": 0},
                    agents=[Scripted(raise_with=[Mortgage(1)]), Scripted(), Scripted()],
                    log=log)
    log.clear()
    game.play_turn()
    paid = [(e["event"], e.get("reason"), e["rule"]) for e in events(log)
            if e["event"] in ("mortgage", "transfer")]
    assert paid == [("mortgage", None, "mortgages"), ("transfer", "mortgage", "mortgages"),
                    ("transfer", "rent", "rent")]


def test_sell_names_its_building_and_the_rule_of_the_sale_price():
    """A sale back to the bank says which building; it is the rule that sets the price."""
    log: list[str] = []
    game = scenario(owners={"Mediterranean Avenue": 0, "Baltic Avenue": 0},
                    houses={"Mediterranean Avenue": 1, "Baltic Avenue": 1},
                    agents=[Scripted(actions=[Sell(3)]), Scripted(), Scripted()],
                    dice=[(6, 5)], log=log)
    game.play_turn()
    (sell,) = [e for e in events(log) if e["event"] == "sell"]
    assert sell == {"turn": 0, "event": "sell", "player": 0, "space": "Baltic Avenue",
                    "building": "house", "rule": "bank"}


def test_labels_are_the_provenance_of_the_settings(tmp_path):
    """A rule's `set` names the rule; a top-level `set` or a parameter names `set NAME`;
    a setting nobody sets is `default NAME`; the 1961 starting cash is `capital`'s."""
    rb = rulebook()
    assert rb.origins["starting_cash"] == "capital" == rb.origin("starting_cash")
    assert rb.origins["time_limit"] == "default time_limit"
    path = tmp_path / "top.rules"
    path.write_text('rulebook "top"\nextends "classic_1961.rules"\n\nset jail_fine = $60\n',
                    encoding="utf-8")
    top = rulelang.load(str(path), include_path=[str(RULESETS)])
    assert top.origins["jail_fine"] == "set jail_fine" and top.settings.jail_fine == 60
    timed = str(RULESETS / "classic_1961_timed.rules")
    assert rulelang.load(timed).origins["time_limit"] == "time_limit"  # the rule's parameter
    assert (rulelang.load(timed, parameters={"time_limit": "30"}).origins["time_limit"]
            == "set time_limit")


def test_a_refusal_names_the_rule_that_sets_the_matter():
    """The jail fine refused before the roll names the rule that sets it."""
    game = scenario(in_jail={0: 0}, cash={0: 10}, agents=[Scripted(jail="pay"), Scripted(),
                                                         Scripted()])
    try:
        game.play_turn()
    except rulelang.IllegalAction as err:
        assert err.rule == "leaving_jail" == game.rulebook.origins["jail_fine"]
    else:
        raise AssertionError("a fine the player cannot pay was accepted")


def test_an_action_asked_is_a_firing_that_permissions_read():
    """Firing.for_action: who acts, the lot and its owner, the partner, the bid, the building;
    its cause is the agent's answer, and an event's firing keeps the action's defaults."""
    f = Firing.for_action(2, 9, 2, building=HOTEL)
    assert (f.player, f.space, f.owner, f.rule, f.building, f.other, f.amount) == (
        2, 9, 2, "agent", HOTEL, -1, 0)
    assert Firing.for_action(0, other=1) != Firing.for_action(0, other=2)
    assert Firing.for_action(0, 5, amount=40).amount == 40
    e = Firing(1, 5, 2, -1, (3, 4), 7, "turn", None)
    assert (e.other, e.amount, e.building) == (-1, 0, NO_BUILDING)
    assert e.by_rule("rent").building == NO_BUILDING != HOUSE
