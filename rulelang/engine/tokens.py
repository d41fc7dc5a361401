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
from .firing import Firing
from .tables import ANY_OWNER, MAX_CHAIN, Hook

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
        for seat in range(n):
            free = tuple(c for c in range(len(rb.characters)) if c not in st.character)
            if not free:
                break  # more players than characters: the rest play without a side
            choice = game.agents[seat].choose_character(game, seat, free)
            if choice not in free:
                raise act.IllegalAction("setup", f"choose one of the free characters {free}")
            st.character[seat] = choice
            st.side[seat] = rb.characters[choice][1]
            if game.logging:
                game.emit("character", "setup", player=seat, character=rb.characters[choice][0],
                          side=rb.sides[rb.characters[choice][1]])
    for _, rule, hook in rb.start_hooks:
        hook(game, Firing(-1, -1, -1, -1, (), 0, rule, None))


def die_value(f: Firing, die: int) -> int:
    """What die `die` shows in the firing's throw (a face without a value counts 0)."""
    face = f.dice[die] if die < len(f.dice) else 0
    return face if isinstance(face, int) else 0


def move_token(game: Game, token: int, dest: int, cause: Firing) -> None:
    """Put the token on `dest`, by `cause`'s rule; then the rules on it reaching there and on
    meeting players, each with a firing about the token on `dest`."""
    st, rb = game.state, game.rulebook
    st.tokens[token] = dest
    if game.logging:
        game.emit("token", cause.rule, token=rb.tokens[token].name, to=rb.spaces[dest].name)
    if game._depth >= MAX_CHAIN:
        game._depth += 1
        game.chain_cut(st.current, cause.rule)
    game._depth += 1
    try:
        for _, rule, hook in rb.reach_hooks.get((token, dest), ()):
            hook(game, Firing(st.current, dest, st.owner[dest], token, cause.dice, cause.total,
                              rule, None))
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
                        _, rule, meet = mh.hook
                        meet(game, Firing(seat, dest, st.owner[dest], token, cause.dice,
                                          cause.total, rule, None))
    finally:
        game._depth -= 1


def move_token_next(game: Game, token: int, table: tuple[int, ...], cause: Firing) -> None:
    """On to the next space of a kind (table[pos]), skipping every other space."""
    dest = table[game.state.tokens[token]]
    if dest >= 0:
        move_token(game, token, dest, cause)


def move_token_by(game: Game, token: int, die: int, onto, cause: Firing) -> None:
    """As many spaces as the die shows in `cause`'s throw; `onto` (is_kind, next_table)
    sends a token that stops on a space of another kind on to the next space of the kind."""
    steps = die_value(cause, die)
    if steps <= 0:
        return
    dest = (game.state.tokens[token] + steps) % game.rulebook.size
    if onto is not None:
        is_kind, table = onto
        if not is_kind[dest]:
            dest = table[dest]
    move_token(game, token, dest, cause)


def meet_on_landing(mh) -> Hook:
    """The landing hook of a `meets` rule: the player meets each matching token there (the
    rule's firing, about each token in turn)."""
    _, rule, meet = mh.hook

    def hook(game: Game, f: Firing):
        st = game.state
        pos = st.position[f.player]
        for t in range(len(st.tokens)):
            if st.tokens[t] == pos and _matches(game, f.player, t, mh):
                meet(game, f.with_token(t))
                if game.stop:
                    return

    return ANY_OWNER, rule, hook


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


def battle(game: Game, f: Firing, die: int) -> None:
    """Throw one die alone: a face of the player's side wins, any other loses. The rules on
    the battle's outcome get the firing of the battle (its player, token and rule)."""
    st, rb = game.state, game.rulebook
    seat = f.player
    faces = rb.dice[die]
    face = game.rng.choice(faces)
    side = rb.face_sides[die][faces.index(face)]
    won = side >= 0 and side == st.side[seat]
    if game.logging:
        token = rb.tokens[f.token].name if f.token >= 0 else None
        game.emit("battle", f.rule, player=seat, token=token, die=rb.die_names[die],
                  face=face, won=won)
    for _, rule, hook in rb.battle_hooks[won]:
        hook(game, f.by_rule(rule))
        if st.bankrupt[seat] or game.over:
            return


def place_token(game: Game, f: Firing, candidates: tuple[int, ...]) -> None:
    """The player puts the token of the event on a free space of a kind (no pawn, no token)."""
    st = game.state
    seat = f.player
    token = f.token
    if token < 0:
        return
    occupied = {st.position[p] for p in range(st.players) if not st.bankrupt[p]}
    occupied.update(st.tokens)
    free = tuple(q for q in candidates if q not in occupied)
    if not free:
        return
    choice = game.agents[seat].place_token(game, seat, token, free)
    if choice not in free:
        raise act.IllegalAction(f.rule, f"put the token on one of the free spaces {free}")
    move_token(game, token, choice, f)


def claim_free(game: Game, f: Firing) -> None:
    """`claim it for free`: the player may take the unowned lot without paying."""
    st = game.state
    seat = f.player
    pos = st.position[seat]
    if st.owner[pos] >= 0:
        return
    if game.agents[seat].claim(game, seat, pos):
        if game.logging:
            game.emit("claim", f.rule, player=seat, space=game.rulebook.spaces[pos].name)
        game.give_deed(pos, seat, f.rule)


def faces_after(game: Game, seat: int, dice: tuple, total: int) -> None:
    """The rules on a face `after moving`: they fire even if the turn was interrupted; their
    firing is of the turn's throw `dice`, where the player stands after the move. A throw a
    card or a rule makes on the way (a utility's rent, `roll the dice`) is its own: it
    neither replaces these dice nor fires these rules."""
    st = game.state
    if game.over or st.bankrupt[seat]:
        return
    stopped, game.stop = game.stop, False
    try:
        for die, face, (_, rule, hook) in game.rulebook.after_face_hooks:
            if dice[die] == face:
                pos = st.position[seat]
                hook(game, Firing(seat, pos, st.owner[pos], -1, dice, total, rule, None))
                if game.over or st.bankrupt[seat]:
                    return
    finally:
        game.stop = game.stop or stopped
