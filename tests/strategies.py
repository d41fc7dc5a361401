"""Hypothesis strategies shared by the property tests: seeds, tables and agents for a ruleset."""

from __future__ import annotations

from hypothesis import strategies as st

from invariants import load

SEEDS = st.integers(0, 2**32 - 1)
AGENT_NAMES = ("default", "random")


def players(ruleset: str) -> st.SearchStrategy[int]:
    """A player count within the rulebook's range."""
    low, high = load(ruleset).settings.players
    return st.integers(low, high)


@st.composite
def tables(draw, ruleset: str, agents: str = "mixed"):
    """(seed, agent names one per seat) for a game of the ruleset.

    agents: "default" or "random" seats that agent everywhere; "mixed" draws each seat.
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
    if value["end_at_bankruptcy"] or value["time_limit"]:
        drawn["winner"] = "richest"
    lots = len(rb.properties)
    if value["deal_deeds"] * value["players"][1] > lots:
        drawn["deal_deeds"] = lots // value["players"][1]
    body = "".join(f"  set {n} = {_written(SETTINGS[n], v)}\n" for n, v in drawn.items())
    chosen = tuple(o for o in options if draw(st.booleans(), label=f"option {o}"))
    new_dice = draw(st.one_of(st.just(""), dice()), label="dice")
    return body, chosen, new_dice


# The events of the game's course and the effects they may carry (vocab/game_events.py),
# for rulebooks that play them; the checker sorts out the pairs it refuses (E351).
COURSE_EVENTS = ("a turn ends", "a player is sent to jail", "a player takes a turn in jail",
                 "a player leaves jail", "a street is offered", "a property is auctioned",
                 "a railroad is bought", "a building is bought", "a house is sold",
                 "a hotel is bought", "a mortgage is taken", "a mortgage is lifted",
                 "a deed changes hands", 'a card is drawn from "Chance"', "a card is drawn",
                 "a player cannot pay", "a player goes bankrupt",
                 "a player goes bankrupt to the bank", "a player goes bankrupt to another player",
                 "the game ends", "the time limit is reached", "buildings run short",
                 "the game starts", "a player lands on a street", "a turn starts")
COURSE_EFFECTS = ("collect $7", "pay $9", "pay the fine", "leave jail", "go to jail",
                  "lift the mortgage or pay the interest", "auction the building",
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
