"""The rules' invariants, checked after every event of a game through the event log callable.

`Checker` is a log callable: give it to a `Game` (see `checked_game`) and every event the
engine writes is followed by a full check of the state — money, buildings, deeds, cards,
cash, the end. The engine pays nothing for it when the log is off, and nothing here changes
the game. A violation raises `Violation` naming the event that exposed it.
"""

from __future__ import annotations

import functools
import json
from collections import Counter
from pathlib import Path

import rulelang
from rulelang.engine.endings import BOUNDS
from rulelang.engine.firing import ENGINE_CAUSES
from rulelang.engine.game import Game
from rulelang.engine.settings import SETTINGS

ROOT = Path(__file__).resolve().parent.parent
RULESETS_DIR = ROOT / "rulesets"

# Events of a bankruptcy in progress: until one of these stops, the bankrupt player may
# still hold what it is handing over (its buildings are sold, then cash, cards and deeds go).
_SETTLING = {"bankrupt", "sell_group", "deed", "mortgage_cancelled"}
_SETTLING_TRANSFERS = {"building sale", "bankruptcy"}

# What every ruleset played so far gave: games and events per ruleset (for the summary).
TALLY: Counter = Counter()


def ruleset_paths() -> list[str]:
    """Every rulebook in rulesets/, its subfolders included, relative to the project root."""
    return sorted(str(p.relative_to(ROOT)) for p in RULESETS_DIR.glob("**/*.rules"))


def causes(rb: rulelang.Rulebook) -> set[str]:
    """What an event or a refusal may name as its cause: a rule of the rulebook, a card
    ("card ID"), what decides a setting ("set NAME", "default NAME") or the engine itself."""
    return (set(rb.rule_names) | {c.rule for d in rb.decks for c in d.cards}
            | {rb.origin(name) for name in SETTINGS} | set(ENGINE_CAUSES))


class Violation(AssertionError):
    """An invariant does not hold."""


class Checker:
    """A log callable that checks every invariant after every event; keeps the lines too."""

    def __init__(self, keep_lines: bool = True):
        self.game: Game | None = None
        self.lines: list[str] | None = [] if keep_lines else None
        self.events = 0
        self.ends = 0
        self.settling: set[int] = set()
        self._last = ""
        self._holdings: list = []  # what the deeds and buildings last passed with
        self._cards: list = []  # what the decks and the hands last passed with

    def bind(self, game: Game, rb: rulelang.Rulebook) -> None:
        self.game = game
        self.causes = causes(rb)
        self.street_groups = [
            members for members in rb.groups if rb.spaces[members[0]].kind == "street"
        ]
        self.deck_sizes = [len(d.cards) for d in rb.decks]
        self.card_ids = [{c.id: i for i, c in enumerate(d.cards)} for d in rb.decks]
        self.deck_index = {d.name: i for i, d in enumerate(rb.decks)}

    def __call__(self, line: str) -> None:
        if self.lines is not None:
            self.lines.append(line)
        self.events += 1
        self._last = line
        event = json.loads(line)
        kind = event["event"]
        if event.get("rule") not in self.causes:
            self.fail(f"the event names no cause of the rulebook: {event.get('rule')!r}")
        if self.ends:
            self.fail("an event after the end of the game")
        if kind == "bankrupt":
            self.settling.add(event["player"])
        elif kind not in _SETTLING and not (
            kind == "transfer" and event["reason"] in _SETTLING_TRANSFERS
        ):
            self.settling.clear()
        in_transit = None
        if kind == "draw":
            deck = self.deck_index[event["deck"]]
            in_transit = (deck, self.card_ids[deck][event["card"]])
        elif kind == "build":
            if event["building"] == "hotel":
                self.check_hotel(event["space"])
            self.check_even(event["space"], +1)
        elif kind == "sell":
            self.check_even(event["space"], -1)
        elif kind == "refused":
            self.check_refused(event)
        elif kind == "end":
            self.ends += 1
            self.check_end(event)
        elif kind == "choice":
            options, chosen = event["options"], event["chosen"]
            if len(options) < 2 or type(chosen) is not int or not 0 <= chosen < len(options):
                self.fail(f"a choice of option {chosen!r} among {len(options)}")
        self.check_state(in_transit)

    def fail(self, message: str) -> None:
        game = self.game
        where = f"turn {game.state.turn}, after event {self.events}: {self._last}" if game else ""
        raise Violation(f"{message} ({where})")

    # ------------------------------------------------------------ the state

    def check_state(self, in_transit=None) -> None:
        """Every invariant of the state as it stands; a card being drawn may be in transit."""
        game = self.game
        st, rb, s = game.state, game.rulebook, game.settings
        self.check_money()
        # The seats are looked at one by one only when one may break a rule: a bankrupt or
        # jailed player, jail turns or a position out of their range (C-speed tests first).
        position, jail_turns = st.position, st.jail_turns
        if any(st.bankrupt) or any(st.in_jail) or min(jail_turns, default=0) < 0 \
                or max(jail_turns, default=0) > s.jail_turns \
                or min(position, default=0) < 0 or max(position, default=0) >= rb.size:
            self.check_seats()
        # The deeds and the buildings are checked again only when what they read changed
        # since they last passed, and the cards only when a deck or a hand did: a transfer,
        # a move or a roll leaves them as they were, and the same state gets the same
        # verdict. Lists compare in C; a copy is kept only when they changed.
        held = self._holdings
        if not held or st.owner != held[0] or st.mortgaged != held[1] \
                or st.houses != held[2] or st.hotels != held[3] or st.bankrupt != held[4] \
                or self.settling != held[5] or st.bank_houses != held[6] \
                or st.bank_hotels != held[7]:
            self.check_holdings()
            self._holdings = [st.owner[:], st.mortgaged[:], st.houses[:], st.hotels[:],
                              st.bankrupt[:], set(self.settling), st.bank_houses,
                              st.bank_hotels]
        cards = self._cards
        if not cards or st.decks != cards[0] or st.jail_cards != cards[1] \
                or in_transit != cards[2]:
            self.check_cards(in_transit)
            self._cards = [[d[:] for d in st.decks], [h[:] for h in st.jail_cards],
                           in_transit]

    def check_seats(self) -> None:
        """Bankrupt players hold nothing, a jailed player stands on the jail, jail turns
        and positions within their range."""
        game = self.game
        st, rb, s = game.state, game.rulebook, game.settings
        for seat in range(st.players):
            if st.bankrupt[seat] and seat not in self.settling:
                if st.cash[seat] or st.jail_cards[seat]:
                    self.fail(f"bankrupt seat {seat} still holds cash or a card")
                if st.in_jail[seat]:
                    self.fail(f"bankrupt seat {seat} is still in jail")
            if st.in_jail[seat] and st.position[seat] != rb.jail:
                self.fail(f"seat {seat} is in jail but not on the jail space")
            if not 0 <= st.jail_turns[seat] <= s.jail_turns:
                self.fail(f"seat {seat} has spent {st.jail_turns[seat]} turns in jail")
            if not 0 <= st.position[seat] < rb.size:
                self.fail(f"seat {seat} is off the board")

    def check_money(self) -> None:
        """Players, the bank and every pot are accounts of `cash`; transfers only move it, and
        no player's cash goes below zero."""
        st = self.game.state
        cash = st.cash
        if sum(cash) != 0:
            self.fail(f"money was created or destroyed: the accounts add up to {sum(cash)}")
        if min(cash[:st.players], default=0) < 0:
            for seat in range(st.players):
                if cash[seat] < 0:
                    self.fail(f"seat {seat} holds {cash[seat]}: below zero")

    def check_holdings(self) -> None:
        """Deeds and buildings."""
        game = self.game
        st, rb = game.state, game.rulebook
        n = st.players
        owner, houses, hotels, mortgaged = st.owner, st.houses, st.hotels, st.mortgaged
        for sp in rb.spaces:
            q = sp.index
            o = owner[q]
            if not sp.is_property:
                if o != -1 or mortgaged[q] or houses[q] or hotels[q]:
                    self.fail(f"{sp.name!r} is not a property but is held, mortgaged or built")
                continue
            if not -1 <= o < n:
                self.fail(f"{sp.name!r} is held by an unknown seat {o}")
            if o == -1 and (mortgaged[q] or houses[q] or hotels[q]):
                self.fail(f"the bank holds {sp.name!r} mortgaged or built")
            if o >= 0 and st.bankrupt[o] and o not in self.settling:
                self.fail(f"bankrupt seat {o} still holds {sp.name!r}")
        self.check_buildings()

    def check_buildings(self) -> None:
        game = self.game
        st, rb, s = game.state, game.rulebook, game.settings
        houses, hotels = st.houses, st.hotels
        if st.bank_houses < 0 or st.bank_hotels < 0:
            self.fail(f"the bank's supply is negative: {st.bank_houses} houses, "
                      f"{st.bank_hotels} hotels")
        if st.bank_houses + sum(houses) != s.houses:
            self.fail(f"houses: {sum(houses)} on lots + {st.bank_houses} in the bank, "
                      f"{s.houses} declared")
        if st.bank_hotels + sum(hotels) != s.hotels:
            self.fail(f"hotels: {sum(hotels)} on lots + {st.bank_hotels} in the bank, "
                      f"{s.hotels} declared")
        for q in range(rb.size):
            if houses[q] or hotels[q]:
                if rb.spaces[q].kind != "street":
                    self.fail(f"buildings on {rb.spaces[q].name!r}, which takes none")
                if houses[q] < 0 or hotels[q] < 0 or hotels[q] > 1 or houses[q] > s.max_houses \
                        or (houses[q] and hotels[q]):
                    self.fail(f"{rb.spaces[q].name!r} holds {houses[q]} houses and "
                              f"{hotels[q]} hotels")
        top = s.houses_per_hotel + 1  # a hotel stands for the houses it replaced, and one more
        # what the rulebook's permissions guarantee (compile_permits), as save_check reads it
        g = rb.guarantees
        whole = rb.whole_group_to_build and "trade_unbuilt" in g
        unmortgaged = {"build_unmortgaged", "mortgage_unbuilt", "trade_unbuilt"} <= g
        even = whole and {"build_evenly", "sell_evenly"} <= g
        for members in self.street_groups:
            levels = [top if hotels[q] else houses[q] for q in members]
            if not any(levels):
                continue
            name = rb.group_names[rb.spaces[members[0]].group]
            owners = {st.owner[q] for q in members}
            for q, level in zip(members, levels):
                if level and st.mortgaged[q]:
                    self.fail(f"{rb.spaces[q].name!r} is mortgaged and built")
            # `everything goes to the creditor`: the built deeds go over one by one
            if whole and len(owners) != 1 and not owners & self.settling:
                self.fail(f"group {name!r} is built but not held whole")
            if unmortgaged and any(st.mortgaged[q] for q in members):
                self.fail(f"group {name!r} is built while one of its lots is mortgaged")
            # Where a group may be built in parts (no permission asks for the whole group), a
            # bankruptcy sells one owner's buildings and leaves the others' standing, and its
            # creditor may get a bare lot beside its built one: evenness holds at each build
            # and sale there (check_even), not in every state.
            if even and max(levels) - min(levels) > 1:
                self.fail(f"group {name!r} is built unevenly: {levels}")

    def check_even(self, space: str, step: int) -> None:
        """A building just built (step +1) went on a lot of the group's lowest level; one just
        sold (-1) came off a lot of its highest (when the rulebook builds or sells evenly)."""
        game = self.game
        st, rb, s = game.state, game.rulebook, game.settings
        if ("build_evenly" if step > 0 else "sell_evenly") not in rb.guarantees:
            return
        top = s.houses_per_hotel + 1
        pos = rb.space(space).index
        before = (top if st.hotels[pos] else st.houses[pos]) - step
        others = [top if st.hotels[q] else st.houses[q]
                  for q in rb.groups[rb.spaces[pos].group] if q != pos]
        if others and (before > min(others) if step > 0 else before < max(others)):
            self.fail(f"{'built on' if step > 0 else 'sold from'} {space!r} at level {before}, "
                      f"unevenly: the group's other lots stand at {others}")

    def check_refused(self, event: dict) -> None:
        """A purchase not offered: a permission of the rulebook on that action, of the rule
        the event names, refuses it now, and the lot is the bank's."""
        from rulelang.engine import actions as act

        game = self.game
        rb = game.rulebook
        pos = rb.space(event["space"]).index
        if event["action"] != "buy" or game.state.owner[pos] != -1:
            self.fail("a refused purchase of a lot that is not the bank's")
        err = act.refused_by(game, event["player"], act.Buy(pos))
        if err is None or err.rule != event["rule"]:
            self.fail(f"no permission of rule {event['rule']!r} refuses this purchase")

    def check_hotel(self, space: str) -> None:
        """A hotel just built: every lot of its group had the required houses (or a hotel)."""
        game = self.game
        st, rb, s = game.state, game.rulebook, game.settings
        pos = rb.space(space).index
        for q in rb.groups[rb.spaces[pos].group]:
            if not (st.hotels[q] or st.houses[q] >= s.houses_per_hotel):
                self.fail(f"a hotel on {space!r} before {s.houses_per_hotel} houses on "
                          f"{rb.spaces[q].name!r}")

    def check_cards(self, in_transit) -> None:
        game = self.game
        st, rb = game.state, game.rulebook
        seen = [list(deck) for deck in st.decks]
        for seat, hand in enumerate(st.jail_cards):
            for d, c in hand:
                if not rb.decks[d].cards[c].keep:
                    self.fail(f"seat {seat} holds card {rb.decks[d].cards[c].id!r}, which "
                              "goes back under its deck")
                seen[d].append(c)
        if in_transit is not None:
            seen[in_transit[0]].append(in_transit[1])
        for d, cards in enumerate(seen):
            if sorted(cards) != list(range(self.deck_sizes[d])):
                missing = set(range(self.deck_sizes[d])) - set(cards)
                extra = [c for c, k in Counter(cards).items() if k > 1]
                self.fail(f"deck {rb.decks[d].name!r}: cards lost {sorted(missing)} or "
                          f"doubled {sorted(extra)}")

    def check_end(self, event: dict) -> None:
        game = self.game
        st = game.state
        reason, winner = event["reason"], event["winner"]
        if not reason:
            self.fail("the game ended without saying why")
        if reason in ("turn_cap", *BOUNDS) and winner is not None:
            self.fail(f"a game ended by {reason} has a winner")
        if winner is not None and (not 0 <= winner < st.players or st.bankrupt[winner]):
            self.fail(f"the winner {winner} is not a player still in the game")

    # ------------------------------------------------------------ the whole game

    def check_finished(self) -> None:
        """After `play()`: the game ended once, by a rule or by the cap, and said which."""
        game = self.game
        self.settling.clear()
        self.check_state()
        if not game.over or self.ends != 1:
            self.fail(f"the game is over: {game.over}, with {self.ends} end events")
        if self.lines is not None and json.loads(self.lines[-1])["event"] != "end":
            self.fail("the log does not close with the end event")
        if game.end_reason == "turn_cap":
            if game.winner is not None or game.state.turn != game.max_turns:
                self.fail("the turn cap ended the game early or named a winner")
        elif game.state.turn > game.max_turns:
            self.fail("the game went past its turn cap")


class CheckedGame(Game):
    """A Game whose log is a Checker, bound before the first event of the setup."""

    def __init__(self, rulebook, agents, seed=0, max_turns=2000, checker: Checker | None = None):
        self.checker = checker or Checker()
        self.checker.bind(self, rulebook)  # the state exists before the first event
        super().__init__(rulebook, agents, seed=seed, max_turns=max_turns, log=self.checker)


class QuietCheckedGame(Game):
    """A Game with the log off, the path most games run: the money is checked after every
    transfer, the whole state after every turn (no event tells of a settling in progress)."""

    def __init__(self, rulebook, agents, seed=0, max_turns=2000):
        self.checker = Checker(keep_lines=False)
        self.checker.bind(self, rulebook)
        super().__init__(rulebook, agents, seed=seed, max_turns=max_turns)

    def transfer(self, src: int, dst: int, amount: int, reason: str, rule: str) -> None:
        super().transfer(src, dst, amount, reason, rule)
        self.checker.events += 1
        self.checker._last = f"transfer of {amount} from {src} to {dst} ({reason}, {rule})"
        self.checker.check_money()

    def play(self) -> "QuietCheckedGame":
        checker = self.checker
        checker.check_state()
        while not self.over:
            self.play_turn()
            checker._last = f"the end of turn {self.state.turn}"
            checker.check_state()
        if self.state.turn > self.max_turns or (
                self.end_reason == "turn_cap" and (self.winner is not None
                                                   or self.state.turn != self.max_turns)):
            checker.fail("the game went past its turn cap, or the cap named a winner")
        return self


def play_checked(ruleset: str, agents, seed: int, max_turns: int, keep_lines: bool = False,
                 log: bool = True):
    """Play one game of a ruleset with every invariant checked after every event (with the
    log off: the money after every transfer, everything after every turn)."""
    if not log:
        game = QuietCheckedGame(load(ruleset), agents, seed=seed, max_turns=max_turns).play()
        TALLY[ruleset, "games"] += 1
        TALLY[ruleset, game.end_reason] += 1
        return game
    """Play one game of a ruleset with every invariant checked after every event."""
    game = CheckedGame(load(ruleset), agents, seed=seed, max_turns=max_turns,
                       checker=Checker(keep_lines))
    game.play()
    game.checker.check_finished()
    TALLY[ruleset, "games"] += 1
    TALLY[ruleset, "events"] += game.checker.events
    TALLY[ruleset, game.end_reason] += 1
    return game


@functools.cache
def load(ruleset: str) -> rulelang.Rulebook:
    """A ruleset of rulesets/ compiled once per session (path relative to the root)."""
    return rulelang.load(str(ROOT / ruleset))
