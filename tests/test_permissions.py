"""Permissions (`a player may not ACTION [if|unless C]`): each action refused where its
permission says, after the engine's validity checks, naming the rule and quoting the
permission, with nothing changed; `act.why_refused` agrees; the kind and building narrow it."""

from __future__ import annotations

import json

import pytest

import rulelang
from invariants import ROOT, play_checked
from rulelang.engine import actions as act
from rulelang.engine.actions import (
    Bid, Build, Buy, IllegalAction, Lift, Lot, Mortgage, Sell, SellAll, Trade, apply,
)
from rulelang.runner import make_agents
from scenario import Scripted, refused, scenario, snapshot

EVERY = "../tests/data/permissions/every_action.rules"  # from rulesets/
LIGHT_BLUE = {"Oriental Avenue": 0, "Vermont Avenue": 0, "Connecticut Avenue": 0}
RAILROADS = {"Reading Railroad": 0, "Pennsylvania Railroad": 0}


# a game that can end (E416), an option to name
_ENDS = ('option strict "Strict":\n  set jail_fine = $60\n\nrule tax:\n  cite "t", "t"\n'
         '  when a player lands on "Luxury Tax": pay $75\n\n')


@pytest.fixture
def rules(tmp_path):
    """Write a rules file extending an installed rulebook; returns its path."""
    def write(body: str, base: str = "classic_1961.rules") -> str:
        path = tmp_path / "variant.rules"
        path.write_text(f'rulebook "variant"\nextends "{base}"\n\n{_ENDS}{body}',
                        encoding="utf-8")
        return str(path)
    return write


def _game(**kw):
    game = scenario(name=EVERY, **kw)
    game.state.laps[0] = 0
    return game


def _text(game, action: str) -> set[str]:
    return {p.text for p in game.rulebook.permits[action]}


def _refused(game, seat, action, text):
    err = refused(game, seat, action, "strict")
    assert err.message == text and str(err) == f"refused by rule 'strict': {text}"
    assert act.why_refused(game, seat, action) == str(err)
    return err


H1 = ("houses", "a player may not build unless the player holds the whole group")
H2 = ("houses", "a player may not build unless the space has the fewest buildings of the group")
S1 = ("selling", "a player may not trade a property if a lot of the group has a building")
S2 = ("selling", "a player may not sell a building unless the space has the most buildings of "
      "the group")
M1 = ("mortgages", "a player may not mortgage a property if a lot of the group has a building")
B1 = ("unowned_property", "a player may not bid if the bid is more than the player's cash")
OFFICIAL = {  # design §4: the building, selling, mortgaging, trading and bidding rules
    "classic_1961.rules": {"build": [H1, H2], "trade": [S1], "sell": [S2], "mortgage": [M1],
                           "bid": [B1]},
    "french_standard.rules": {
        "build": [H1, H2, ("houses", "a player may not build if a lot of the group is "
                           "mortgaged")], "trade": [S1], "sell": [S2], "mortgage": [M1]},
    "dinos.rules": {
        "build": [H1, H2, ("houses", "a player may not build if a lot of the group is "
                           "mortgaged")], "trade": [S1], "sell": [("bank", S2[1])],
        "mortgage": [M1], "bid": [B1]},
    "lotr.rules": {
        "build": [H1, H2, ("mortgages", "a player may not build if a lot of the group is "
                           "mortgaged")], "trade": [S1], "sell": [S2], "mortgage": [M1],
        "bid": [B1]},
}
EVERY_GUARANTEE = frozenset({"whole_group", "build_evenly", "sell_evenly", "trade_unbuilt",
                             "mortgage_unbuilt"})


@pytest.mark.parametrize("name", sorted(OFFICIAL))
def test_official_rulebooks_forbid_by_permission(name):
    """The official rulebooks' building, selling, mortgaging, trading and bidding rules are
    permissions, in their own rules, and nothing else is forbidden by one."""
    rb = rulelang.load(str(ROOT / "rulesets" / name))
    assert set(rb.permits) == set(act._ACTION_NAMES.values()) | {
        "trade", "trade_card", "pay_fine", "use_card"}
    found = {a: [(p.rule, p.text) for p in ps] for a, ps in rb.permits.items() if ps}
    assert found == OFFICIAL[name]
    unmortgaged = {"build_unmortgaged"} if name != "classic_1961.rules" else set()
    in_hand = {"bid_in_hand"} if "bid" in OFFICIAL[name] else set()
    assert rb.guarantees == EVERY_GUARANTEE | unmortgaged | in_hand
    assert rb.whole_group_to_build and rb.trade_rule == "selling"


@pytest.mark.parametrize("text, found", [
    ("a player may not build unless the player holds the whole group", {"whole_group"}),
    ("a player may not build if not (the player holds the whole group and the space has the "
     "fewest buildings of the group)", {"whole_group", "build_evenly"}),
    ("a player may not build a house unless the player holds the whole group", set()),
    ("a player may not build unless the player holds the whole group or option strict", set()),
    ("a player may not build unless the player holds the whole group unless option strict",
     set()),
    ("a player may not build if the player holds the whole group", set()),
    ("a player may not sell a building unless the space has the most buildings of the group",
     {"sell_evenly"}),
    ("a player may not trade a street if a lot of the group has a building", {"trade_unbuilt"}),
    ("a player may not trade a railroad if a lot of the group has a building", set()),
    ("a player may not mortgage if a lot of the group has a house", set()),
    ("a player may not build if a lot of the group is mortgaged", {"build_unmortgaged"}),
    ("a player may not bid if the bid is more than the player's cash", {"bid_in_hand"}),
    ("a player may not bid if the bid is at least the player's cash", set()),
    ("a player may not bid if the bid is more than the player's worth", set()),
])
def test_what_a_permission_guarantees(rules, text, found):
    """Only the plain shapes guarantee something (save_check and the invariants read it): a
    permission narrowed, with another guard or worded otherwise guarantees nothing."""
    rb = rulelang.load(rules(f'rule only:\n  cite "t", "t"\n  {text}\n',
                             base="classic_board.rules"))
    assert rb.guarantees == frozenset(found)
    assert rb.whole_group_to_build == ("whole_group" in found)


def test_what_no_permission_forbids_is_allowed(rules):
    """Without permissions: a house on a group held in part, unevenly, beside a mortgaged lot;
    a mortgage and a trade beside buildings; a bid beyond the cash. Only the model's checks:
    a built lot is never mortgaged, and building on a mortgaged lot lifts it first."""
    path = rules('rule only:\n  cite "t", "t"\n  set players = 2 to 8\n',
                 base="classic_board.rules")
    game = scenario(name=path, owners={"Park Place": 0, "Boardwalk": 1, "Baltic Avenue": 0},
                    mortgaged=["Park Place"], houses={"Boardwalk": 2})
    rb = game.rulebook
    park, board = rb.space("Park Place").index, rb.space("Boardwalk").index
    cash = game.state.cash[0]
    apply(game, 0, Build(park))  # not the whole group, below Boardwalk's 2, mortgaged: lifted
    assert game.state.houses[park] == 1 and not game.state.mortgaged[park]
    assert cash - game.state.cash[0] == rb.spaces[park].house_cost + act.lift_cost(game, park)
    apply(game, 0, Mortgage(rb.space("Baltic Avenue").index))
    err = refused(game, 1, Mortgage(board), "engine")
    assert "sell them before mortgaging" in err.message
    game.agents[1] = Scripted(accept=True)
    apply(game, 0, Trade(1, give=(park,), cash=0))
    assert game.state.owner[park] == 1 and game.state.houses[park] == 1


def test_build_refused_in_jail_and_a_hotel_before_a_lap():
    """`build if the player is in jail` refuses every build in jail; `build a hotel unless
    the player has completed a lap` only the hotel, until the player has passed GO."""
    game = _game(owners=LIGHT_BLUE, houses={q: 4 for q in LIGHT_BLUE} | {"Oriental Avenue": 3},
                 in_jail={0: 0})
    oriental = game.rulebook.space("Oriental Avenue").index
    vermont = game.rulebook.space("Vermont Avenue").index
    _refused(game, 0, Build(oriental), "a player may not build if the player is in jail")
    game.state.in_jail[0] = False
    apply(game, 0, Build(oriental))  # a house: allowed
    _refused(game, 0, Build(vermont),
             "a player may not build a hotel unless the player has completed a lap")
    game.state.laps[0] = 1
    assert act.why_refused(game, 0, Build(vermont)) is None
    apply(game, 0, Build(vermont))
    assert game.state.hotels[vermont] == 1


def test_validity_comes_before_permissions():
    """An action the engine's checks refuse is refused by them, whatever the permissions."""
    game = _game(owners={"Oriental Avenue": 1}, in_jail={0: 0})
    oriental = game.rulebook.space("Oriental Avenue").index
    err = refused(game, 0, Build(oriental), "engine")  # no rule sets max_houses
    assert "is not the player's" in err.message
    # the permissions alone would refuse it too
    assert act.why_refused(game, 0, Build(oriental)) is not None


def test_sales_refused_in_jail():
    """A house, a hotel, the group's buildings: each sale refused by its own permission."""
    game = _game(owners=LIGHT_BLUE, houses={"Oriental Avenue": 4, "Vermont Avenue": 4},
                 hotels={"Connecticut Avenue": 1}, in_jail={0: 0})
    rb = game.rulebook
    oriental, conn = rb.space("Oriental Avenue").index, rb.space("Connecticut Avenue").index
    _refused(game, 0, Sell(conn), "a player may not sell a hotel if the player is in jail")
    _refused(game, 0, SellAll(oriental),
             "a player may not sell the group's buildings if the player is in jail")
    game.state.in_jail[0] = False
    apply(game, 0, Sell(conn))
    game.state.in_jail[0] = True
    _refused(game, 0, Sell(oriental), "a player may not sell a house if the player is in jail")


def test_mortgage_narrowed_by_kind():
    """`mortgage a railroad if ...` refuses railroads only; `mortgage a street unless ...`
    streets only."""
    game = _game(owners=RAILROADS | {"Baltic Avenue": 0}, in_jail={0: 0})
    rb = game.rulebook
    reading, baltic = rb.space("Reading Railroad").index, rb.space("Baltic Avenue").index
    _refused(game, 0, Mortgage(reading),
             "a player may not mortgage a railroad if the player is in jail")
    _refused(game, 0, Mortgage(baltic),
             "a player may not mortgage a street unless the player has completed a lap")
    game.state.in_jail[0] = False
    apply(game, 0, Mortgage(reading))
    game.state.in_jail[0] = True
    _refused(game, 0, Lift(reading), "a player may not lift a mortgage if the player is in jail")
    game.state.in_jail[0] = False
    apply(game, 0, Lift(reading))
    assert not game.state.mortgaged[reading]


def test_trade_checked_per_deed_with_its_owner_before_the_trade():
    """`trade a utility unless the owner has completed a lap`: the owner is the deed's owner
    before the trade, whichever way it goes; a jail card in jail is refused too."""
    game = _game(owners={"Electric Company": 1, "Baltic Avenue": 0},
                 agents=[Scripted(), Scripted(accept=True), Scripted()],
                 )
    rb = game.rulebook
    electric, baltic = rb.space("Electric Company").index, rb.space("Baltic Avenue").index
    game.state.laps[1] = 0
    text = "a player may not trade a utility unless the owner has completed a lap"
    _refused(game, 0, Trade(1, take=(electric,), cash=10), text)
    game.state.laps[1] = 1
    game.state.in_jail[0] = True  # `trade a street if the owner is in jail`: Baltic's owner
    _refused(game, 0, Trade(1, give=(baltic,), take=(electric,)),
             "a player may not trade a street if the owner is in jail")
    game.state.in_jail[0] = False
    apply(game, 0, Trade(1, give=(baltic,), take=(electric,)))
    assert game.state.owner[electric] == 0 and game.state.owner[baltic] == 1


def test_trading_a_jail_card_refused_in_jail():
    rb = rulelang.load(str(ROOT / "rulesets" / EVERY))
    card = next((d.name, c.id) for d in rb.decks for c in d.cards if c.keep)
    game = _game(jail_cards={0: [card]}, agents=[Scripted(), Scripted(accept=True), Scripted()])
    game.state.in_jail[0] = True
    _refused(game, 0, Trade(1, give_cards=1, cash=0),
             "a player may not trade a jail card if the player is in jail")


def test_a_player_refused_a_purchase_is_not_asked_and_the_lot_is_auctioned():
    """`buy a street unless the player has completed a lap`: the agent is not asked, the lot
    goes to auction; a railroad may be bought."""
    log: list[str] = []
    game = _game(agents=[Scripted(buy=True), Scripted(bids=[50]), Scripted()], log=log)
    rb = game.rulebook
    baltic, reading = rb.space("Baltic Avenue").index, rb.space("Reading Railroad").index
    assert act.why_refused(game, 0, Buy(baltic)) is not None
    game.offer(0, baltic, True, "turn")
    assert game.state.owner[baltic] == 1  # auctioned, won by seat 1
    assert any('"event":"auction"' in line for line in log)
    # the log names the permission's rule as the cause of the refusal, the turn's of the auction
    assert [json.loads(line)["rule"] for line in log
            if '"event":"refused"' in line] == ["strict"]
    assert any('"event":"auction"' in line and '"rule":"turn"' in line for line in log)
    game.offer(0, reading, True, "turn")
    assert game.state.owner[reading] == 0


def test_a_refused_bid_stops_the_auction_and_changes_nothing():
    """`bid if the player is in jail`: a jailed player's bid is refused (an agent that asks
    `why_refused` first never makes it)."""
    game = _game(agents=[Scripted(bids=[20]), Scripted(), Scripted()], in_jail={0: 0})
    baltic = game.rulebook.space("Baltic Avenue").index
    assert act.why_refused(game, 0, Bid(Lot("deed", baltic), 20)) is not None
    before = snapshot(game)
    with pytest.raises(IllegalAction) as err:
        game.auction(baltic, "turn")
    assert err.value.message == "a player may not bid if the player is in jail"
    assert snapshot(game) == before


@pytest.mark.parametrize("way, text", [
    ("pay", "a player may not pay the fine before rolling unless the player has completed a "
            "lap"),
    ("card", "a player may not use a jail card if the player has not completed a lap"),
])
def test_a_refused_way_out_of_jail(way, text):
    rb = rulelang.load(str(ROOT / "rulesets" / EVERY))
    card = next((d.name, c.id) for d in rb.decks for c in d.cards if c.keep)
    game = _game(agents=[Scripted(jail=way), Scripted(), Scripted()], in_jail={0: 0},
                 jail_cards={0: [card]}, dice=[(1, 2)])
    before = snapshot(game)
    with pytest.raises(IllegalAction) as err:
        game._jail_turn(0)
    assert (err.value.rule, err.value.message) == ("strict", text)
    assert snapshot(game) == before
    assert act.why_refused(game, 0, act.PAY_FINE if way == "pay" else act.USE_CARD) is not None
    game.state.laps[0] = 1
    assert act.why_refused(game, 0, act.PAY_FINE if way == "pay" else act.USE_CARD) is None


def test_legal_actions_lists_no_refused_action():
    game = _game(owners=LIGHT_BLUE | RAILROADS, in_jail={0: 0})
    listed = act.legal_actions(game, 0)
    assert listed == []  # in jail: no build, no mortgage of a railroad, no street before a lap
    game.state.in_jail[0] = False
    listed = act.legal_actions(game, 0)
    assert listed and all(act.why_refused(game, 0, a) is None for a in listed)
    assert all(not isinstance(a, Mortgage) or game.rulebook.spaces[a.pos].kind == "railroad"
               for a in listed)


@pytest.mark.parametrize("agents", ["default", "random", "mixed"])
def test_agents_never_submit_a_refused_action(agents):
    """Games of a rulebook with a permission on every action play to the end with every
    invariant: no agent's action or answer is ever refused (a refusal would raise)."""
    for seed in range(6):
        names = {"default": ["default"] * 4, "random": ["random"] * 4,
                 "mixed": ["default", "random"] * 2}[agents]
        game = play_checked("tests/data/permissions/every_action.rules",
                            make_agents(names, 4), seed, 400)
        assert game.over


@pytest.mark.parametrize("name", sorted(OFFICIAL))
def test_a_guarantee_read_on_the_state_answers_as_its_permission(name):
    """A permission that says exactly some guarantees (Permit.mask) is read on the state by
    the engine (`_breaks`), not by its compiled condition: both give the same answer for every
    player and lot, in every state of random games."""
    from rulelang.engine.firing import HOTEL, HOUSE, NO_BUILDING, Firing
    from rulelang.engine.game import Game

    rb = rulelang.load(str(ROOT / "rulesets" / name))
    masked = [(action, p) for action, ps in rb.permits.items() for p in ps if p.mask]
    assert {action for action, _ in masked} >= {"build", "sell", "mortgage", "trade"}
    compared = refused = 0
    for seed in range(2):
        game = Game(rb, make_agents("random", 4), seed=seed, max_turns=200)
        while not game.over:
            game.play_turn()
            st = game.state
            for seat in range(st.players):
                for pos in range(rb.size):
                    for action, p in masked:
                        building = {"build": HOUSE, "sell": HOTEL}.get(action, NO_BUILDING)
                        asked = Firing.for_action(seat, pos, st.owner[pos], building=building)
                        said = p.test(game, asked)
                        assert act._breaks(game, p.mask, seat, pos) == said, (p.text, pos)
                        compared += 1
                        refused += said
    assert compared > 10_000 and 0 < refused < compared
