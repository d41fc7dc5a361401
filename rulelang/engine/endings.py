"""How a game ends: bankruptcy, the end triggers (the Nth bankruptcy, the simulated clock, a
rule's `end the game`, the turn cap) and the printed valuation that decides a game ended early.

A game that ends with one player left is won by that player. A game that a trigger ends with
several players left is won by the richest by the printed valuation; the turn cap is never a
win. The clock is simulated: it reads `turn * seconds_per_turn`, so it costs nothing to keep.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import actions as act

if TYPE_CHECKING:
    from .game import Game


class GameOver(Exception):
    """Raised inside the loop when the game ends in the middle of a turn."""


def valuation(game: Game, seat: int) -> int:
    """The printed valuation of the short games: cash, printed prices (half the price for a
    mortgaged lot), buildings at their cost, a hotel with the houses turned in for it."""
    st, rb = game.state, game.rulebook
    total = st.cash[seat]
    for pos in rb.properties:
        if st.owner[pos] == seat:
            price = rb.spaces[pos].price
            total += (price // 2 if st.mortgaged[pos] else price) + game.buildings_paid(pos)
    return total


def richest(game: Game) -> int | None:
    """The player still in the game with the highest valuation; ties go to more cash in
    hand, then to the earlier seat (the seeds are silent on ties)."""
    st = game.state
    alive = [seat for seat in range(st.players) if not st.bankrupt[seat]]
    if not alive:
        return None
    return max(alive, key=lambda seat: (valuation(game, seat), st.cash[seat], -seat))


def turn_limit(settings, max_turns: int) -> tuple[int, str]:
    """(player-turns, reason) after which the game stops: the clock's limit or the cap."""
    if settings.time_limit:
        turns = -(-settings.time_limit * 60 // settings.seconds_per_turn)
        if turns <= max_turns:
            return turns, "time_limit"
    return max_turns, "turn_cap"


def minutes(game: Game) -> float:
    """The simulated clock: minutes played so far."""
    return game.state.turn * game.settings.seconds_per_turn / 60


def at_turn_limit(game: Game, reason: str) -> None:
    """The clock reached the agreed time (the richest wins), or the turn cap (nobody does)."""
    if reason == "time_limit":
        game.finish(reason, richest(game), game.rulebook.origins["time_limit"])
    else:
        game.finish(reason, None, "turn_cap")


# The ends that bounds of the engine give (game.py, tables.py): never a win.
BOUNDS = ("roll_limit", "chain_limit")
# The ends that no rule and no last player decide: `the game ends` does not fire for them.
NOT_ENDED_BY_RULE = BOUNDS + ("turn_cap",)


def time_limit_reached(game: Game) -> None:
    """`when the time limit is reached`: once, at the end of the turn that reaches it; the
    first rule whose conditions hold and that says `end the game` ends it (the richest wins,
    the end named after the rule). Otherwise play goes on to the turn cap."""
    st = game.state
    for ins in game._course.time_limit:
        if ins.holds(game, st.current) and ins.end:
            game.finish(ins.rule, richest(game), ins.rule)
            return
    game._turn_limit, game._limit_reason = game.max_turns, "turn_cap"
    if st.turn >= game.max_turns:
        at_turn_limit(game, "turn_cap")


def at_bound(game: Game, reason: str) -> None:
    """A loop of the engine reached its bound: the game ends at once, with no winner."""
    game.finish(reason, None, reason)
    raise GameOver


def end_now(game: Game, reason: str, rule: str) -> None:
    """End the game at once, by `rule`; the richest by the printed valuation wins."""
    game.finish(reason, richest(game), rule)
    raise GameOver


def bankrupt(game: Game, seat: int, creditor: int, rule: str) -> None:
    """The player cannot pay a debt of `rule`: everything goes to the creditor (a player, the
    bank or a pot). The `bankrupt` line names the debt's rule; what follows is the
    settlement's, labelled by the rulebook's bankruptcy rules (`when a player goes bankrupt`)
    or, with none, "engine".

    To a player: buildings sold to the bank at half price, then cash, deeds and jail cards to
    the creditor (a `deed changes hands` rule asks the interest on mortgaged deeds). To the
    bank or a pot: cash to it, deeds back to the bank free of their mortgages, auctioned if a
    rule says `the bank auctions the lots`. The bankruptcy that a rule's `end the game` ends
    the game with holds no auction and asks no interest, and with `everything goes to the
    creditor` the buildings go too.
    """
    st = game.state
    if st.bankrupt[seat] or alive(game) == 1:
        # the last player in the game has won: what it cannot pay (the interest on the
        # mortgaged deeds of the bankruptcy that left it alone, say) is not asked of it
        return
    rb = game.rulebook
    if game._log:
        game.emit("bankrupt", rule, player=seat, creditor=game.account_name(creditor))
    rules = game._course.bankrupt
    label = rules[0].rule if rules else "engine"  # the first bankruptcy rule's
    ending = everything = auction = False
    reason = ""
    if rules:
        # `when a player goes bankrupt`: the settlement's instructions, read before it; the
        # count of bankruptcies includes this one (nothing reads it in between)
        st.bankruptcies += 1
        to = "player" if creditor < st.players else "bank"
        try:
            for ins in rules:
                if (ins.to is None or ins.to == to) and ins.holds(game, seat, creditor):
                    auction = auction or ins.auction
                    everything = everything or ins.everything
                    if ins.end and not ending:
                        ending, reason = True, ins.rule
        finally:
            st.bankruptcies -= 1
    if not everything:
        act.sell_all_buildings(game, seat, label)
    st.bankrupt[seat] = True
    st.in_jail[seat] = False
    st.bankruptcies += 1
    if seat == st.current:
        game.stop = True
        game.again = False
    lots = [pos for pos in game.rulebook.properties if st.owner[pos] == seat]
    cash = st.cash[seat]
    if cash:
        game.transfer(seat, creditor, cash, "bankruptcy", label)
    if creditor < st.players:
        st.jail_cards[creditor].extend(st.jail_cards[seat])
        st.jail_cards[seat] = []
        for pos in lots:
            game.give_deed(pos, creditor, label)
        if not ending and game._course.deed_from_bankrupt:
            act.deeds_received(game, [(creditor, pos) for pos in lots],
                               game._course.deed_from_bankrupt)
    else:
        for deck_index, card_index in st.jail_cards[seat]:
            st.decks[deck_index].append(card_index)
        st.jail_cards[seat] = []
        for pos in lots:  # everything to the bank, the buildings before any deed
            if st.hotels[pos] or st.houses[pos]:  # (no group is left built unevenly)
                st.bank_hotels += st.hotels[pos]
                st.bank_houses += st.houses[pos]
                st.hotels[pos] = st.houses[pos] = 0
                game.seat_version[seat] += 1
        for pos in lots:
            if st.mortgaged[pos]:
                # the bank is the lender: the deed comes back to it free of the mortgage
                game.set_mortgaged(pos, False)
                if game._log:
                    game.emit("mortgage_cancelled", label, space=rb.spaces[pos].name)
            game.give_deed(pos, -1, label)
        if auction and not ending:
            for pos in lots:
                if alive(game) > 1:
                    game.auction(pos, label)
    if alive(game) <= 1:
        # never nobody: the last player is never made bankrupt (above)
        last = next((i for i in range(st.players) if not st.bankrupt[i]), None)
        game.finish("last_player", last, label)
        raise GameOver
    if ending:
        end_now(game, reason, reason)


def alive(game: Game) -> int:
    return game.state.bankrupt.count(False)
