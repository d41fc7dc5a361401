"""Hypothesis strategies shared by the property tests: seeds, tables and agents for a ruleset."""

from __future__ import annotations

from hypothesis import settings
from hypothesis import strategies as st

from invariants import load

SEEDS = st.integers(0, 2**32 - 1)
AGENT_NAMES = ("default", "own-turn", "random")

# The profiles that keep the whole suite short (tests/conftest.py): there a costly property
# parametrized over every ruleset plays `ci_examples(n)` games of each, since the rulesets and
# agent mixes already give it breadth; any other profile ("long") keeps its own count.
SHORT_PROFILES = ("ci", "mutate")


def ci_examples(n: int):
    """A property's settings: n examples under the short profiles, the profile's otherwise."""
    if settings.get_current_profile_name() in SHORT_PROFILES:
        return settings(max_examples=n)
    return lambda test: test


def ci_count(short: int, long: int) -> int:
    """A count of games or examples drawn by hand (not by hypothesis): `short` under the
    short profiles, `long` otherwise."""
    return short if settings.get_current_profile_name() in SHORT_PROFILES else long


def players(ruleset: str) -> st.SearchStrategy[int]:
    """A player count within the rulebook's range."""
    low, high = load(ruleset).settings.players
    return st.integers(low, high)


@st.composite
def tables(draw, ruleset: str, agents: str = "mixed"):
    """(seed, agent names one per seat) for a game of the ruleset.

    agents: one of AGENT_NAMES seats that agent everywhere; "mixed" draws each seat.
    """
    n = draw(players(ruleset))
    if agents == "mixed":
        names = draw(st.lists(st.sampled_from(AGENT_NAMES), min_size=n, max_size=n))
    else:
        names = [agents] * n
    return draw(SEEDS), names


# ------------------------------------------------------------------ rulebooks at their bounds

# Values tried for a setting with no declared upper bound (money): zero, one, a fortune.
_UNBOUNDED = (0, 1, 100_000)
# What the checker rejects by construction (check.py, E409 and _CONSISTENT) is not drawn:
# every street's rent table fixes max_houses, so it keeps the rulebook's value.
_KEPT = {"max_houses", "fines_to"}


def _written(spec, value) -> str:
    """A setting's value as a rules file writes it."""
    if spec.type == "flag":
        return "yes" if value else "no"
    if spec.type == "money":
        return f"${value}"
    if spec.type == "percent":
        return f"{value}%"
    if spec.type == "range":
        return f"{value[0]} to {value[1]}"
    return str(value)


def bound_values(spec) -> st.SearchStrategy:
    """A setting at its bounds: the lowest, the highest, and a few values between."""
    if spec.type == "flag":
        return st.booleans()
    if spec.type == "choice":
        return st.sampled_from(spec.choices)
    if spec.type == "range":
        low, high = spec.low, spec.high
        return st.tuples(st.sampled_from((low, low + 1, high - 1, high)),
                         st.sampled_from((low, low + 1, high - 1, high))).map(sorted).map(tuple)
    low = spec.low or 0
    if spec.high is None:
        return st.sampled_from(sorted({low, *_UNBOUNDED, spec.default}))
    high = spec.high
    return st.sampled_from(sorted({low, min(low + 1, high), (low + high) // 2,
                                   max(high - 1, low), high, spec.default}))


# Permissions a variant may add, each with the conditions its action's context allows
# (rulelang.vocab.permissions.SUBJECTS): the agents must never submit an action they refuse.
_LOT_ACTIONS = ("build", "build a house", "build a hotel", "sell a building", "sell a house",
                "sell a hotel", "sell the group's buildings", "mortgage", "mortgage a street",
                "mortgage a railroad", "lift a mortgage", "trade", "trade a street",
                "trade a utility", "buy", "buy a railroad", "buy a street")
_PLAYER_ACTIONS = ("bid", "pay the fine before rolling", "use a jail card",
                   "trade a jail card")
_PLAYER_CONDITIONS = ("the player has completed a lap", "the player is in jail",
                      "the player is not in jail", "the player has not completed a lap")
_OWNER_CONDITIONS = ("the owner is in jail", "the owner has completed a lap")


@st.composite
def permissions(draw, options: tuple[str, ...] = ()) -> str:
    """Up to three permission lines of a rule's body: any action, always refused or under
    conditions on the player, on the lot's owner (lot actions) or on an option."""
    lines = []
    for _ in range(draw(st.integers(0, 3), label="permissions")):
        on_lot = draw(st.booleans())
        action = draw(st.sampled_from(_LOT_ACTIONS if on_lot else _PLAYER_ACTIONS))
        conditions = _PLAYER_CONDITIONS + (_OWNER_CONDITIONS if on_lot else ()) \
            + tuple(f"option {o}" for o in options)
        guards = draw(st.lists(st.tuples(st.sampled_from(("if", "unless")),
                                         st.sampled_from(conditions)), max_size=2))
        lines.append(f"  a player may not {action}"
                     + "".join(f" {word} {cond}" for word, cond in guards) + "\n")
    return "".join(lines)


@st.composite
def dice(draw):
    """Dice at their bounds: one die or four, constant dice, a die of two faces, named faces."""
    out = []
    for i in range(draw(st.integers(1, 4))):
        faces = draw(st.sampled_from(("constant", "range", "list")))
        if faces == "constant":
            values = [draw(st.integers(1, 6))]
        elif faces == "range":
            values = list(range(1, draw(st.integers(1, 6)) + 1))
        else:
            values = sorted(draw(st.sets(st.integers(1, 12), min_size=1, max_size=6)))
        line = f'die "d{i}" faces ' + ", ".join(map(str, values))
        if draw(st.booleans()):
            line += f', face {draw(st.sampled_from(values))} named "Star {i}"'
        out.append(line)
    return "\n".join(out) + "\n"


@st.composite
def variants(draw, ruleset: str, options: tuple[str, ...]):
    """(settings text, options, dice text or "") of a variant of the ruleset: every setting
    left as it is or drawn at its bounds, each option on or off, the dice kept or redrawn.

    Combinations the checker refuses as inconsistent (E301) are mended rather than drawn, so
    that nearly every variant checks clean; a variant that does not is rejected by the test.
    """
    from rulelang.engine.settings import SETTINGS

    rb = load(ruleset)
    drawn = {}
    for name, spec in SETTINGS.items():
        if name in _KEPT:
            continue
        if draw(st.booleans()):
            drawn[name] = draw(bound_values(spec), label=name)
    value = {n: drawn.get(n, getattr(rb.settings, n)) for n in SETTINGS}
    if rb.characters and "players" in drawn:  # no more players than characters (E450)
        low, high = drawn["players"]
        drawn["players"] = (min(low, len(rb.characters)), min(high, len(rb.characters)))
        value["players"] = drawn["players"]
    if value["houses_per_hotel"] > value["max_houses"]:
        drawn["houses_per_hotel"] = value["max_houses"]
    if value["hotels"] and not value["houses"]:
        drawn["houses"] = 1
    if value["auction_min_bid"] > value["starting_cash"]:
        drawn["auction_min_bid"] = value["starting_cash"]
    body = "".join(f"  set {n} = {_written(SETTINGS[n], v)}\n" for n, v in drawn.items())
    chosen = tuple(o for o in options if draw(st.booleans(), label=f"option {o}"))
    body += draw(permissions(options), label="permissions")
    new_dice = draw(st.one_of(st.just(""), dice()), label="dice")
    return body, chosen, new_dice


# ---------------------------------------------------------------- conditions and expressions
# Drawn well typed when a unit is asked for (mostly clean, so that games evaluate them), of
# any unit and any subject otherwise (mostly errors, for the checker).

_WHO = ("player", "owner", "partner")
_THINGS = ("house", "houses", "hotel", "building", "buildings", "railroad", "railroads",
           "street", "streets", "utilities", "property", "properties", "castle")
_CMPS = ("", "at least ", "at most ", "more than ", "less than ")
_FACTORS = {
    "money": ('the pot "Jackpot"', "the space's price", "the space's mortgage",
              "the {who}'s cash", "the {who}'s worth", "the {who}'s net worth"),
    "count": ("the dice total", 'die "first"', 'die "second"', "the first die",
              "the second die", "the number of bankruptcies", "the number of players",
              "the {who}'s laps", "the {who}'s turns", "the {who}'s turns in jail",
              "the {who}'s doubles in a row", "the number of {thing} the {who} owns"),
    "percent": (),
}
_LOTS = ("the space", "a lot of the group", "no lot of the group", "every lot of the group")
_COMPARISONS = ("is", "is not", "are", "is at least", "is at most", "is more than",
                "is less than")
_BAD = ('die "third"', "the sixth die", "the number of castles the player owns")


@st.composite
def values(draw, unit: str | None = None, who=_WHO) -> str:
    """A value of an expression (a factor): of that unit, or of any unit and form."""
    u = unit or draw(st.sampled_from(("money", "count", "percent", "bad")))
    n = draw(st.integers(0, 600 if u == "money" else 12))
    literal = {"money": f"${n}", "count": str(n), "percent": f"{n}%", "bad": f"{n}"}[u]
    if u in ("percent", "bad") or draw(st.booleans()):
        return draw(st.sampled_from(_BAD)) if u == "bad" and draw(st.booleans()) else literal
    return draw(st.sampled_from(_FACTORS[u])).format(
        who=draw(st.sampled_from(who)), thing=draw(st.sampled_from(_THINGS[:-1])))


@st.composite
def expressions(draw, unit: str | None = None, who=_WHO) -> str:
    """An expression: a sum of one to three terms, each a value or a product."""
    u = unit or draw(st.sampled_from(("money", "count")))

    def term():
        kind = draw(st.sampled_from(("value", "times", "percent", "per", "money times")))
        n = draw(st.integers(0, 12))
        if kind == "times":
            return f"{n} times {draw(values(unit and u, who))}"
        if kind == "money times" and u == "money":
            return f"${n} times {draw(values(unit and 'count', who))}"
        if kind == "percent":
            return f"{n * 10}% of {draw(values(unit and u, who))}"
        if kind == "per":
            thing = draw(st.sampled_from(_THINGS if unit is None else _THINGS[:-1]))
            return f"{'$' if u == 'money' else ''}{n} per {thing} the " \
                f"{draw(st.sampled_from(who))} owns"
        return draw(values(unit and u, who))
    return " plus ".join(term() for _ in range(draw(st.integers(1, 3))))


@st.composite
def atoms(draw, typed: bool = False, who=_WHO) -> str:
    """An atom of a condition (its comparisons well typed if `typed`)."""
    w = draw(st.sampled_from(who))
    thing = draw(st.sampled_from(_THINGS if not typed else _THINGS[:-1]))
    cmp = draw(st.sampled_from(_CMPS))
    k = draw(st.integers(0, 5))
    lot = draw(st.sampled_from(("is mortgaged", "is not mortgaged", f"has no {thing}",
                                f"has a {thing}", f"has {cmp}{k} {thing}")))
    unit = draw(st.sampled_from(("money", "count"))) if typed else None
    return draw(st.sampled_from((
        f"the {w} is in jail", f"the {w} is not in jail", f"the {w} has completed a lap",
        f"the {w} has no jail turn left", f"the {w} holds the whole group",
        f"the {w} owns the space", f"the {w} owns {cmp}{k} {thing}",
        f"{draw(st.sampled_from(_LOTS))} {lot}",
        "the space is a railroad", "the space is a property",
        "the space has the fewest buildings of the group",
        "the space has the most buildings of the group", "the dice show doubles",
        "all dice alike", 'die "first" shows "Star 1"', 'a die shows "Star 2"',
        f"{draw(expressions(unit, who))} "
        f"{draw(st.sampled_from(_COMPARISONS))} "
        f"{draw(expressions(unit, who))}")))


@st.composite
def conditions(draw, depth: int = 2, typed: bool = False, who=_WHO) -> str:
    """A condition of atoms joined by `and` / `or`, negated and grouped."""
    parts = []
    for _ in range(draw(st.integers(1, 3))):
        if depth and draw(st.booleans()):
            part = f"({draw(conditions(depth - 1, typed, who))})"
        else:
            part = draw(atoms(typed, who))
        if draw(st.integers(0, 3)) == 0:
            part = f"not {part}"
        parts.append(part)
    joins = [draw(st.sampled_from((" and ", " or "))) for _ in parts[1:]]
    return parts[0] + "".join(j + p for j, p in zip(joins, parts[1:]))


# The events of the game's course and the effects they may carry (vocab/game_events.py),
# for rulebooks that play them; the checker sorts out the pairs it refuses (E351).
COURSE_EVENTS = ("a turn ends", "a player is sent to jail", "a player takes a turn in jail",
                 "a player leaves jail", "a street is offered", "a property is auctioned",
                 "a railroad is bought", "a building is bought", "a house is sold",
                 "a hotel is bought", "a mortgage is taken", "a mortgage is lifted",
                 "a deed changes hands", "a deed changes hands by a trade",
                 "a deed changes hands from a bankrupt player", 'a card is drawn from "Chance"',
                 "a card is drawn",
                 "a player cannot pay", "a player goes bankrupt",
                 "a player goes bankrupt to the bank", "a player goes bankrupt to another player",
                 "the game ends", "the time limit is reached", "buildings run short",
                 "the game starts", "a player lands on a street", "a turn starts")
COURSE_EFFECTS = ("collect $7", "pay $9", "pay the fine", "leave jail", "go to jail",
                  "lift the mortgage or pay the interest",
                  "lift the mortgage at its value or pay the interest", "auction the building",
                  "auction the building from its cost", "the bank auctions the lots",
                  "everything goes to the creditor", "end the game", "nothing",
                  "shuffle the decks", "the player with the highest roll starts",
                  "deal 2 title deeds to each player", "deal 1 title deeds to each player for free",
                  'pay $5 into "Jackpot"', "roll again", "move 3", "draw from \"Chance\"")
COURSE_GUARDS = ("", " if the player is in jail", " unless the player has completed a lap")


@st.composite
def course_rules(draw) -> str:
    """Rules of `when EVENT [guard]: EFFECT[, EFFECT]` over the game's course."""
    lines = []
    for _ in range(draw(st.integers(1, 6))):
        event = draw(st.sampled_from(COURSE_EVENTS))
        guard = draw(st.sampled_from(COURSE_GUARDS))
        effects = draw(st.lists(st.sampled_from(COURSE_EFFECTS), min_size=1, max_size=3))
        lines.append(f"  when {event}{guard}: {', '.join(effects)}\n")
    return 'rule course:\n  cite "fuzz", "course"\n' + "".join(lines)


# ---------------------------------------------------------------- whole rulebooks
# For the formatter: every kind of line the grammar has, comments anywhere, in the layout the
# formatter writes or not; drawn to parse (their meaning may still fail the checker).

_COMMENT_TEXT = st.text(st.characters(blacklist_categories=("Cc", "Cs", "Zl", "Zp"),
                                      whitelist_characters="\t#\"'"), max_size=24)


@st.composite
def comments(draw, indent: str = "") -> str:
    """Zero to two comment lines at an indentation, perhaps after a blank line."""
    out = "\n" if draw(st.integers(0, 3)) == 0 else ""
    for _ in range(draw(st.integers(0, 2))):
        out += f"{indent}#{draw(_COMMENT_TEXT)}\n"
    return out


@st.composite
def statements(draw, indent: str = "  ", options: tuple[str, ...] = ()) -> str:
    """One to four lines of a rule's body, some with a comment after them."""
    n = draw(st.integers(0, 600))
    forms = (
        f"when a turn starts if {draw(conditions(1, typed=True, who=('player',)))}: "
        f"collect ${n}",
        f'when a player lands on "GO": the player chooses one: nothing; pay ${n}, collect $1',
        'when a player lands on "Chance": advance to the next railroad, else collect $5',
        'when a player lands on "Chance": advance to the nearest utility, rent dice x10',
        f"when a player passes \"GO\": collect {draw(expressions('money', ('player',)))}",
        f"set jail_fine = ${n}",
        "set players = 2 to 6",
        'when a die shows "Star 1": move back 3',
        "a player may not build unless the player's cash is at least $100",
    )
    out = ""
    for line in draw(st.lists(st.sampled_from(forms), min_size=1, max_size=4)):
        out += draw(comments(indent))
        tail = f"  #{draw(_COMMENT_TEXT)}" if draw(st.integers(0, 4)) == 0 else ""
        out += f"{indent}{line}{tail}\n"
    return out + draw(permissions(options)).replace("  a player", indent + "a player")


@st.composite
def rulebooks(draw) -> str:
    """A rulebook extending the 1961 rules: renames, dice, a board, decks, rules of every
    kind (the game's course, conditions, choices, `, else`, permissions), an option holding
    rules, and comments between and after lines."""
    out = draw(comments()) + 'rulebook "Generated"\nextends "classic_1961.rules"\n\n'
    options = ("extra",) if draw(st.booleans()) else ()
    for i in range(draw(st.integers(1, 6))):
        out += draw(comments())
        kind = draw(st.sampled_from(("rule", "course", "replace", "before", "rename", "dice",
                                     "board", "deck", "option", "set")))
        if kind == "rule":
            out += f'rule r{i}:\n  cite "fuzz", "r{i}"\n' + draw(statements("  ", options))
        elif kind == "course":
            out += draw(course_rules()).replace("rule course:", f"rule course_{i}:")
        elif kind == "replace":
            out += "replace rule salary:\n" + draw(statements("  ", options))
        elif kind == "before":
            out += f"before salary rule b{i}:\n" + draw(statements("  ", options))
        elif kind == "rename":
            out += f'rename space "Chance" to "Luck {i}"\nrename house to "hut"\n'
        elif kind == "dice":
            out += draw(dice())
        elif kind == "set":
            out += f"set starting_cash = ${draw(st.integers(0, 9000))}\n"
        elif kind == "board":
            names = draw(st.lists(st.text("abcdef XYZ.&'", min_size=1, max_size=30),
                                  min_size=1, max_size=5, unique=True))
            out += 'board:\n  "GO": go\n' + "".join(
                f'  "{name}": street in "G", price $60, mortgage $30, house $50, '
                f"rent $2 $10 $30 $90 $160 $250\n" for name in names)
        elif kind == "deck":
            out += (f'deck "Chance":\n  card "C{i}" "Go": advance to "GO"\n'
                    f'  card "D{i}" "Pay": pay $15, collect $1\n')
        else:
            out += (f'option extra "An option":\n  set houses = 30\n{draw(comments("  "))}'
                    f'  rule o{i}:\n    cite "fuzz", "o{i}"\n'
                    + draw(statements("    ")))
        out += "\n" if draw(st.integers(0, 3)) else ""
    return out + draw(comments())
