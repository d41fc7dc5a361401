"""What the rules do when they run: cards from every square, chains, money, the end, dead rules.

Part of the checker (`rulelang.check` runs it after the names are known); it reports through
the checker's `error`. It models the engine's turn as the engine runs it: a landing fires the
rules of the space in rule order; a move fires the `passes` rules of the spaces it goes over
or onto, from where the player stands, then lands; `advance to` the space the player is on
lands there again; a drawn card is put under its deck, so a deck loops forever only if every
one of its cards does; `go to jail` ends the turn; a player is freed from jail before moving.
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from typing import Callable, Iterable, Iterator

import attrs

from rulelang import ast, vocab
from rulelang.check_board import PROPERTY_KINDS

__all__ = ["Flow", "MONEY_FLOWS", "MOVES", "moving_dice", "doubles_dice", "triples_dice", "flat"]

# What the effects do, from their declarations' facts (rulelang.vocab): who pays whom
# ((payer, payee) or None, see vocab.Facts), which move the pawn and land, which continue a
# chain (a move or a draw), which end the turn, and what each does to the turn when two rules
# both do it on one event without an order. `rent xN` on `rent is due` changes the amount of
# a rent, not who pays it.
_EFFECTS = [p for p in vocab.of_role("effect") if p.node is not None]
MONEY_FLOWS: dict[type, Callable[[object], tuple[str, str] | None]] = {
    p.node: p.money_of for p in _EFFECTS}
MONEY_FLOWS[ast.Choice] = lambda e: None  # its options' money: `flat`
MOVES = tuple(p.node for p in _EFFECTS if p.facts.moves)
_CONTINUES = MOVES + tuple(p.node for p in _EFFECTS if p.facts.draws)
_STOPS = tuple(p.node for p in _EFFECTS if p.facts.ends_turn)
_CLASHES = {p.node: p.facts.clash for p in _EFFECTS if p.facts.clash}
_PURCHASES = tuple(p.node for p in _EFFECTS if p.facts.purchase)
_ON_PROPERTY = tuple(p.node for p in _EFFECTS if p.facts.needs_property)
# What changes where the player stands, so that any other effect's outcome depends on the order.
_REORDER = {p.facts.clash for p in _EFFECTS if p.facts.moves or p.facts.draws}
_MAX_LINK_NOTES = 4  # notes at the steps of a reported loop in the files a rulebook extends
_MAX_THROWS = 1296  # throws followed one by one in token chains (four dice of six faces)


_SHARED: dict[frozenset, frozenset] = {}  # equal sets of what hooks do, one object each


class Hook:
    """One `when` of one rule, with the board positions its event can happen on.

    Slotted, its sets shared: a long rulebook has one per `when`."""

    __slots__ = ("rule", "when", "positions", "owner", "always", "does", "charges")

    def __init__(self, rule: ast.Rule, when: ast.When, positions: frozenset[int] | None):
        self.rule, self.when, self.positions = rule, when, positions
        target = getattr(when.event, "target", None)
        self.owner = target.owner if isinstance(target, ast.SpaceByKind) else None
        # Unconditional: it fires every time its event happens.
        self.always = not when.conditions and self.owner is None
        # what any of its effects may do: a choice's options and an `else` included
        effects = tuple(flat(when.effects))
        does = frozenset(_CLASHES[type(e)] for e in effects if type(e) in _CLASHES)
        self.does = _SHARED.setdefault(does, does)
        self.charges = any(MONEY_FLOWS[type(e)](e) in (("player", "bank"), ("player", "pot"))
                           and not isinstance(e, _PURCHASES) for e in effects)


class Flow:
    """The dynamic checks of one program; `positions(target)` resolves a space target."""

    def __init__(self, program: ast.Program, settings: dict[str, object],
                 error: Callable[..., None], history: list | None = None):
        self.program = program
        # (verb, rule, by): the rules of parents a later file replaced or removed
        self.history = history or []
        self.settings = settings  # the value of every setting, by name
        self.spaces = program.board.spaces if program.board else ()
        self.n = len(self.spaces)
        self.error = error
        self.decks = {d.name.value: d for d in program.decks}
        self._drawn: dict[str, set[int]] | None = None
        self.hooks: list[Hook] = []
        index = _SpaceIndex(self.spaces)
        for rule in program.rules:
            for stmt in rule.body:
                if isinstance(stmt, ast.When):
                    target = getattr(stmt.event, "target", None)
                    where = index.positions(target) if target is not None else None
                    self.hooks.append(Hook(rule, stmt, where))
        self.index = index
        self.land: dict[int, list[Hook]] = defaultdict(list)
        self.passing: dict[int, list[Hook]] = defaultdict(list)
        for h in self.hooks:
            table = self.land if isinstance(h.when.event, ast.Lands) else \
                self.passing if isinstance(h.when.event, ast.Passes) else None
            if table is not None:
                for p in h.positions:
                    table[p].append(h)

    def run(self) -> None:
        self.effect_lists()
        self.dead_rules()
        self.constant_dice()
        self.conflicts()
        if self.n:
            self.cards_from_every_square()
            self.cycles()
            self.token_cycles()
        self.termination()

    # ------------------------------------------------------------ effects in order

    def effect_lists(self) -> None:
        """Effects after `go to jail` never run; money needs an account at both ends."""
        lists = itertools.chain(((h.when.effects, h) for h in self.hooks),
                                ((c.effects, None) for d in self.program.decks for c in d.cards))
        for effects, hook in lists:
            for i, e in enumerate(effects[:-1]):
                if isinstance(e, _STOPS):
                    what = vocab.primitive_of(e).title
                    self.error("W110", f"the effects after '{what}' never happen: going to "
                               "jail ends the turn", _join(effects[i + 1].span, effects[-1].span),
                               hint="put them before 'go to jail', or drop them")
                    break
            if hook is not None:
                for e in flat(effects):
                    self.money(e, hook)

    def money(self, effect, hook: Hook) -> None:
        flow = MONEY_FLOWS[type(effect)](effect)
        if flow is None or "owner" not in flow:
            return
        if hook.owner == "nobody":
            self.error("E306", "the rent would go to nobody: this rule is about an unowned "
                       "space", effect.span,
                       hint="rent is due on a property owned by another player")
        elif hook.owner == "self":
            self.error("E306", "the player would pay rent to themself: this rule is about a "
                       "space the player owns", effect.span,
                       hint="rent is due on a property owned by another player")

    # ------------------------------------------------------------ dead rules

    def dead_rules(self) -> None:
        dice = doubles_dice(self.program)
        common = set.intersection(*(_faces(d) for d in dice)) if dice else set()
        again = any(isinstance(e, ast.RollAgain) for h in self.hooks for e in h.when.effects)
        jailing = min((h for h in self.hooks
                       if isinstance(h.when.event, ast.RollsDoubles) and h.always
                       and h.when.event.times and any(isinstance(e, ast.GoToJail)
                                                      for e in h.when.effects)),
                      key=lambda h: h.when.event.times, default=None)
        jailed_at = jailing.when.event.times if jailing else None
        for h in self.hooks:
            event = h.when.event
            if isinstance(event, ast.RollsDoubles):
                times = event.times or 1
                if len(dice) > 1 and not common:
                    self.error("W104", "this rule can never fire: no face is on every die, so "
                               "no roll is a double", event.span)
                elif times > 1 and not again and len(dice) > 1:
                    self.error("W104", f"this rule can never fire: nothing lets a player roll "
                               f"again, so no one rolls doubles {times} times in a row",
                               event.span, hint="e.g. when a player rolls doubles: roll again")
                elif jailed_at is not None and times > jailed_at:
                    self.error("W104", f"this rule can never fire: doubles {jailed_at} times in "
                               "a row already send the player to jail", event.span,
                               notes=[(f"rule '{jailing.rule.name.name}' sends the player to "
                                       "jail here", jailing.when.span)])
            self.dead_conditions(h)

    def constant_dice(self) -> None:
        """Dice whose every throw is the same reach the engine's bounds (engine/game.py):
        the throws for the first player always tie (seat order decides after MAX_TIES), and
        dice that always double, with every double rolling again and none sending the player
        to jail, roll until a landing stops the turn or MAX_ROLLS ends the game."""
        dice = moving_dice(self.program)
        if not dice or any(len(_faces(d)) > 1 for d in dice):
            return
        players = self.settings.get("players", (2, 8))
        highest = any(isinstance(e, ast.HighestRollStarts) for h in self.hooks
                      if isinstance(h.when.event, ast.GameStarts) for e in h.when.effects)
        if highest and players[1] > 1:
            self.error("W111", "every die always shows the same face, so the throws for the "
                       "first player always tie: seat order decides after 100 of them",
                       dice[0].span, hint="give a die more faces, or drop the rule's 'the "
                       "player with the highest roll starts' (seat 0 starts)")
        if len(dice) < 2 or len(set.union(*(_faces(d) for d in dice))) > 1:
            return  # not every throw is a double
        doubles = [h for h in self.hooks if isinstance(h.when.event, ast.RollsDoubles)]
        if any(h.always and any(isinstance(e, ast.GoToJail) for e in h.when.effects)
               for h in doubles):
            return  # the n-th double in a row ends the turn in jail
        again = next((e for h in doubles if h.always and not h.when.event.times
                      for e in h.when.effects if isinstance(e, ast.RollAgain)), None)
        if again is not None:
            self.error("W111", "every throw is a double and every double says roll again, "
                       "with no jail on doubles: a turn ends only if a landing stops it, "
                       "and the game ends after 100 rolls in one turn", again.span,
                       hint="give a die more faces, or send the player to jail on the third "
                       "double: when a player rolls doubles 3 times in a row: go to jail")

    def dead_conditions(self, h: Hook) -> None:
        seen: dict[object, tuple] = {}
        moving = isinstance(h.when.event, (ast.Lands, ast.Passes, ast.RollsDoubles))
        for cond in conjuncts(h.when.conditions):
            key, negated = _signed(cond)
            other, other_negated = seen.setdefault(key, (cond, negated))
            if other_negated != negated:
                self.error("W104", "this rule can never fire: its conditions contradict each "
                           "other", cond.span, notes=[("the other condition is here",
                                                      other.span)])
            why = self.never(cond)
            if why is not None:
                self.error("W104", f"this condition never holds: {why}", cond.span)
                continue
            if not isinstance(cond, ast.Condition) or cond.test != "in_jail" or cond.negated:
                continue
            if cond.subject == "player" and moving:
                self.error("W104", "this condition never holds: a player is freed from jail "
                           "before moving", cond.span,
                           hint="jailed players act at the start of their turn: "
                           "when a turn starts if the player is in jail: ...")
            elif cond.subject == "owner" and h.owner in ("nobody", "self"):
                why = "nobody owns the space" if h.owner == "nobody" else \
                    "the owner is the player, who is moving, so not in jail"
                self.error("W104", f"this condition never holds: {why}", cond.span)

    def never(self, cond) -> str | None:
        """Why a condition can never hold on these dice, if it cannot: a total no throw
        makes, triples with no dice to make them."""
        if isinstance(cond, ast.Condition) and cond.test == "triples" and not cond.negated:
            return "no dice are declared to make triples"
        if not isinstance(cond, ast.Compare):
            return None
        left, right, op = cond.left, cond.right, cond.op
        if isinstance(left, ast.Count) and isinstance(right, ast.DiceTotal):
            left, right, op = right, left, _FLIPPED.get(op, op)
        if not (isinstance(left, ast.DiceTotal) and isinstance(right, ast.Count)):
            return None
        dice = moving_dice(self.program)
        if not dice:
            return None
        faces = [[f for f in d.faces] for d in dice]
        low, high = sum(min(f) for f in faces), sum(max(f) for f in faces)
        n = right.value
        possible = {"eq": low <= n <= high, "ne": True, "ge": n <= high, "gt": n < high,
                    "le": n >= low, "lt": n > low}[op]
        return None if possible else f"the dice total is always {low} to {high}"

    # ------------------------------------------------------------ conflicts

    def conflicts(self) -> None:
        """Two rules acting on one event in clashing ways, neither placed against the other."""
        buckets: dict[tuple, list[Hook]] = defaultdict(list)
        for h in self.hooks:
            event = h.when.event
            if h.positions is not None:
                for p in h.positions:
                    buckets[(type(event), p)].append(h)
            else:  # the same event: equal up to positions in the file (and doubles' count)
                key = event.face.value if isinstance(event, ast.DieShows) else \
                    None if isinstance(event, ast.RollsDoubles) else event
                buckets[(type(event), key, getattr(event, "after", None))].append(h)
        reported: set[int] = set()  # one warning per `when`, naming the first clash
        for hooks in buckets.values():
            active = [h for h in hooks if h.does or h.charges]  # the others never clash
            for i, b in enumerate(active):
                if id(b.when) in reported:
                    continue
                for a in active[:i]:
                    if a.rule is b.rule or _ordered(a.rule, b.rule):
                        continue
                    clash = self.clash(a, b)
                    if clash is None:
                        continue
                    reported.add(id(b.when))
                    first, second = a.rule.name.name, b.rule.name.name
                    if first != second:  # else E110 already says two rules share the name
                        self.error("W103", f"rules '{first}' and '{second}' both act on this "
                                   f"event{clash}, in no stated order", b.when.event.span,
                                   hint=f"use 'replace rule {first}:' or "
                                   f"'after {first} rule {second}:'",
                                   notes=[(f"'{first}' acts here", a.when.span)])
                    break

    def clash(self, a: Hook, b: Hook) -> str | None:
        """How two overlapping hooks clash, for the message, or None if their order is moot."""
        ea, eb = a.when.event, b.when.event
        if isinstance(ea, ast.RollsDoubles) and ea.times != eb.times:
            return None
        if a.owner and b.owner and a.owner != b.owner:
            return None
        conds = {_signed(c) for c in conjuncts(a.when.conditions)}
        if any((key, not negated) in conds
               for key, negated in map(_signed, conjuncts(b.when.conditions))):
            return None  # exclusive conditions: one negates a conjunct of the other
        does_a, does_b = a.does, b.does
        if does_a & does_b:
            return f" and each {sorted(does_a & does_b)[0]}"
        if does_a and does_b and (does_a | does_b) & _REORDER:
            return f": one {sorted(does_a)[0]}, the other {sorted(does_b)[0]}"
        if a.charges and b.charges and ea == eb and a.when.conditions == b.when.conditions:
            return " and each charges the player"
        return None

    # ------------------------------------------------------------ cards, square by square

    def draw_positions(self) -> dict[str, set[int]]:
        """Where each deck can be drawn: the squares of the landings that draw it."""
        if self._drawn is not None:
            return self._drawn
        out: dict[str, set[int]] = defaultdict(set)
        everywhere = set(range(self.n))
        for h in self.hooks:
            at = h.positions if isinstance(h.when.event, ast.Lands) else everywhere
            for pos, e in self.walk(h.when.effects, at):
                if isinstance(e, ast.Draw):
                    out[e.deck.value] |= pos
        changed = True
        while changed:  # cards that draw from decks
            changed = False
            for name, deck in self.decks.items():
                for card in deck.cards:
                    for pos, e in self.walk(card.effects, out.get(name, set())):
                        if isinstance(e, ast.Draw) and not pos <= out[e.deck.value]:
                            out[e.deck.value] |= pos
                            changed = True
        self._drawn = dict(out)
        return self._drawn

    def walk(self, effects, start: set[int]) -> Iterator[tuple[set[int], object]]:
        """Each effect with the squares the player may stand on when it runs."""
        pos = set(start)
        for e in effects:
            yield pos, e
            if isinstance(e, ast.MoveBy) and not isinstance(e.spaces, int):
                pos = set(range(self.n))  # a move by an expression may end anywhere
            elif isinstance(e, MOVES):
                pos = {self.dest(e, p) for p in pos} - {None}
            elif isinstance(e, _STOPS):
                return

    def dest(self, e, p: int) -> int | None:
        if isinstance(e, ast.AdvanceTo):
            found = self.index.by_name.get(e.space.value)
            return found[0] if found else None
        if isinstance(e, ast.MoveBy):
            if not isinstance(e.spaces, int):
                return None  # an expression: known only when the game plays it
            return (p + e.spaces) % self.n
        if isinstance(e, ast.ChooseSpace) or (
                isinstance(e, ast.AdvanceNext) and (e.owner or e.where)):
            return None  # the player or the board decide: no one known space
        return self.next_of_kind(e.kind.name, p)

    def cards_from_every_square(self) -> None:
        for name, where in sorted(self.draw_positions().items()):
            deck = self.decks.get(name)
            if deck is None or not where:
                continue
            for card in deck.cards:
                for pos, e in self.walk(card.effects, where):
                    if isinstance(e, _ON_PROPERTY):
                        bad = sorted(p for p in pos if self.spaces[p].kind.name
                                     not in PROPERTY_KINDS)
                        if bad:
                            what = vocab.primitive_of(e).title
                            self.error("E303", f"card '{card.id.value}' says '{what}', but "
                                       f"drawn on {self.where(bad)} the player is not on a "
                                       "property", e.span,
                                       hint="move the player onto a property first, e.g. "
                                       "advance to the nearest railroad, rent x2")
                    elif isinstance(e, ast.AdvanceToNearest):
                        lap = sorted(p for p in pos if self.dest(e, p) == p)
                        if lap:
                            self.error("E413", f"card '{card.id.value}' goes to the nearest "
                                       f"{e.kind.name}, but drawn on {self.where(lap)} the "
                                       "nearest is that same space, a whole lap away",
                                       e.span, hint=f"the board needs another '{e.kind.name}' space, "
                                       "or the card another destination")

    def where(self, positions: list[int]) -> str:
        names = list(dict.fromkeys(f"'{self.spaces[p].name.value}'" for p in positions))
        return ", ".join(names[:3]) + (f" and {len(names) - 3} more" if len(names) > 3 else "")

    # ------------------------------------------------------------ unbounded chains

    def cycles(self) -> None:
        """Chains of triggered effects that never end, whatever the dice and the cards."""
        loops = self.looping_states()
        if not loops:
            return
        reported: set[frozenset] = set()
        for h in self.hooks:
            if not isinstance(h.when.event, ast.Lands) or not h.always:
                continue
            for p in sorted(h.positions):
                state = self.continuation(h.when.effects, p)
                if state is None or state not in loops or ("land", p) not in loops:
                    continue
                path = self.path(("land", p), loops)
                key = frozenset(path)
                if key in reported:
                    continue
                reported.add(key)
                steps = [f"'{self.spaces[s[1]].name.value}'" if s[0] == "land" else
                         f"deck '{s[1]}'" for s in path if s[0] in ("land", "draw")]
                where, notes = self.anchor(h.when.span, self.links(path))
                self.error("E417", "these rules never stop triggering each other: landing on "
                           f"'{self.spaces[p].name.value}' leads back to it "
                           f"({' -> '.join(steps + steps[:1])})", where,
                           hint="make one step of the chain conditional, or end it with "
                           "an effect that does not move the player", notes=notes)
                break

    def links(self, path: list) -> list[tuple[ast.Span, str]]:
        """What carries a loop on at each of its steps: the span of a rule's `when` or of a
        card, and how a note names it; rules first, in the order of the loop."""
        rules, cards = [], []
        for i, s in enumerate(path):
            t = path[(i + 1) % len(path)]
            if s[0] == "land":
                hooks = [h for h in self.land.get(s[1], ()) if h.always]
            elif s[0] == "move":
                _, p, _, steps = s
                hooks = [h for c, hs in self.passing.items() if steps > 0
                         and (c - p - 1) % self.n < steps for h in hs if h.always]
            else:
                card = next((c for c in self.decks[s[1]].cards
                             if self.continuation(c.effects, s[2]) == t), None)
                if card is not None:
                    cards.append((card.span, f"card '{card.id.value}' of deck '{s[1]}'"))
                continue
            start = s[1]
            for h in hooks:
                if self.continuation(h.when.effects, start) == t:
                    rules.append((h.when.span, f"rule '{h.rule.name.name}'"))
                    break
        return rules + cards

    def anchor(self, found: ast.Span, links: list[tuple[ast.Span, str]]
               ) -> tuple[ast.Span, list[tuple[str, ast.Span]]]:
        """Where to report a loop found at `found`: in the played file when one of its
        links is there (the author's change closed the loop): at `found` if it is, else at
        the first link there, with notes at the links in the files it extends; else at
        `found`, without notes."""
        played = self.program.files[0]
        mine = [span for span, _ in links if span.file == played]
        if found.file != played and not mine:
            return found, []
        notes = list(dict.fromkeys((f"the chain goes on here ({what})", span)
                                   for span, what in links if span.file != played))
        return (found if found.file == played else mine[0]), notes[:_MAX_LINK_NOTES]

    def continuation(self, effects, p: int):
        """The state the first move or draw of `effects` leads to from square `p`, or None."""
        for e in effects:
            if isinstance(e, _STOPS):
                return None
            if isinstance(e, ast.Draw):
                return ("draw", e.deck.value, p) if e.deck.value in self.decks else None
            if isinstance(e, MOVES):
                q = self.dest(e, p)
                if q is None:
                    return None
                steps = -1 if isinstance(e, ast.MoveBy) and e.spaces < 0 else \
                    e.spaces if isinstance(e, ast.MoveBy) else (q - p) % self.n
                return ("move", p, q, steps)
        return None

    def successors(self, state) -> tuple[str, list]:
        """('any'|'all', next states): a state loops if any / all of them do."""
        kind = state[0]
        if kind == "land":
            out = []
            for h in self.land.get(state[1], ()):
                if not h.always:
                    continue
                out.append(self.continuation(h.when.effects, state[1]))
                if out[-1] is None and any(isinstance(e, _STOPS) for e in h.when.effects):
                    break  # the turn ends here: the later rules of the space never run
            return "any", out
        if kind == "draw":
            cards = [c for c in self.decks[state[1]].cards
                     if not any(isinstance(e, ast.KeepJailCard) for e in c.effects)]
            return "all", [self.continuation(c.effects, state[2]) for c in cards] or [None]
        _, p, q, steps = state
        out = [("land", q)]
        if steps > 0:
            for c, hooks in self.passing.items():
                if (c - p - 1) % self.n < steps:
                    out += [self.continuation(h.when.effects, p) for h in hooks if h.always]
        return "any", out

    def looping_states(self) -> set:
        """The greatest set of states each of which loops (an any/all fixpoint)."""
        graph: dict = {}
        todo = [("land", p) for p in range(self.n)]
        while todo:
            s = todo.pop()
            if s in graph:
                continue
            graph[s] = self.successors(s)
            todo += [t for t in graph[s][1] if t is not None and t not in graph]
        alive = set(graph)
        changed = True
        while changed:
            changed = False
            for s in list(alive):
                mode, nxt = graph[s]
                ok = [t is not None and t in alive for t in nxt]
                if not (any(ok) if mode == "any" else (ok and all(ok))):
                    alive.discard(s)
                    changed = True
        self.graph = graph
        return alive

    def path(self, start, loops: set) -> list:
        """The states of one loop reached from `start`, in order."""
        seen: list = []
        s = start
        while s not in seen:
            seen.append(s)
            s = next(t for t in self.graph[s][1] if t in loops)
        return seen[seen.index(s):]

    # ------------------------------------------------------------ tokens that never stop

    def token_cycles(self) -> None:
        """`when token "X" reaches ...: move token "X" ...` chains that come back where they
        started. A token's move fires its `reaches` rules before the next effect runs, and a
        die keeps the value of the last throw along the chain, so for a given throw the
        chain is fixed: each throw of the dice the moves use is followed on its own."""
        tokens = {t.name.value for t in self.program.tokens}
        reach: dict[tuple[str, int], list[Hook]] = defaultdict(list)
        for h in self.hooks:
            event = h.when.event
            if isinstance(event, ast.TokenReaches) and h.always and event.token.value in tokens:
                for p in h.positions:
                    reach[(event.token.value, p)].append(h)
        if not reach:
            return
        values = {d.name.value: sorted({f for f in d.faces if f > 0}) for d in self.program.dice}
        used = sorted({e.die.value for hooks in reach.values() for h in hooks
                       for e in h.when.effects
                       if isinstance(e, ast.MoveTokenBy) and e.die.value in values})
        reported: set[int] = set()  # one error per `when`
        throws = itertools.product(*(values[d] for d in used))
        for throw in itertools.islice(throws, _MAX_THROWS):
            shows = dict(zip(used, throw))
            done: set = set()  # states already followed under this throw
            for start in sorted(reach):
                loop = self.token_loop(start, reach, shows, done)
                if loop is None or any(id(h) in reported for _, h in loop):
                    continue
                reported.update(id(h) for _, h in loop)
                token = loop[0][0][0]
                steps = [f"'{self.spaces[p].name.value}'" for (_, p), _ in loop]
                if len(steps) > 4:  # a long round: its start, and how many spaces it goes by
                    steps = steps[:2] + [f"... ({len(steps)} spaces)"]
                dice = {e.die.value for _, h in loop for e in h.when.effects
                        if isinstance(e, ast.MoveTokenBy)}
                when = ", ".join(f"die '{d}' shows {v}" for d, v in shows.items() if d in dice)
                where, notes = self.anchor(loop[0][1].when.span, [
                    (h.when.span, f"rule '{h.rule.name.name}'") for _, h in loop])
                self.error("E417", f"these rules never stop moving token '{token}': "
                           f"{' -> '.join(steps + steps[:1])}" + (f" when {when}" if when else ""),
                           where, hint="make one step conditional, or move the token onto a "
                           "space no rule sends it on from", notes=notes)

    def token_loop(self, start, reach, shows, done: set) -> list | None:
        """A chain from `start` that comes back to a state it went through, as (state, the
        rule that moves the token on from it) pairs, or None. Every `reaches` rule of a state
        runs, one after the other, so each is followed (depth first, as the engine runs them);
        `done` holds the states already followed under this throw."""
        if start in done:
            return None
        path, hooks = [start], []
        on_path = {start}
        stack = [self.token_edges(start, reach, shows)]
        while stack:
            for hook, nxt in stack[-1]:
                if nxt in on_path:
                    i = path.index(nxt)
                    done.update(path)
                    return list(zip(path[i:], hooks[i:] + [hook]))
                if nxt not in done:
                    path.append(nxt)
                    hooks.append(hook)
                    on_path.add(nxt)
                    stack.append(self.token_edges(nxt, reach, shows))
                    break
            else:
                state = path.pop()
                on_path.discard(state)
                done.add(state)
                stack.pop()
                if hooks:
                    hooks.pop()
        return None

    def token_edges(self, state, reach, shows) -> Iterator[tuple[Hook, tuple[str, int]]]:
        for h in reach.get(state, ()):
            nxt = self.token_step(state, h, shows)
            if nxt is not None:
                yield h, nxt

    def token_step(self, state, hook: Hook, shows):
        """Where the first move of the hook's own token takes it, or None (no move, or one
        that depends on something the chain does not fix)."""
        token, p = state
        for e in hook.when.effects:
            if isinstance(e, (ast.RollDice, ast.EndGame, ast.GoToJail)):
                return None  # a new throw, or the game or the turn stops
            if isinstance(e, (ast.MoveTokenNext, ast.MoveTokenBy)) and e.token.value == token:
                if isinstance(e, ast.MoveTokenNext):
                    q = self.next_of_kind(e.kind.name, p)
                else:
                    steps = shows.get(e.die.value, 0)
                    if steps <= 0:
                        return None
                    q = (p + steps) % self.n
                    if e.onto is not None and not _is_kind(self.spaces[q], e.onto.name):
                        q = self.next_of_kind(e.onto.name, q)
                return (token, q) if q is not None else None
            if isinstance(e, (ast.MoveTokenNext, ast.MoveTokenBy)):
                return None  # another token first: where it stands is not known here
        return None

    def next_of_kind(self, kind: str, p: int) -> int | None:
        targets = self.index.of_kind(kind)
        return min(targets, key=lambda t: (t - p - 1) % self.n) if targets else None

    # ------------------------------------------------------------ the end of the game

    def termination(self) -> None:
        """A game ends when all but one player are bankrupt, so something must take money;
        or when a rule ends it, or at a time limit. Money paid into a pot must come out."""
        if not self.program.rules or not self.n:
            return  # equipment only, or no board (E404): not a game to play
        drawn = self.draw_positions()
        effects = [e for h in self.hooks for e in flat(h.when.effects)]
        effects += [e for d in self.program.decks if d.name.value in drawn
                    for c in d.cards for e in flat(c.effects)]
        self.pots(effects)
        if self.settings.get("time_limit") or any(isinstance(e, ast.EndGame) for e in effects):
            return
        takes = any(_takes_money(e) for e in effects)
        jailed = any(isinstance(e, ast.GoToJail) for e in effects)
        takes = takes or (self.settings.get("jail_fine", 0) > 0 and jailed)
        if not takes:
            self.error("E416", "the game can never end: no rule takes money from a player, so "
                       "no one ever goes bankrupt", self.program.title.span,
                       hint="e.g. when a player lands on a property owned by another player: "
                       "pay rent")
            return
        if not any(_grows(e) for e in effects):
            self.only_at_the_cap()

    def only_at_the_cap(self) -> None:
        """W113: players pay only fixed amounts (taxes, fines, cards), never a rent that
        grows with what the others own: in practice no one goes bankrupt and every game runs
        to the turn cap. Told at the author's `remove rule` or `replace rule` that took the
        rent out, with a note at the rule it took out."""
        span, notes = self.program.title.span, []
        for verb, old, by in self.history:
            if any(_grows(e) for e in _rule_effects(old)):
                what = "" if verb == "remove" else "; its replacement charges none"
                notes.append((f"rule '{old.name.name}' made players pay rent here{what}",
                              old.name.span))
                span = by.name.span if isinstance(by, ast.Rule) else by.span
        self.error("W113", "the games of this rulebook can end only at the turn cap: no rule "
                   "makes a player pay rent or an amount that grows, so players lose only "
                   "fixed amounts and in practice no one goes bankrupt", span,
                   hint="keep a rule that pays rent, or end the game otherwise: `end the "
                   "game`, a `time_limit`", notes=tuple(notes))

    def pots(self, effects) -> None:
        """W114: a pot that receives money (`pay ... into`, fines_to) that no rule pays
        out: the money leaves the game."""
        into: dict[str, ast.Span] = {}
        out: set[str] = set()
        fines = self.settings.get("fines_to") or ""
        for e in effects:
            if isinstance(e, ast.PayInto):
                into.setdefault(e.pot.value, e.span)
            elif isinstance(e, ast.CollectPot):
                out.add(e.pot.value)
        for pot in self.program.pots:
            name = pot.name.value
            if name in out or (name not in into and name != fines):
                continue
            why = "taxes, fines and card penalties go to it (fines_to)" if name == fines \
                else "a rule pays into it"
            notes = ((f"paid into here", into[name]),) if name in into else ()
            self.error("W114", f"money paid into the pot \"{name}\" never comes out: {why}, "
                       "but no rule collects it, so that money leaves the game", pot.span,
                       hint=f'e.g. when a player lands on "Free Parking": collect the pot '
                       f'"{name}"', notes=notes)


def moving_dice(program: ast.Program) -> list[ast.Die]:
    """The dice that move the pawn: those declared so (`dice ... move the pawn`), else those
    with a face of value (a die of symbols only, like the Force die, is thrown beside them)."""
    return _declared(program, "move") or [d for d in program.dice if d.faces]


def doubles_dice(program: ast.Program) -> list[ast.Die]:
    """The dice that make doubles: declared, else the moving dice."""
    return _declared(program, "doubles") or moving_dice(program)


def triples_dice(program: ast.Program) -> list[ast.Die]:
    """The dice that make triples: only those declared."""
    return _declared(program, "triples")


def _declared(program: ast.Program, role: str) -> list[ast.Die]:
    by_name = {d.name.value: d for d in program.dice}
    for decl in program.dice_decls:
        if decl.role == role:
            return [by_name[t.value] for t in decl.dice if t.value in by_name]
    return []


def flat(effects) -> Iterator:
    """The effects of a list, a choice's options' effects included, and the effects after
    `, else`."""
    for e in effects:
        if isinstance(e, ast.Choice):
            for option in e.options:
                yield from flat(option)
        else:
            yield e
            other = getattr(e, "otherwise", None)
            if other is not None:
                yield other


def _faces(die: ast.Die) -> set:
    return set(die.faces) | {t.value for t, _ in die.symbols}


_FLIPPED = {"ge": "le", "le": "ge", "gt": "lt", "lt": "gt"}  # `2 is less than X`: X > 2


def _what(cond: ast.Condition) -> tuple:
    """What a condition tests, whether it is negated or not."""
    return (cond.subject, cond.test, cond.name and cond.name.name,
            cond.token and cond.token.value)


def conjuncts(conds) -> Iterator:
    """The conditions that must all hold: the guards, and the parts of an `and` among them."""
    for c in conds:
        if isinstance(c, ast.And):
            yield from conjuncts(c.conds)
        else:
            yield c


def _signed(cond) -> tuple:
    """(what a condition tests, whether it is negated): `not C` and `C` test the same."""
    if isinstance(cond, ast.Condition):
        return _what(cond), cond.negated
    if isinstance(cond, ast.Not):
        key, negated = _signed(cond.cond)
        return key, not negated
    if isinstance(cond, ast.Compare) and cond.op in ("eq", "ne"):
        return attrs.evolve(cond, op="eq"), cond.op == "ne"
    return cond, False


def _takes_money(effect) -> bool:
    flow = MONEY_FLOWS[type(effect)](effect)
    return flow is not None and flow[0] in ("player", "others") and \
        not isinstance(effect, _PURCHASES)


def _grows(effect) -> bool:
    """Whether an effect makes a player pay another an amount that can grow as the game
    goes on: a rent, or an amount to or from the other players that is not a fixed sum."""
    flow = MONEY_FLOWS[type(effect)](effect)
    if flow is None:
        return False
    if flow == ("player", "owner"):
        return True
    if flow in (("player", "others"), ("others", "player")):
        return not isinstance(getattr(effect, "amount", None), ast.Money)
    return False


def _rule_effects(rule) -> Iterator:
    for stmt in getattr(rule, "body", ()):
        if isinstance(stmt, ast.When):
            yield from flat(stmt.effects)


def _is_kind(space: ast.SpaceDecl, kind: str) -> bool:
    k = space.kind.name
    return k == kind or kind == "space" or (kind == "property" and k in PROPERTY_KINDS)


def _ordered(a: ast.Rule, b: ast.Rule) -> bool:
    """One of the two rules is placed before or after the other."""
    return (a.override in ("before", "after") and a.target.name == b.name.name) or \
        (b.override in ("before", "after") and b.target.name == a.name.name)


def _join(a: ast.Span, b: ast.Span) -> ast.Span:
    return ast.Span(a.file, a.line, a.column, b.end_line, b.end_column)


class _SpaceIndex:
    """The board positions of each space name and each kind, computed once."""

    def __init__(self, spaces: Iterable[ast.SpaceDecl]):
        self.spaces = tuple(spaces)
        self.by_name: dict[str, list[int]] = defaultdict(list)
        for i, s in enumerate(self.spaces):
            self.by_name[s.name.value].append(i)
        self._kinds: dict[str, tuple[int, ...]] = {}
        self._targets: dict[tuple[str, str], frozenset[int]] = {}

    def of_kind(self, kind: str) -> tuple[int, ...]:
        if kind not in self._kinds:
            self._kinds[kind] = tuple(i for i, s in enumerate(self.spaces) if _is_kind(s, kind))
        return self._kinds[kind]

    def positions(self, target) -> frozenset[int]:
        """The board positions a space target names (one set for each target named)."""
        if isinstance(target, ast.SpaceByName):
            key = ("name", target.name.value)
            if key not in self._targets:
                self._targets[key] = frozenset(self.by_name.get(target.name.value, ()))
        else:
            key = ("kind", target.kind.name)
            if key not in self._targets:
                self._targets[key] = frozenset(self.of_kind(target.kind.name))
        return self._targets[key]
