"""Tokens that are not players, players' sides and battles: the primitives of themed editions.

A token (the One Ring, a Force symbol) is a piece with a position and its own movement; a
move of a token may end the game (`when token ... reaches`) and makes it meet the players on
its new space (`when a player meets ...`), as a player's move onto a token's space does.
Players may pick a character, and so a side; a battle throws one die alone and is won on a
face of the player's side. A rulebook with none of this never calls into this module, apart
from `setup`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import actions as act
from .tables import MAX_CHAIN

if TYPE_CHECKING:
    from .game import Game


def setup(game: Game) -> None:
    """Tokens on their starting spaces, a character for each player, then `the game starts`."""
    st, rb = game.state, game.rulebook
    n = st.players
    st.tokens = [t.start for t in rb.tokens]
    st.character = [-1] * n
    st.side = [-1] * n
    if rb.characters:
        game.rule = "sides"
        for seat in range(n):
            free = tuple(c for c in range(len(rb.characters)) if c not in st.character)
            if not free:
                break  # more players than characters: the rest play without a side
            choice = game.agents[seat].choose_character(game, seat, free)
            if choice not in free:
                raise act.IllegalAction("sides", f"choose one of the free characters {free}")
            st.character[seat] = choice
            st.side[seat] = rb.characters[choice][1]
            if game.logging:
                game.emit("character", player=seat, character=rb.characters[choice][0],
                          side=rb.sides[rb.characters[choice][1]])
    for hook in rb.start_hooks:
        hook(game, -1, None)


def roll_dice(game: Game, seat: int) -> None:
    """`roll the dice`: a throw of every die that moves nothing by itself."""
    game.roll(seat)


def die_value(game: Game, die: int) -> int:
    """What die `die` shows in the last throw (a face without a value counts 0)."""
    face = game.last_roll[die] if die < len(game.last_roll) else 0
    return face if isinstance(face, int) else 0


def move_token(game: Game, token: int, dest: int) -> None:
    """Put the token on `dest`; then the rules on it reaching there and on meeting players."""
    st, rb = game.state, game.rulebook
    st.tokens[token] = dest
    if game.logging:
        game.emit("token", token=rb.tokens[token].name, to=rb.spaces[dest].name)
    if game._depth >= MAX_CHAIN:
        game._depth += 1
        game.chain_cut(st.current)
    outer = game.token
    game.token = token
    game._depth += 1
    try:
        for hook in rb.reach_hooks.get((token, dest), ()):
            hook(game, st.current, None)
            if game.over or game.stop:  # the end, or the turn interrupted (a chain cut)
                return
        if rb.meet_hooks:
            for seat in game.bidders():
                if st.position[seat] != dest:
                    continue
                for mh in rb.meet_hooks:
                    if st.tokens[token] != dest or st.bankrupt[seat]:
                        break
                    if _matches(game, seat, token, mh):
                        game.token = token
                        mh.hook(game, seat, None)
    finally:
        game.token = outer
        game._depth -= 1


def move_token_next(game: Game, token: int, table: tuple[int, ...]) -> None:
    """On to the next space of a kind (table[pos]), skipping every other space."""
    dest = table[game.state.tokens[token]]
    if dest >= 0:
        move_token(game, token, dest)


def move_token_by(game: Game, token: int, die: int, onto) -> None:
    """As many spaces as the die shows; `onto` (is_kind, next_table) sends a token that
    stops on a space of another kind on to the next space of the kind."""
    steps = die_value(game, die)
    if steps <= 0:
        return
    dest = (game.state.tokens[token] + steps) % game.rulebook.size
    if onto is not None:
        is_kind, table = onto
        if not is_kind[dest]:
            dest = table[dest]
    move_token(game, token, dest)


def meet_on_landing(mh):
    """The landing hook of a `meets` rule: the player meets each matching token there."""

    def hook(game: Game, seat, ctx):
        st = game.state
        pos = st.position[seat]
        outer = game.token
        try:
            for t in range(len(st.tokens)):
                if st.tokens[t] == pos and _matches(game, seat, t, mh):
                    game.token = t
                    mh.hook(game, seat, ctx)
                    if game.stop:
                        return
        finally:
            game.token = outer

    return hook


def _matches(game: Game, seat: int, token: int, mh) -> bool:
    if mh.token >= 0 and mh.token != token:
        return False
    if not mh.opposing:
        return True
    side = game.rulebook.tokens[token].side
    mine = game.state.side[seat]
    return side >= 0 and mine >= 0 and side != mine


def holds(game: Game, seat: int, token: int) -> bool:
    """The space the player stands on holds the token."""
    st = game.state
    return st.tokens[token] == st.position[seat]


def battle(game: Game, seat: int, die: int) -> None:
    """Throw one die alone: a face of the player's side wins, any other loses."""
    st, rb = game.state, game.rulebook
    faces = rb.dice[die]
    face = game.rng.choice(faces)
    side = rb.face_sides[die][faces.index(face)]
    won = side >= 0 and side == st.side[seat]
    if game.logging:
        token = rb.tokens[game.token].name if game.token >= 0 else None
        game.emit("battle", player=seat, token=token, die=rb.die_names[die], face=face, won=won)
    rule = game.rule
    for hook in rb.battle_hooks[won]:
        hook(game, seat, None)
        game.rule = rule
        if st.bankrupt[seat] or game.over:
            return


def place_token(game: Game, seat: int, candidates: tuple[int, ...]) -> None:
    """The player puts the token of the event on a free space of a kind (no pawn, no token)."""
    st = game.state
    token = game.token
    if token < 0:
        return
    occupied = {st.position[p] for p in range(st.players) if not st.bankrupt[p]}
    occupied.update(st.tokens)
    free = tuple(q for q in candidates if q not in occupied)
    if not free:
        return
    choice = game.agents[seat].place_token(game, seat, token, free)
    if choice not in free:
        raise act.IllegalAction(game.rule, f"put the token on one of the free spaces {free}")
    move_token(game, token, choice)


def claim_free(game: Game, seat: int, ctx=None) -> None:
    """`claim it for free`: the player may take the unowned lot without paying."""
    st = game.state
    pos = st.position[seat]
    if st.owner[pos] >= 0:
        return
    if game.agents[seat].claim(game, seat, pos):
        if game.logging:
            game.emit("claim", player=seat, space=game.rulebook.spaces[pos].name)
        game.give_deed(pos, seat)


def faces_after(game: Game, seat: int, dice) -> None:
    """The rules on a face `after moving`: they fire even if the turn was interrupted."""
    st = game.state
    if game.over or st.bankrupt[seat]:
        return
    stopped, game.stop = game.stop, False
    try:
        for die, face, hook in game.rulebook.after_face_hooks:
            if dice[die] == face:
                hook(game, seat, None)
                if game.over or st.bankrupt[seat]:
                    return
    finally:
        game.stop = game.stop or stopped
