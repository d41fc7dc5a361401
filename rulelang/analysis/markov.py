"""The exact long-run landing probabilities of a compiled rulebook, as a Markov chain.

One player moves alone on the board, for ever. A state of the chain is where the player
stands before a throw: a square, the doubles thrown so far this turn and the Get Out of Jail
Free cards held (`--cards kept`), or a turn in jail (`--jail stay`). Each throw of the dice is
a transition: the rules of the throw, the move, the landing and its cards, as the rulebook's
compiled hooks do them (analysis/probe.py runs them), a card draw being a mixture of the
deck's cards. The stationary distribution, solved with scipy, weighs what each throw does:
where the pawn ends (per throw, In Jail apart from Just Visiting), where the turn ends, and
the rent the landings pay.

`analyze(rulebook, jail, cards)` returns an `Analysis`, or raises `Unmodelled` naming the
rule the chain cannot represent (a choice of the player that moves the pawn, a move that
depends on the state of the game, a rule that moves the pawn when the dice are thrown ...).
"""

from __future__ import annotations

from attrs import frozen

from ..engine.tables import PROPERTY_KINDS, Rulebook
from .probe import SCENARIOS, Probe, Probed

JAIL = -1  # where a throw ends when it sends the player to jail (In Jail, not Just Visiting)
JAIL_MODELS = ("leave", "stay")
CARD_MODELS = ("uniform", "kept")


class Unmodelled(Exception):
    """The rulebook has a feature the chain cannot represent; the message says which rule."""


@frozen
class Level:
    """One rent level of a property: its label, and how the probe sets the board for it
    (("alone", 0) a lot alone, ("group", 0) the whole group unimproved, ("houses", k),
    ("hotel", 1), ("held", k) a railroad or utility among k of its group held)."""

    label: str
    kind: str
    count: int


@frozen
class PropertyRent:
    """A property's landings per throw and its expected rent per throw at each level."""

    index: int
    name: str
    kind: str
    per_roll: float
    rents: tuple[tuple[Level, float], ...]


@frozen
class Analysis:
    """The long-run figures of one rulebook in one model."""

    ruleset: str
    jail: str
    cards: str
    names: tuple[str, ...]
    per_roll: tuple[float, ...]  # per square: the throws that end there (not In Jail)
    end_of_turn: tuple[float, ...]  # per square: the turns that end there (not In Jail)
    jail_per_roll: float
    jail_end_of_turn: float
    jail_index: int
    throws_per_turn: float
    states: int
    rents: tuple[PropertyRent, ...]

    def to_json(self) -> dict:
        """The `rulelang analyze --json` document, exactly these keys (docs/analysis.md);
        the rents are the table's and `rents`'."""
        return {
            "ruleset": self.ruleset,
            "model": {"jail": self.jail, "cards": self.cards},
            "squares": [{"index": i, "name": name, "per_roll": self.per_roll[i],
                         "end_of_turn": self.end_of_turn[i]}
                        for i, name in enumerate(self.names)],
            "in_jail": {"per_roll": self.jail_per_roll, "end_of_turn": self.jail_end_of_turn},
        }


def levels(rb: Rulebook, pos: int) -> tuple[Level, ...]:
    """The rent levels of a property, from its compiled space: a street alone, its whole
    group unimproved, each number of houses, a hotel; a railroad or a utility by how many of
    its group the owner holds."""
    sp = rb.spaces[pos]
    house, hotel = rb.building_names
    size = len(rb.groups[sp.group]) if sp.group >= 0 else 1
    if sp.kind == "street":
        out = [Level("unimproved", "alone", 0)]
        if size > 1:
            out.append(Level("whole group", "group", 0))
        out += [Level(f"{k} {house}{'s' if k > 1 else ''}", "houses", k)
                for k in range(1, len(sp.rents) - 1)]
        if len(sp.rents) > 1:
            out.append(Level(f"1 {hotel}", "hotel", 1))
        return tuple(out)
    table = sp.rents if sp.kind == "railroad" else sp.multipliers
    return tuple(Level(f"{k} held", "held", k) for k in range(1, min(size, len(table)) + 1))


class _Chain:
    """The chain of one rulebook in one model: its states, built from the initial one."""

    def __init__(self, rb: Rulebook, jail: str, cards: str):
        self.rb, self.jail, self.cards = rb, jail, cards
        self.n = rb.size
        self.R = len(rb.rolls)
        self.probe = Probe(rb)
        self.land_memo: dict = {}
        self.card_memo: dict = {}
        self.throw_memo: dict = {}
        self.resolve_memo: dict = {}
        # one throw of each (total, doubles, triples): the throws the other scenarios probe
        classes: dict = {}
        for r in range(self.R):
            classes.setdefault((rb.totals[r], rb.doubles[r], rb.triples[r]), r)
        self.typical = frozenset(classes.values())
        times = [h.times for h in rb.doubles_hooks if h.times is not None]
        self.max_doubles = max(times, default=0)
        self._check_static()

    # ------------------------------------------------------------ what the probes agree on

    def agreed(self, run, where: str, scenarios=SCENARIOS[1:], r: int = 0) -> Probed:
        """run(scenario, answer) in every scenario, and with every answer to a choice it
        asks: the one thing they do to the pawn, or Unmodelled. The other scenarios are run
        for one throw of each total (r, a throw, not one of them: "bank" only); a probe in
        which a rule ended the game is left out (the chain is the game that goes on)."""
        first = run("bank", 0)
        others = [run(s, 0) for s in scenarios] if r in self.typical else []
        if first.asked:
            options = self.probe.stand.options
            others += [run("bank", a) for a in range(1, options)]
        if first.ended:
            going = [o for o in others if not o.ended]
            if not going:
                return first
            first, others = going[0], going[1:]
        others = [o for o in others if not o.ended]
        key = (first.steps, first.again, first.freed)
        for other in others:
            if (other.steps, other.again, other.freed) != key:
                rules = sorted({s.rule for p in (first, other) for s in p.steps}
                               | set(first.asked) | set(other.asked))
                named = ", ".join(f"'{r}'" for r in rules) or "a rule"
                if first.asked or other.asked:
                    raise Unmodelled(f"{named} {where}: the player's choice decides where the "
                                     "pawn goes, which a chain of squares cannot represent")
                raise Unmodelled(f"{named} {where}: what it does to the pawn depends on the "
                                 "state of the game (who owns what, laps, tokens, the doubles "
                                 "in a row), which a chain of squares cannot represent")
        return first

    def _check_static(self) -> None:
        """The rules that must not move the pawn where the chain does not look for it."""
        rb, p = self.rb, self.probe
        for q in rb.pass_positions:
            got = self.agreed(lambda s, a: p.hooks(rb.pass_hooks[q], q, 0, 0, s, answer=a),
                              f"on passing \"{rb.spaces[q].name}\"")
            if got.steps or got.again:
                raise Unmodelled(f"'{got.steps[0].rule if got.steps else 'a rule'}' moves the "
                                 f"pawn when it passes \"{rb.spaces[q].name}\": not modelled")
        for q in range(self.n):
            got = self.agreed(lambda s, a: p.hooks(rb.turn_start_hooks, q, 0, 0, s, answer=a),
                              "when a turn starts")
            if got.steps:
                raise Unmodelled(f"'{got.steps[0].rule}' moves the pawn when a turn starts: "
                                 "not modelled")
            if not rb.turn_start_hooks:
                break
        after = rb.after_face_hooks
        for r in range(self.R if after else 0):
            hooks = tuple(h for die, face, h in after if rb.rolls[r][die] == face)
            if hooks:
                got = self.agreed(lambda s, a: p.hooks(hooks, rb.go, r, 0, s, answer=a),
                                  "after the pawn moves")
                if got.steps:
                    raise Unmodelled(f"'{got.steps[0].rule}' moves the pawn after the dice "
                                     "have moved it: a second move of one throw is not "
                                     "modelled")
        course = rb.course
        for name, hooks in (("when a turn in jail starts", course.jail_turn),
                            ("when a player is sent to jail", course.sent_to_jail),
                            ("when a player leaves jail", course.leaves_jail)):
            if hooks:
                got = self.agreed(lambda s, a: p.hooks(hooks, rb.jail, 0, 0, s, True, 0, a),
                                  name)
                if got.steps or got.freed:
                    rule = got.steps[0].rule if got.steps else hooks[0][1]
                    raise Unmodelled(f"'{rule}' ({name}) moves the pawn or frees the player: "
                                     "not modelled")
        if self.jail == "leave" and (rb.permits["pay_fine"] or rb.permits["use_card"]):
            rule = (rb.permits["pay_fine"] or rb.permits["use_card"])[0].rule
            raise Unmodelled(f"'{rule}' may forbid leaving jail by the fine or a card: "
                             "--jail leave cannot be modelled; use --jail stay")

    # ------------------------------------------------------------ one throw

    def throw(self, pos: int, doubles: int, r: int, in_jail: int = -1) -> Probed:
        """The rules of throw r before the pawn moves: out of jail, with `doubles` doubles
        thrown before it this turn; in jail (in_jail: the jail turns used before it), the
        rules of a throw in jail."""
        key = (pos, doubles, r, in_jail)
        got = self.throw_memo.get(key)
        if got is not None:
            return got
        rb, p = self.rb, self.probe
        double = rb.doubles[r]
        hooks = [h for die, face, h in rb.face_hooks if rb.rolls[r][die] == face]
        if in_jail >= 0:
            hooks += rb.jail_roll_hooks
            streak = 1 if double else 0
        else:
            hooks += rb.roll_hooks
            streak = doubles + 1 if double else 0
            if double:
                hooks += [dh.hook for dh in rb.doubles_hooks
                          if dh.times is None or dh.times == doubles + 1]
            if rb.triples[r]:
                hooks += rb.triples_hooks
        hooks = tuple(hooks)
        if not hooks:
            got = Probed(())
        else:
            turns = in_jail + 1 if in_jail >= 0 else 0
            where = "when the dice are thrown" + (" in jail" if in_jail >= 0 else "")
            got = self.agreed(lambda s, a: p.hooks(hooks, pos, r, streak, s, in_jail >= 0,
                                                   turns, a), where, r=r)
            if any(s.kind != "jail" for s in got.steps):
                raise Unmodelled(f"'{got.steps[0].rule}' moves the pawn {where}, before "
                                 "the dice move it: not modelled")
        self.throw_memo[key] = got
        return got

    def land(self, q: int, r: int) -> Probed:
        got = self.land_memo.get((q, r))
        if got is None:
            rb, p = self.rb, self.probe
            streak = 1 if rb.doubles[r] else 0
            got = self.agreed(lambda s, a: p.land(q, r, streak + (s != "bank" and streak),
                                                  None, s, a),
                              f"on landing on \"{rb.spaces[q].name}\"", self._scenarios(q), r)
            self.land_memo[q, r] = got
        return got

    def card(self, deck: int, c: int, q: int, r: int) -> Probed:
        got = self.card_memo.get((deck, c, q, r))
        if got is None:
            rb, p = self.rb, self.probe
            streak = 1 if rb.doubles[r] else 0
            card = rb.decks[deck].cards[c]
            got = self.agreed(lambda s, a: p.card(deck, c, q, r, streak, s, a),
                              f"(card \"{card.title}\" drawn on \"{rb.spaces[q].name}\")",
                              self._scenarios(q), r)
            self.card_memo[deck, c, q, r] = got
        return got

    def _scenarios(self, q: int) -> tuple[str, ...]:
        """The scenarios a probe on q is compared in besides "bank": on a property, both an
        owner and the player's own (its rules' owner filters tell them apart); elsewhere only
        "other", which also owns every property and has done a lap."""
        return SCENARIOS[1:] if self.rb.spaces[q].is_property else ("other",)

    # ------------------------------------------------------------ where a move ends

    def resolve(self, q: int, r: int, held: tuple, rent, stack: tuple = ()) -> dict:
        """The pawn arrives on q during throw r (holding `held`, with a card's rent context):
        {(final square or JAIL, rent context, again, held): probability}."""
        key = (q, r, held, rent)
        got = self.resolve_memo.get(key)
        if got is not None:
            return got
        if (q, held) in stack:
            raise Unmodelled(f"the landing on \"{self.rb.spaces[q].name}\" leads back to "
                             "itself through cards or moves: a chain that may never end is "
                             "not modelled")
        stack = stack + ((q, held),)
        landed = self.land(q, r)
        out = self._follow(landed, q, r, held, rent, stack)
        self.resolve_memo[key] = out
        return out

    def _follow(self, probed: Probed, q: int, r: int, held: tuple, rent, stack) -> dict:
        """What the steps of a probe lead to, the pawn being on q."""
        steps = probed.steps
        if len(steps) > 1 and steps[0].kind != "jail":
            named = ", ".join(sorted({f"'{s.rule}'" for s in steps}))
            raise Unmodelled(f"{named} move the pawn more than once from \"{self.rb.spaces[q].name}\": "
                             "not modelled")
        again = probed.again
        if not steps:
            return {(q, rent, again, held): 1.0}
        step = steps[0]
        if step.kind == "jail":
            return {(JAIL, None, False, held): 1.0}
        if step.kind == "move":  # what it passes does nothing to the pawn (_check_static)
            return _with_again(self.resolve(step.dest, r, held, step.rent, stack), again)
        # a draw: a mixture of the deck's cards
        deck = step.deck
        cards = self.rb.decks[deck].cards
        inside = [c for c in range(len(cards))
                  if self.cards == "uniform" or (deck, c) not in held]
        out: dict = {}
        if not inside:
            return {(q, rent, again, held): 1.0}
        w = 1.0 / len(inside)
        for c in inside:
            if cards[c].keep:
                kept = held if self.cards == "uniform" else held + ((deck, c),)
                part = {(q, rent, False, kept): 1.0}
            else:
                part = self._follow(self.card(deck, c, q, r), q, r, held, rent, stack)
            for k, v in _with_again(part, again).items():
                out[k] = out.get(k, 0.0) + w * v
        return out

    # ------------------------------------------------------------ the states

    def transitions(self, state) -> list:
        """[(next state, probability, landing (final, rent, r), turn ends on (final or
        None))] of one throw from `state`: ("free", pos, doubles, held) or ("jail", turns,
        held)."""
        rb = self.rb
        out = []
        pr = 1.0 / self.R
        if state[0] == "jail":
            _, turns, held = state
            limit = rb.settings.jail_turns
            for r in range(self.R):
                thrown = self.throw(rb.jail, 0, r, turns)
                if thrown.steps:  # sent to jail from jail: the turn ends there
                    out.append((("jail", 0, held), pr, (JAIL, None, r), JAIL))
                    continue
                if thrown.freed or turns + 1 >= limit:
                    dest = (rb.jail + rb.totals[r]) % self.n
                    for (final, rent, _, kept), v in self.resolve(dest, r, held, None).items():
                        out.append((self._after_turn(final, kept), pr * v, (final, rent, r),
                                    final))
                else:
                    out.append((("jail", turns + 1, held), pr, (JAIL, None, r), JAIL))
            return out
        _, pos, doubles, held = state
        for r in range(self.R):
            thrown = self.throw(pos, doubles, r)
            if thrown.steps:  # jail (throw refuses any other step)
                out.append((self._after_turn(JAIL, held), pr, (JAIL, None, r), JAIL))
                continue
            more = min(doubles + rb.doubles[r], self.max_doubles)
            dest = (pos + rb.totals[r]) % self.n
            for (final, rent, again, kept), v in self.resolve(dest, r, held, None).items():
                if final != JAIL and (again or thrown.again):
                    out.append((("free", final, more, kept), pr * v, (final, rent, r), None))
                else:
                    out.append((self._after_turn(final, kept), pr * v, (final, rent, r),
                                final))
        return out

    def _after_turn(self, final: int, held: tuple):
        """The state a turn that ended on `final` leaves for the next turn."""
        if final != JAIL:
            return ("free", final, 0, held)
        if self.jail == "stay":
            return ("jail", 0, held)
        # --jail leave: a held card, else the fine, at once; then a turn from the jail square
        return ("free", self.rb.jail, 0, held[1:])


def _with_again(dist: dict, again: bool) -> dict:
    if not again:
        return dist
    out: dict = {}
    for (final, rent, a, held), v in dist.items():
        k = (final, rent, (a or again) and final != JAIL, held)
        out[k] = out.get(k, 0.0) + v
    return out


def analyze(rb: Rulebook, jail: str = "leave", cards: str = "uniform",
            ruleset: str = "") -> Analysis:
    """The long-run landing probabilities of the rulebook in the model (jail: "leave" or
    "stay"; cards: "uniform" or "kept"), and the expected rents; Unmodelled if it cannot."""
    import numpy as np

    if jail not in JAIL_MODELS or cards not in CARD_MODELS:
        raise ValueError(f"unknown model: jail {jail!r}, cards {cards!r}")
    if rb.jail < 0:
        raise Unmodelled("the board has no jail space")
    if not rb.rolls or max(rb.totals) <= 0:
        raise Unmodelled("the dice never move the pawn")
    chain = _Chain(rb, jail, cards)
    n = rb.size
    start = ("free", rb.go, 0, ())
    index = {start: 0}
    order = [start]
    rows, cols, vals = [], [], []
    land_w: dict = {}  # (state, final, rent, r) -> probability
    ends: list = []  # (state, final, probability)
    i = 0
    while i < len(order):
        state = order[i]
        for nxt, v, (final, rent, r), ended in chain.transitions(state):
            j = index.get(nxt)
            if j is None:
                j = index[nxt] = len(order)
                order.append(nxt)
            rows.append(i)
            cols.append(j)
            vals.append(v)
            key = (i, final, rent, r)
            land_w[key] = land_w.get(key, 0.0) + v
            if ended is not None:
                ends.append((i, ended, v))
        i += 1
    size = len(order)
    pi = _stationary(rows, cols, vals, size)
    per_roll = np.zeros(n + 1)  # the last: In Jail
    rent_w: dict = {}
    for (s, final, rent, r), v in land_w.items():
        w = pi[s] * v
        per_roll[final] += w  # JAIL is -1: the last slot
        if final >= 0 and rb.spaces[final].kind in PROPERTY_KINDS:
            k = (final, rent, r)
            rent_w[k] = rent_w.get(k, 0.0) + w
    end = np.zeros(n + 1)
    for s, final, v in ends:
        end[final] += pi[s] * v
    turns = end.sum()
    end /= turns
    return Analysis(
        ruleset=ruleset or rb.title,
        jail=jail,
        cards=cards,
        names=tuple(s.name for s in rb.spaces),
        per_roll=tuple(float(x) for x in per_roll[:n]),
        end_of_turn=tuple(float(x) for x in end[:n]),
        jail_per_roll=float(per_roll[n]),
        jail_end_of_turn=float(end[n]),
        jail_index=rb.jail,
        throws_per_turn=float(1.0 / turns),
        states=size,
        rents=_rents(chain.probe, rb, per_roll, rent_w),
    )


DENSE = 3000  # states up to which the chain is solved as a dense matrix (numpy), sparse above


def _stationary(rows, cols, vals, size: int):
    """The distribution pi with pi P = pi and sum(pi) = 1: the transposed system with one
    equation replaced by the sum; Unmodelled if the chain has no single long run."""
    import numpy as np

    if size <= DENSE:
        A = np.zeros((size, size))
        np.add.at(A, (cols, rows), vals)  # A = P transposed
        A -= np.eye(size)
        A[0, :] = 1.0
        b = np.zeros(size)
        b[0] = 1.0
        try:
            pi = np.linalg.solve(A, b)
        except np.linalg.LinAlgError:
            pi = np.full(size, np.nan)
    else:
        from scipy.sparse import coo_matrix, identity
        from scipy.sparse.linalg import spsolve

        P = coo_matrix((vals, (rows, cols)), shape=(size, size)).tocsr()
        A = (P.T - identity(size, format="csr")).tolil()
        A[0, :] = np.ones(size)
        b = np.zeros(size)
        b[0] = 1.0
        pi = spsolve(A.tocsc(), b)
    if not np.all(np.isfinite(pi)) or pi.min() < -1e-9:
        raise Unmodelled("the chain has no single long run (its states split into several "
                         "closed classes)")
    pi = np.clip(pi, 0.0, None)
    return pi / pi.sum()


def _rents(probe: Probe, rb: Rulebook, per_roll, rent_w: dict) -> tuple[PropertyRent, ...]:
    """Per property, per level: sum over its landings (rent context, throw) of the landing's
    probability per throw times the rent the rulebook charges for it. The rent is probed
    once per total and doubles of the throw (with the first throw of each): a utility's rent
    reads the total, a rule may read the doubles; the faces themselves are not read again."""
    first: dict = {}
    for r in range(len(rb.rolls)):
        first.setdefault((rb.totals[r], rb.doubles[r]), r)
    by_pos: dict = {}
    for (pos, rent, r), w in rent_w.items():
        key = (rent, first[rb.totals[r], rb.doubles[r]])
        row = by_pos.setdefault(pos, {})
        row[key] = row.get(key, 0.0) + w
    out = []
    for pos in rb.properties:
        sp = rb.spaces[pos]
        rows = []
        for lv in levels(rb, pos):
            probe.rent_board(pos, (lv.kind, lv.count))
            total = sum(w * probe.rent(r, rent) for (rent, r), w in by_pos.get(pos, {}).items())
            rows.append((lv, float(total)))
        out.append(PropertyRent(pos, sp.name, sp.kind, float(per_roll[pos]), tuple(rows)))
    return tuple(out)
