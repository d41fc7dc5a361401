"""A rule-based state machine driving the engine's actions directly — buy, bid, build, sell,
mortgage, lift, trade, pay, leave jail, play a turn — legal and illegal, on every ruleset.

An illegal action must be refused with IllegalAction naming a rule and change nothing; a legal
one must do exactly what it says; and every invariant holds after every event and every step.
"""

from __future__ import annotations

import pytest
from hypothesis import event, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from invariants import CheckedGame, Checker, causes, load, ruleset_paths
from rulelang.engine import actions as act
from rulelang.engine.actions import Build, IllegalAction, Lift, Mortgage, Sell, SellAll, Trade
from rulelang.engine import moves
from rulelang.engine.agents import RandomAgent
from rulelang.engine.tables import Choice
from rulelang.engine.game import GameOver
from scenario import snapshot
from strategies import SEEDS, players

# every ruleset, and a rulebook with a permission on every action
RULESETS = ruleset_paths() + ["tests/data/permissions/every_action.rules"]
# the official rulebooks' bids in cash (B1)
_CASH_ONLY = "a player may not bid if the bid is more than the player's cash"
BIDS = st.lists(st.one_of(st.none(), st.integers(-10, 400), st.integers(400, 5000),
                          st.floats(0, 500), st.text(max_size=3), st.booleans()), max_size=4)
CARDS = st.one_of(st.just(0), st.integers(-1, 2))
JAIL_CHOICES = st.sampled_from(["roll", "pay", "card", "bribe", None, 3])
# answers to `the player chooses one` / a space of the player's choice: valid or not
CHOICES = st.one_of(st.integers(-2, 5), st.sampled_from([None, True, 1.0, "0", (0,)]))


class Puppet(RandomAgent):
    """Answers what the machine scripts for the next step; a random legal answer otherwise."""

    name = "puppet"

    def __init__(self):
        super().__init__()
        self.script: dict = {}

    def buy(self, game, seat, pos):
        return self.script.pop("buy") if "buy" in self.script else super().buy(game, seat, pos)

    def bid(self, game, seat, lot, high):
        if "bids" in self.script:
            bids = self.script["bids"]
            return bids.pop(0) if bids else None
        return super().bid(game, seat, lot, high)

    def jail(self, game, seat):
        return self.script.pop("jail") if "jail" in self.script else super().jail(game, seat)

    def choose(self, game, seat, choice):
        if "choose" in self.script:
            return self.script.pop("choose")
        return super().choose(game, seat, choice)

    def accept_trade(self, game, seat, proposer, trade):
        if "accept" in self.script:
            return self.script.pop("accept")
        return super().accept_trade(game, seat, proposer, trade)

    def between(self, game, seat):
        """Passes when the machine says so (a step that expects the state unchanged)."""
        if self.script.get("quiet"):
            return None
        return super().between(game, seat)


class EngineMachine(RuleBasedStateMachine):
    """One game of a ruleset, driven one action at a time."""

    @initialize(data=st.data())
    def start(self, data):
        ruleset = data.draw(st.sampled_from(RULESETS), label="ruleset")
        n = data.draw(players(ruleset), label="players")
        self.deal(ruleset, n, data.draw(SEEDS, label="seed"))

    def deal(self, ruleset, n, seed):
        self.ruleset = ruleset
        self.puppets = [Puppet() for _ in range(n)]
        self.game = CheckedGame(load(ruleset), self.puppets, seed, max_turns=100_000,
                                checker=Checker(keep_lines=False))
        self.rb = self.game.rulebook
        self.permitting = {p.rule for permits in self.rb.permits.values() for p in permits}

    # ------------------------------------------------------------ helpers

    def seat(self, data, alive=True):
        st_ = self.game.state
        seats = [s for s in range(st_.players) if not (alive and st_.bankrupt[s])]
        return data.draw(st.sampled_from(seats), label="seat")

    def lot(self, data, seat):
        """Mostly one of the seat's lots, else any property, any space or no space at all."""
        own = [q for q in self.rb.properties if self.game.state.owner[q] == seat]
        anywhere = st.one_of(st.sampled_from(self.rb.properties),
                             st.integers(-2, self.rb.size + 1))
        if own and data.draw(st.integers(0, 3), label="own lot?"):
            return data.draw(st.sampled_from(own), label="space")
        return data.draw(anywhere, label="space")

    def target(self, data):
        """(seat, space) for an action on a lot: often a built lot or a lot of a whole group
        with its owner, else any seat and one of its lots or any space."""
        game, rb = self.game, self.rb
        owner = game.state.owner
        built = [q for q in rb.properties if game.state.houses[q] or game.state.hotels[q]]
        whole = [q for g, o in enumerate(game.whole_groups()) if o >= 0 for q in rb.groups[g]]
        pools = [pool for pool in (built, whole) if pool]
        choice = data.draw(st.integers(0, len(pools)), label="kind of lot")
        if choice < len(pools):
            pos = data.draw(st.sampled_from(pools[choice]), label="space")
            return owner[pos], pos
        seat = self.seat(data, alive=False)
        return seat, self.lot(data, seat)

    def act(self, seat, action):
        """Apply an action: refused and unchanged, or done; returns whether it was done."""
        game = self.game
        before, versions = snapshot(game), (game.version,
                                             list(game.seat_version))
        try:
            act.apply(game, seat, action)
        except IllegalAction as err:
            self.refused(err, before, versions)
            event(f"{type(action).__name__} refused")
            return False
        except GameOver:
            pass
        event(f"{type(action).__name__} done")
        return True

    def refused(self, err, before, versions):
        game = self.game
        assert str(err).startswith(f"refused by rule '{err.rule}': ") and err.message
        if err.rule in self.permitting:  # a permission refused it: its text is quoted
            event("refused by a permission")
        assert err.rule in causes(game.rulebook), err.rule
        assert snapshot(game) == before, f"a refused action changed the state: {err}"
        assert (game.version, list(game.seat_version)) == versions

    def clear_scripts(self):
        for p in self.puppets:
            p.script.clear()

    # ------------------------------------------------------------ the actions

    @rule(data=st.data(), answer=st.booleans())
    def buy(self, data, answer):
        """Offered a lot: a yes buys it at its price if the bank has it and the cash is there."""
        game, st_ = self.game, self.game.state
        seat = self.seat(data)
        pos = data.draw(st.sampled_from(self.rb.properties), label="space")
        price = self.rb.spaces[pos].price
        free, cash, bank = st_.owner[pos] < 0, st_.cash[seat], st_.cash[st_.bank]
        refused = act.why_refused(game, seat, act.Buy(pos))
        self.puppets[seat].script["buy"] = answer
        game.offer(seat, pos, False, "turn")
        self.clear_scripts()
        if refused is not None:
            event("Buy refused: not asked")
        if answer and free and cash >= price and refused is None:
            assert st_.owner[pos] == seat and st_.cash[seat] == cash - price
            assert st_.cash[st_.bank] == bank + price
        elif answer and free and refused is None:
            # short of cash: bought if its sales and mortgages raised the price, else not
            assert st_.owner[pos] in (seat, -1)
        else:
            assert st_.owner[pos] == (-1 if free else st_.owner[pos])
            assert st_.cash[seat] == cash

    @rule(data=st.data())
    def buy_group(self, data):
        """Offered every lot of a group in turn, a player says yes to each: groups get whole."""
        seat = self.seat(data)
        group = data.draw(st.sampled_from(self.rb.groups), label="group")
        for pos in group:
            self.puppets[seat].script["buy"] = True
            self.game.offer(seat, pos, False, "turn")
        self.clear_scripts()

    @precondition(lambda self: any(self.game.state.owner[q] < 0 for q in self.rb.properties))
    @rule(data=st.data())
    def bid(self, data):
        """An auction of a bank lot with scripted bids, some of them illegal."""
        game, st_ = self.game, self.game.state
        pos = data.draw(st.sampled_from([q for q in self.rb.properties if st_.owner[q] < 0]),
                        label="space")
        for p in self.puppets:
            p.script["bids"] = data.draw(BIDS, label="bids")
        before, versions = snapshot(game), (game.version,
                                             list(game.seat_version))
        cash = list(st_.cash)
        try:
            game.auction(pos, "turn")
        except IllegalAction as err:
            self.refused(err, before, versions)
            return
        except GameOver:
            return
        finally:
            self.clear_scripts()
        winner = st_.owner[pos]
        if winner >= 0 and any(p.text == _CASH_ONLY for p in self.rb.permits["bid"]):
            paid = cash[winner] - st_.cash[winner]
            assert 0 < paid <= cash[winner]
            assert st_.cash[st_.bank] == cash[st_.bank] + paid

    @rule(data=st.data())
    def build(self, data):
        game, st_, s = self.game, self.game.state, self.game.settings
        seat, pos = self.target(data)
        if 0 <= pos < self.rb.size and self.rb.spaces[pos].kind == "street" and any(
                st_.mortgaged[q] for q in self.rb.groups[self.rb.spaces[pos].group]):
            forbidden = "build_unmortgaged" in self.rb.guarantees
            event(f"Build on a group with a mortgaged lot (forbidden: {forbidden})")
        level = act.level(game, pos) if 0 <= pos < self.rb.size else 0
        cash, lifted = st_.cash[seat], 0 <= pos < self.rb.size and st_.mortgaged[pos]
        auctions = self.game.checker.events
        if not self.act(seat, Build(pos)) or self.rb.course.shortage:
            return
        sp = self.rb.spaces[pos]
        assert act.level(game, pos) == (s.houses_per_hotel + 1 if level >= s.houses_per_hotel
                                        else level + 1)
        cost = sp.hotel_cost if st_.hotels[pos] else sp.house_cost
        if lifted:
            cost += act.lift_cost(game, pos)
        assert st_.cash[seat] == cash - cost and self.game.checker.events > auctions

    @rule(data=st.data())
    def sell(self, data):
        game, st_, s = self.game, self.game.state, self.game.settings
        seat, pos = self.target(data)
        hotel = 0 <= pos < self.rb.size and st_.hotels[pos]
        level = act.level(game, pos) if 0 <= pos < self.rb.size else 0
        cash = st_.cash[seat]
        if self.act(seat, Sell(pos)):
            sp = self.rb.spaces[pos]
            assert act.level(game, pos) == (s.houses_per_hotel if hotel else level - 1)
            cost = sp.hotel_cost if hotel else sp.house_cost
            assert st_.cash[seat] == cash + cost * s.building_sale // 100

    @rule(data=st.data(), kind=st.sampled_from(["build", "sell", "mortgage", "lift", "buy"]))
    def act_between_turns(self, data, kind):
        """An action between two turns, by any seat: the actions of a turn are validated as
        on the player's turn; any other (a purchase) is refused and changes nothing."""
        game = self.game
        seat, pos = self.target(data)
        action = {"build": Build, "sell": Sell, "mortgage": Mortgage, "lift": Lift,
                  "buy": act.Buy}[kind](pos)
        before, versions = snapshot(game), (game.version, list(game.seat_version))
        game.between = True
        try:
            act.apply_between(game, seat, action)
            event(f"{kind} between turns done")
            assert kind != "buy"
        except IllegalAction as err:
            if kind == "buy":
                assert "not an action between turns" in err.message
            else:
                self.refused(err, before, versions)
            assert snapshot(game) == before
            event(f"{kind} between turns refused")
        except GameOver:
            pass
        finally:
            game.between = False

    @rule(data=st.data())
    def sell_all(self, data):
        game, st_ = self.game, self.game.state
        seat, pos = self.target(data)
        if self.act(seat, SellAll(pos)):
            # the player's lots of the group (under City Build others may own built lots)
            mine = [q for q in self.rb.groups[self.rb.spaces[pos].group] if st_.owner[q] == seat]
            assert not any(st_.houses[q] or st_.hotels[q] for q in mine)

    @rule(data=st.data())
    def mortgage(self, data):
        st_ = self.game.state
        seat, pos = self.target(data)
        cash = st_.cash[seat]
        if self.act(seat, Mortgage(pos)):
            assert st_.mortgaged[pos] and st_.cash[seat] == cash + self.rb.spaces[pos].mortgage

    @rule(data=st.data())
    def lift(self, data):
        st_ = self.game.state
        seat, pos = self.target(data)
        cash = st_.cash[seat]
        if self.act(seat, Lift(pos)):
            m = self.rb.spaces[pos].mortgage
            interest = -(-m * self.game.settings.mortgage_interest // 100)
            assert not st_.mortgaged[pos] and st_.cash[seat] == cash - m - interest

    @rule(data=st.data(), accept=st.booleans())
    def trade(self, data, accept):
        """Any offer: deeds either way (held or not), cash, jail cards, to anyone."""
        game, st_ = self.game, self.game.state
        seat = self.seat(data, alive=False)
        others = [p for p in range(st_.players) if p != seat]
        partner = data.draw(st.one_of(st.sampled_from(others), st.integers(-1, st_.players)),
                            label="partner")
        def lots(who):
            """Lots of `who` (without buildings, as a trade needs) or any lots at all."""
            own = [q for q in self.rb.properties if st_.owner[q] == who and not (
                self.rb.spaces[q].group >= 0 and act.group_has_buildings(game, self.rb.spaces[q].group))]
            anything = st.lists(st.sampled_from(self.rb.properties), max_size=3)
            if not own:
                return anything
            return st.one_of(st.lists(st.sampled_from(own), max_size=2, unique=True), anything)
        offer = Trade(partner, give=tuple(data.draw(lots(seat), label="give")),
                      take=tuple(data.draw(lots(partner), label="take")),
                      cash=data.draw(st.one_of(st.integers(-100, 100), st.integers(-2000, 2000)),
                                     label="cash"),
                      give_cards=data.draw(CARDS, label="give_cards"),
                      take_cards=data.draw(CARDS, label="take_cards"))
        if 0 <= partner < st_.players:
            self.puppets[partner].script["accept"] = accept
        before = snapshot(game)
        cards = [len(h) for h in st_.jail_cards]
        done = self.act(seat, offer)
        self.clear_scripts()
        if not done:
            return
        if not accept:
            assert snapshot(game) == before, "a trade the partner refused changed the state"
            return
        for q in offer.give:
            assert st_.owner[q] == partner or st_.bankrupt[partner]
        for q in offer.take:
            assert st_.owner[q] == seat or st_.bankrupt[seat]
        moved = offer.give_cards - offer.take_cards
        if not (st_.bankrupt[seat] or st_.bankrupt[partner]):
            assert len(st_.jail_cards[seat]) == cards[seat] - moved
            assert len(st_.jail_cards[partner]) == cards[partner] + moved

    @rule(data=st.data(), amount=st.one_of(st.integers(0, 300), st.integers(0, 4000)),
          to_bank=st.booleans())
    def pay(self, data, amount, to_bank):
        """A debt: paid in cash, by raising funds, or by bankruptcy to the creditor."""
        game, st_ = self.game, self.game.state
        seat = self.seat(data)
        others = [s for s in range(st_.players) if s != seat and not st_.bankrupt[s]]
        creditor = st_.bank if to_bank or not others else data.draw(st.sampled_from(others))
        had = st_.cash[creditor]
        try:
            paid = game.charge(seat, creditor, amount, "test", "turn")
        except GameOver:
            return
        assert paid == (not st_.bankrupt[seat])
        if paid and creditor != st_.bank:
            assert st_.cash[creditor] == had + amount

    @rule(data=st.data(), answer=CHOICES)
    def choose(self, data, answer):
        """A choice among effects or spaces: a valid answer is logged and returned; any other
        is refused, naming the rule that asks, and changes nothing."""
        game = self.game
        seat = self.seat(data)
        n = data.draw(st.integers(2, 4), label="options")
        spaces = tuple(data.draw(st.lists(st.sampled_from(range(self.rb.size)), min_size=n,
                                          max_size=n, unique=True), label="spaces")) \
            if data.draw(st.booleans(), label="spaces?") else ()
        # the rule that asks: a rule, or a card (a rulebook of equipment only has no rule)
        askers = self.rb.rule_names + tuple(c.rule for d in self.rb.decks for c in d.cards)
        asks = data.draw(st.sampled_from(askers or ("agent",)), label="rule")
        choice = Choice(asks, tuple(f"option {i}" for i in range(n)), spaces)
        self.puppets[seat].script["choose"] = answer
        before, versions = snapshot(game), (game.version, list(game.seat_version))
        try:
            got = moves.choose(game, seat, choice)
        except IllegalAction as err:
            assert not (type(answer) is int and 0 <= answer < n)
            assert err.rule == asks
            self.refused(err, before, versions)
            event("choice refused")
            return
        finally:
            self.clear_scripts()
        assert type(answer) is int and got == answer and 0 <= got < n
        assert snapshot(game) == before
        event("choice done")

    @rule(data=st.data())
    def send_to_jail(self, data):
        seat = self.seat(data)
        self.game.go_to_jail(seat, "turn")
        assert self.game.state.in_jail[seat] and self.game.state.position[seat] == self.rb.jail

    @rule(choice=JAIL_CHOICES)
    def play_turn(self, choice):
        """A whole turn; a player in jail answers `choice`, which may be refused."""
        game = self.game
        if game.state.bankrupt[game.state.current]:
            # a debt above bankrupted the player whose turn it was: the others may act, then
            # its turn passes
            game.play_turn()
            return
        seat = game.state.current
        jailed = game.state.in_jail[seat]
        if jailed:
            self.puppets[seat].script["jail"] = choice
            for p in self.puppets:  # a refused choice must find the state as it was
                p.script["quiet"] = True
        before, versions = snapshot(game), (game.version,
                                             list(game.seat_version))
        try:
            game.play_turn()
        except IllegalAction as err:
            ways = self.rb.permits["pay_fine"] + self.rb.permits["use_card"]
            assert jailed and (err.rule == self.rb.origin("jail_fine")
                               or (err.rule, err.message) in {(p.rule, p.text) for p in ways})
            if not self.rb.turn_start_hooks:
                self.refused(err, before, versions)
        finally:
            self.clear_scripts()

    # ------------------------------------------------------------ after every step

    @invariant()
    def invariants_hold(self):
        """Every invariant; a game that ended says why, and the machine deals a new one."""
        if not hasattr(self, "game"):
            return
        game = self.game
        game.checker.settling.clear()
        game.checker.check_state()
        # no permission refuses an action legal_actions lists
        for seat in range(game.state.players):
            if not game.state.bankrupt[seat]:
                for action in act.legal_actions(game, seat):
                    assert act.why_refused(game, seat, action) is None, action
        if game.over:
            assert game.end_reason
            if game.end_reason == "last_player":
                assert game.state.bankrupt.count(False) == 1
                assert not game.state.bankrupt[game.winner]
            self.deal(self.ruleset, len(self.puppets), game.seed + 1)


TestEngineMachine = EngineMachine.TestCase
# a run of the machine costs about as much as one game: eight times the profile's examples
TestEngineMachine.settings = settings(settings.default,
                                      max_examples=8 * settings.default.max_examples)


def test_puppet_answers_then_falls_back():
    """The puppet answers from its script once, then like a random agent."""
    game = CheckedGame(load(RULESETS[0]), [Puppet(), Puppet(), Puppet()], seed=1)
    puppet = game.agents[0]
    puppet.script["buy"] = True
    assert puppet.buy(game, 0, game.rulebook.properties[0]) is True
    assert "buy" not in puppet.script


@pytest.mark.parametrize("bid", ["10", 2.5, True])
def test_an_illegal_bid_is_refused_and_changes_nothing(bid):
    """A bid that is not a whole amount of at least the minimum is refused, naming the rule."""
    game = CheckedGame(load("rulesets/classic_1961.rules"), [Puppet(), Puppet(), Puppet()],
                       seed=1)
    game.agents[0].script["bids"] = [bid]
    before = snapshot(game)
    with pytest.raises(IllegalAction, match="a bid must be a whole amount"):
        game.auction(game.rulebook.properties[0], "unowned_property")
    assert snapshot(game) == before
