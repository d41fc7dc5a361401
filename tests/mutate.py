"""The tests must be able to fail: plant each deliberate bug in a copy of the project, run the
suite there, and report which test caught it.

    python -m tests.mutate                 # BUGS, each against the whole suite; exit 1 if
                                           # any goes uncaught
    python -m tests.mutate --list          # the bugs, one line each
    python -m tests.mutate card_lost ...   # only these
    python -m tests.mutate --tests tests/test_machine.py   # which bugs this file catches
    python -m tests.mutate --fidelity      # the fidelity bugs, each against its row's tests
    python -m tests.mutate --draw 13       # the audit's rows of docs/fidelity.md, each's bug

Each bug is a snippet of the source and its replacement; a snippet that no longer appears
exactly once is reported as such (the code moved: update the bug), never silently skipped.
A fidelity bug breaks the statement of one row of docs/fidelity.md (drawn at random by
`draw`) and runs only against the tests that row cites: each must fail.
The suite runs with `-x` under the "mutate" hypothesis profile (the ci profile, no shrinking)
and a fixed hypothesis seed, so a report can be reproduced.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from attrs import frozen

ROOT = Path(__file__).resolve().parent.parent
COPIED = ("rulelang", "cli", "tests", "rulesets", "docs", "editors", "README.md",
          "pyproject.toml", "mkdocs.yml")


@frozen
class Bug:
    name: str
    what: str
    file: str
    old: str
    new: str
    # a fidelity bug: the row of docs/fidelity.md whose statement it breaks ("NNN | statement")
    # and the tests that row cites, the only ones it runs against
    row: str = ""
    tests: tuple[str, ...] = ()


BUGS = (
    Bug("salary_from_nowhere", "a salary (any `collect` from the bank) paid from nowhere",
        "rulelang/compile.py",
        "                g.transfer(g.state.bank, f.player, amount, f.rule, f.rule)\n"
        "            env.direct[fn] = lambda g, player, space, owner, dice, total, rule, rent, "
        "streak: \\\n                g.transfer(g.state.bank, player, amount, rule, rule)\n",
        "                g.state.cash[f.player] += amount\n"
        "            env.direct[fn] = lambda g, player, space, owner, dice, total, rule, rent, "
        "streak: \\\n                g.state.cash.__setitem__(player, g.state.cash[player] + "
        "amount)\n"),
    Bug("rent_not_doubled", "rent not doubled on the unimproved lots of a whole group: the "
        "factors of `when rent is due` rules ignored", "rulelang/compile.py",
        '    """`pay rent` in a rulebook with `when rent is due` rules: their factors apply too."""\n',
        '    """`pay rent` in a rulebook with `when rent is due` rules: their factors apply too."""\n'
        "    mods = tuple(tuple((tests, 1, rule) for tests, _, rule in here) for here in mods)\n"),
    Bug("uneven_building", "uneven building allowed within a group: `the space has the fewest "
        "buildings of the group` holds one level above the fewest",
        "rulelang/evaluate.py",
        "if (there < here) if fewest else (there > here):",
        "if (there < here - 1) if fewest else (there > here):"),
    Bug("bankruptcy_keeps_mortgages", "a bankruptcy to the bank that forgets to cancel the "
        "mortgages: the bank holds mortgaged deeds", "rulelang/engine/endings.py",
        "                game.set_mortgaged(pos, False)\n",
        "                pass\n"),
    Bug("bankruptcy_forgets_mortgage_interest", "a bankruptcy to a player that forgets the "
        "mortgages: the creditor pays no interest on the mortgaged deeds",
        "rulelang/engine/endings.py",
        "            act.deeds_received(game, [(creditor, pos) for pos in lots],\n"
        "                               game._course.deed_from_bankrupt)\n",
        "            pass\n"),
    Bug("basculement_by_a_later_throw", "the Force symbols moved by the last throw of the turn "
        "(a card's utility throw) instead of the throw that showed the Basculement",
        "rulelang/engine/tokens.py",
        "hook(game, Firing(seat, pos, st.owner[pos], -1, dice, total, rule, None))",
        "hook(game, Firing(seat, pos, st.owner[pos], -1, game.last_roll, total, rule, None))"),
    Bug("battle_winner_must_move_the_symbol", "Star Wars: the winner of a battle is made to "
        "move the symbol (« vous pouvez déplacer ce symbole »)", "rulesets/starwars_ep2.rules",
        "the player chooses one: move the token to a free property; nothing",
        "move the token to a free property"),
    Bug("decouverte_rent_by_the_moving_throw", "Dinosaures: the Découvertes' rent by the throw "
        "that moved the pawn, not a new throw", "rulesets/dinos.rules",
        "unless the space is mortgaged: roll the dice, pay rent",
        "unless the space is mortgaged: pay rent"),
    Bug("card_rent_thrown_twice", "a card's `rent dice xN` throws again after a rule's `roll the "
        "dice` made the throw", "rulelang/engine/game.py",
        "if not ctx.thrown:  # else the firing's throw is that new throw",
        "if True:"),
    Bug("traded_mortgage_lifted_with_interest", "Dinosaures: a mortgaged lot bought by trade and "
        "lifted at once costs the mortgage plus 10%", "rulesets/dinos.rules",
        "lift the mortgage at its value or pay the interest",
        "lift the mortgage or pay the interest"),
    Bug("bankrupts_mortgage_lifted_at_value", "Dinosaures: the creditor of a bankrupt lifts "
        "a mortgage for its value alone, without the 10% he owes first", "rulesets/dinos.rules",
        "from a bankrupt player if the space is mortgaged: lift the mortgage or pay",
        "from a bankrupt player if the space is mortgaged: lift the mortgage at its value or pay"),
    Bug("fourth_stronghold", "LOTR short game: a fourth stronghold before the fortress",
        "rulesets/lotr_short.rules",
        "  set houses_per_hotel = 3\n",
        "  set houses_per_hotel = 4\n"),
    Bug("card_lost", "a card lost from its deck: drawn and never put back under",
        "rulelang/engine/game.py",
        "        deck.append(card_index)\n        return card\n",
        "        return card\n"),
    Bug("jail_card_not_returned", "a Get Out of Jail Free card used and not returned to its deck",
        "rulelang/engine/game.py",
        "st.decks[deck_index].append(card_index)\n            self._free(seat, \"card\",",
        "self._free(seat, \"card\","),
    Bug("house_not_returned", "a house sold back that never returns to the bank's supply",
        "rulelang/engine/actions.py",
        "st.houses[pos] -= 1\n        st.bank_houses += 1",
        "st.houses[pos] -= 1"),
    Bug("building_on_mortgaged_group", "building allowed on a group with a mortgaged lot: the "
        "permission `a lot of the group is mortgaged`, read on the state, looks at the group's "
        "first lot only",
        "rulelang/engine/actions.py",
        "        for q in lots:\n            if mortgaged[q]:",
        "        for q in lots[:1]:\n            if mortgaged[q]:"),
    Bug("refused_lift_changes_state", "a refused lift that lifts the mortgage anyway",
        "rulelang/engine/actions.py",
        "    _pledge(game, seat, action.pos, False, check_lift(game, seat, action.pos))",
        "    game.state.mortgaged[action.pos] = False\n"
        "    _pledge(game, seat, action.pos, False, check_lift(game, seat, action.pos))"),
    Bug("unseeded_shuffle", "decks shuffled by Python's global generator, not the game's",
        "rulelang/engine/course.py",
        "game.rng.shuffle(deck)",
        "__import__(\"random\").shuffle(deck)"),
    Bug("quiet_rent_from_nowhere", "with the log off, a rent the player can pay is credited to "
        "the owner and never taken from the payer (the path the log-on invariants never run)",
        "rulelang/engine/game.py",
        "                self.transfer(seat, owner, rent, \"rent\", rule)\n",
        "                if self._log:\n"
        "                    self.transfer(seat, owner, rent, \"rent\", rule)\n"
        "                else:\n"
        "                    st.cash[owner] += rent\n"),
    Bug("shortage_bid_unchecked", "a bid for a scarce building above the cash the bidder can pay",
        "rulelang/engine/actions.py",
        "if bid > building_bid_limit(game, seat, lot.kind):",
        "if bid > means(game, seat):"),
    Bug("agent_decides_bankruptcy", "an agent that stops raising funds goes bankrupt though its "
        "mortgages and sales could pay the debt",
        "rulelang/engine/game.py",
        "if not debt or act.means(self, seat) < amount:",
        "if True:"),
    Bug("salary_twice_in_a_turn", "the 1961 salary paid again on a second pass of GO in one turn",
        "rulesets/classic_1961.rules",
        "when a player passes \"GO\" if the player's laps this turn is 1: collect $200",
        "when a player passes \"GO\": collect $200"),
    Bug("save_forgets_generator", "a save that does not restore the dice generator's state",
        "rulelang/save.py",
        "        _restore_generator(game.rng, saved.rng)\n",
        "        pass\n"),
)


def _row(section: str, statement: str) -> str:
    return f"{section} | {statement}"


# Each bug breaks the statement of one row of docs/fidelity.md drawn by the audit (AUDIT_SEED)
# and runs only against the tests that row cites (`python -m tests.mutate --fidelity`).
FIDELITY_BUGS = (
    # 004: Monopoly, Canadian rules (1961)
    Bug("double_rent_lost_beside_a_mortgage", "1961: no double rent on a whole group once "
        "another lot of it is mortgaged", "rulesets/classic_1961.rules",
        "if the space has no building and the owner holds the whole group: rent x2",
        "if the space has no building and no lot of the group is mortgaged and the owner "
        "holds the whole group: rent x2",
        _row("004", "even when another lot of the group is mortgaged"),
        ("test_rules_1961_rent.py::test_double_rent_even_when_another_lot_of_the_group_is_"
         "mortgaged",)),
    Bug("sold_jail_card_lost", "a Get Out of Jail Free card sold to another player vanishes "
        "instead of changing hands", "rulelang/engine/actions.py",
        "        st.jail_cards[p].append(st.jail_cards[seat].pop(0))\n",
        "        st.jail_cards[seat].pop(0)\n",
        _row("004", '"Sortez de prison" kept until used, then under; may be sold'),
        ("test_rules_1961_cards.py::test_jail_card_sold_to_another_player",)),
    Bug("mortgaged_lot_not_held", "a mortgaged railroad or utility no longer counts among "
        "those its owner holds: the group's other lots rent less", "rulelang/engine/game.py",
        "                if st.owner[q] == owner:\n                    held += 1\n",
        "                if st.owner[q] == owner and not st.mortgaged[q]:\n"
        "                    held += 1\n",
        _row("004", "no rent on it; the group's other lots still rent"),
        ("test_rules_1961_mortgages.py::test_mortgaged_utility_pays_no_rent_but_the_other_does"
         "_at_ten_times",)),
    Bug("short_1961_four_houses", "1961 short game: four houses before a hotel",
        "rulesets/classic_1961_short.rules",
        "  set houses_per_hotel = 3\n", "  set houses_per_hotel = 4\n",
        _row("004", "2. three houses on every lot before a hotel; same hotel rent"),
        ("test_rules_1961_short.py::test_hotel_after_three_houses",)),
    Bug("timed_1961_hour_fixed", "1961 time-limit game: the hour is no parameter, always 90 "
        "minutes", "rulesets/classic_1961_timed.rules",
        "  parameter time_limit = 90\n", "  set time_limit = 90\n",
        _row("004", "(agreed before the game: a parameter)"),
        ("test_rules_1961_short.py::test_time_limit_is_a_parameter_agreed_before_the_game",)),
    # 003: Monopoly Dinosaures !
    Bug("dinos_first_bankruptcy_ends", "Dinosaures: the game ends at the first bankruptcy, "
        "not when one player is left", "rulesets/dinos.rules",
        "when a player goes bankrupt to the bank: the bank auctions the lots",
        "when a player goes bankrupt: end the game",
        _row("003", "deed values of a classic game; the four corners unchanged; the last "
             "player left wins"),
        ("test_rules_dinos.py::test_deeds_keep_the_classic_values",
         "test_rules_modern_common.py::test_the_last_player_left_wins")),
    Bug("dinos_unowned_ignored", "Dinosaures: an unowned property is neither sold nor "
        "auctioned", "rulesets/dinos.rules",
        "when a player lands on an unowned property: buy or auction",
        "when a player lands on an unowned property: nothing",
        _row("003", "1)–3) roll, move clockwise, obey the space"),
        ("test_rules_modern_common.py::test_buy_or_auction",)),
    Bug("dinos_four_doubles", "Dinosaures: prison after four doubles in a row",
        "rulesets/dinos.rules",
        "when a player rolls doubles 3 times in a row: go to jail",
        "when a player rolls doubles 4 times in a row: go to jail",
        _row("003", "5) a double: roll again; three doubles: to prison"),
        ("test_rules_modern_common.py::test_doubles_roll_again_and_three_go_to_jail",)),
    Bug("dinos_bankrupts_mortgage_free", "Dinosaures: the creditor of a bankrupt takes the "
        "mortgaged lots without paying the 10%", "rulesets/dinos.rules",
        "from a bankrupt player if the space is mortgaged: lift the mortgage or pay the interest",
        "from a bankrupt player if the space is mortgaged: nothing",
        _row("003", "to a player: mortgaged lots and jail cards to him; he pays 10% and keeps "
             "or lifts"),
        ("test_rules_modern_common.py::test_bankruptcy_to_a_player",)),
    Bug("prisoner_collects_no_rent", "an owner in prison collects no rent",
        "rulelang/engine/game.py",
        "        if owner < 0 or owner == seat or owner != landed:\n            return\n",
        "        if owner < 0 or owner == seat or owner != landed or st.in_jail[owner]:\n"
        "            return\n",
        _row("003", "claim rent even out of turn, even in prison"),
        ("test_rules_modern_common.py::test_jailed_owner_collects_rent",)),
    Bug("dinos_fine_50", "Dinosaures: the prison fine is 50, not 150", "rulesets/dinos.rules",
        "  set jail_fine = $150\n", "  set jail_fine = $50\n",
        _row("003", "a) pay 150 at the start of the next turn, then roll and move"),
        ("test_rules_dinos.py::test_jail_fine_is_150_paid_before_rolling",)),
    Bug("jail_card_used_no_roll", "a prisoner who uses a Get Out of Jail Free card does not "
        "roll that turn", "rulelang/engine/game.py",
        "            self._free(seat, \"card\", rb.decks[deck_index].cards[card_index].rule)\n"
        "            if not self.stop:\n                self._rolls(seat)\n",
        "            self._free(seat, \"card\", rb.decks[deck_index].cards[card_index].rule)\n",
        _row("003", "b) use or buy a card, then roll"),
        ("test_rules_dinos.py::test_quick_forced_exit_with_a_card",)),
    Bug("dinos_visit_sends_to_prison", "Dinosaures: a visitor stopping on the Prison space is "
        "sent to prison", "rulesets/dinos.rules",
        "when a player lands on \"Allez en prison\": go to jail",
        "when a player lands on \"Prison\": go to jail",
        _row("003", "just visiting: no penalty"),
        ("test_rules_modern_common.py::test_just_visiting_jail_has_no_effect",)),
    Bug("dinos_parc_pays", "Dinosaures: the Parc gratuit pays 100", "rulesets/dinos.rules",
        "when a player lands on \"Parc gratuit\": nothing",
        "when a player lands on \"Parc gratuit\": collect $100",
        _row("003", "nothing happens; transactions go on"),
        ("test_rules_dinos.py::test_nothing_on_parc_gratuit",)),
    # 000: the French standard rules
    Bug("french_decks_unshuffled", "French rules: the decks are not shuffled at the start",
        "rulesets/french_standard.rules",
        "  when the game starts: shuffle the decks\n", "  when the game starts: nothing\n",
        _row("000", "1.–3. equipment in the box; the two decks shuffled, face down; pawns on "
             "GO"),
        ("test_rules_modern_common.py::test_cards_drawn_obeyed_and_put_under",
         "test_rules_modern_common.py::test_decks_shuffled_face_down_and_pawns_on_go")),
    Bug("french_four_doubles", "French rules: jail after four doubles in a row",
        "rulesets/french_standard.rules",
        "when a player rolls doubles 3 times in a row: go to jail",
        "when a player rolls doubles 4 times in a row: go to jail",
        _row("000", "a double: obey, roll again; three in a row: to jail"),
        ("test_rules_modern_common.py::test_doubles_roll_again_and_three_go_to_jail",)),
    Bug("french_bid_in_cash", "French rules: no bid above the cash in hand, although the "
        "winner may raise the funds", "rulesets/french_standard.rules",
        "  when a player lands on an unowned property: buy or auction\n",
        "  when a player lands on an unowned property: buy or auction\n"
        "  a player may not bid if the bid is more than the player's cash\n",
        _row("000", "(how the winner pays: not said)"),
        ("test_rules_french.py::test_auction_bid_may_exceed_cash_when_funds_can_be_raised",)),
    Bug("french_rent_claimed_late", "French rules: rent may be claimed until the fifth "
        "following player rolls", "rulesets/french_standard.rules",
        "  set rent_claim_window = 2\n", "  set rent_claim_window = 5\n",
        _row("000", "claimed before the second player after you rolls"),
        ("test_rules_french.py::test_rent_must_be_claimed_before_the_second_player_after_rolls",)),
    Bug("french_two_jail_turns", "French rules: a prisoner may try for a double on two turns "
        "only", "rulesets/french_standard.rules",
        "  set jail_turns = 3\n", "  set jail_turns = 2\n",
        _row("000", "out: pay 50, use or buy a card, or a double within three turns (moving by "
             "it); then pay 50 and move"),
        ("test_rules_modern_common.py::test_leaving_jail",)),
    Bug("french_buildings_sold_at_60", "French rules: buildings sold back to the bank at 60%",
        "rulesets/french_standard.rules",
        "  set building_sale = 50%\n", "  set building_sale = 60%\n",
        _row("000", "buildings to the bank only, at half, evenly, any time"),
        ("test_rules_modern_common.py::test_houses_sold_back_at_half_price",)),
    Bug("french_build_beside_a_mortgage", "French rules: building allowed on a group with a "
        "mortgaged lot", "rulesets/french_standard.rules",
        "  a player may not build if a lot of the group is mortgaged\n", "",
        _row("000", "building again once no lot of the group is mortgaged"),
        ("test_rules_french.py::test_no_house_while_a_lot_of_the_group_is_mortgaged",)),
    Bug("trade_on_credit", "a trade for more cash than the payer holds: a loan between "
        "players", "rulelang/engine/actions.py",
        "    if t.cash > st.cash[seat] or -t.cash > st.cash[p]:\n",
        "    if -t.cash > st.cash[p]:\n",
        _row("000", "owners watch for their rents; only the bank lends, by mortgage; no loans "
             "between players"),
        ("test_rules_modern_common.py::test_no_loans",)),
    Bug("french_quick_third_bankruptcy", "French quick game: the game ends at the third "
        "bankruptcy", "rulesets/french_quick.rules",
        "if the number of bankruptcies is 2:", "if the number of bankruptcies is 3:",
        _row("000", "3. the game ends at the second; all to the creditor; valuation 1–5; the "
             "richest wins"),
        ("test_rules_french.py::test_quick_game_ends_at_the_second_bankruptcy_everything_to_"
         "the_creditor",)),
    # 002: the Star Wars standard rules (the French standard rules)
    Bug("french_capital_1400", "French rules: 1400 each at the start",
        "rulesets/french_standard.rules",
        "  set starting_cash = $1500\n", "  set starting_cash = $1400\n",
        _row("002", "4. a player is banker (only banker above 5 players); 1500 each"),
        ("test_rules_modern_common.py::test_salary_passing_or_stopping_on_go",)),
    Bug("french_rent_on_streets_only", "French rules: rent only on streets; a railroad or a "
        "utility landed on is not obeyed", "rulesets/french_standard.rules",
        "when a player lands on a property owned by another player: pay rent",
        "when a player lands on a street owned by another player: pay rent",
        _row("002", "roll two dice, move, obey the space; pawns may share a space"),
        ("test_rules_modern_common.py::test_railroad_and_utility_rents",)),
    Bug("french_rent_tripled", "French rules: a whole group's bare lots rent three times the "
        "deed", "rulesets/french_standard.rules",
        "no lot of the group is mortgaged and the owner holds the whole group: rent x2",
        "no lot of the group is mortgaged and the owner holds the whole group: rent x3",
        _row("002", "rent by the deed and its buildings, none on a mortgaged lot"),
        ("test_rules_modern_common.py::test_rent_doubled_on_a_whole_group_and_none_on_a_"
         "mortgaged_lot",)),
    Bug("french_chance_draws_chest", "French rules: the Chance space draws from the Community "
        "Chest", "rulesets/french_standard.rules",
        "when a player lands on \"Chance\": draw from \"Chance\"",
        "when a player lands on \"Chance\": draw from \"Community Chest\"",
        _row("002", "top card, obey, under; the jail card kept or sold; passing GO pays; jail "
             "is not passing GO"),
        ("test_rules_modern_common.py::test_cards_drawn_obeyed_and_put_under",)),
    Bug("french_income_tax_by_worth", "French rules: the Impôts offer 10% of worth",
        "rulesets/french_standard.rules",
        "  when a player lands on \"Income Tax\": pay $200\n",
        "  when a player lands on \"Income Tax\": pay $200 or 10% of worth\n",
        _row("002", "pay the amount shown to the bank"),
        ("test_rules_french.py::test_income_tax_is_a_flat_amount",)),
    Bug("hotel_sold_without_houses", "a hotel sold back leaves no houses on its lot",
        "rulelang/engine/actions.py",
        "        st.houses[pos] = game.settings.houses_per_hotel\n"
        "        st.bank_houses -= game.settings.houses_per_hotel\n", "",
        _row("002", "a hotel traded for four houses and half its value"),
        ("test_rules_french.py::test_hotel_traded_back_for_four_houses_and_half_its_price",)),
    Bug("french_build_beside_a_mortgage_on_its_own_lot", "French rules: the mortgage "
        "permission reads the lot built on only, not the whole group",
        "rulesets/french_standard.rules",
        "  a player may not build if a lot of the group is mortgaged\n",
        "  a player may not build if the space is mortgaged\n",
        _row("002", "building again once no lot of the group is mortgaged"),
        ("test_rules_french.py::test_no_house_while_a_lot_of_the_group_is_mortgaged",)),
    Bug("french_first_bankruptcy_ends", "French rules: the game ends at the first bankruptcy, "
        "not when one player is left", "rulesets/french_standard.rules",
        "when a player goes bankrupt to the bank: the bank auctions the lots",
        "when a player goes bankrupt: end the game",
        _row("002", "the last player left wins"),
        ("test_rules_modern_common.py::test_the_last_player_left_wins",)),
    Bug("french_quick_nothing_to_the_creditor", "French quick game: at the second bankruptcy "
        "the creditor receives nothing", "rulesets/french_quick.rules",
        ": everything goes to the creditor, end the game", ": end the game",
        _row("002", "3. the game ends at the second; all to the creditor; valuation 1–5; the "
             "richest wins"),
        ("test_rules_french.py::test_quick_game_ends_at_the_second_bankruptcy_everything_to_"
         "the_creditor",)),
    Bug("french_timed_no_end", "French time-limit game: the agreed hour ends nothing",
        "rulesets/french_timed.rules",
        "  when the time limit is reached: end the game\n",
        "  when the time limit is reached: nothing\n",
        _row("002", "an hour agreed before; the richest then wins"),
        ("test_rules_french.py::test_time_limit_game_ends_at_the_agreed_hour",)),
    # 001: The Lord of the Rings Trilogy Edition (English)
    Bug("lotr_decks_swapped", "LOTR: the People and Event decks named the other way round",
        "rulesets/lotr.rules",
        "rename deck \"Community Chest\" to \"Event\"\nrename deck \"Chance\" to \"People\"",
        "rename deck \"Community Chest\" to \"People\"\nrename deck \"Chance\" to \"Event\"",
        _row("001", "People and Event cards replace Chance and Community Chest (the classic "
             "effects, D3)"),
        ("test_rules_lotr.py::test_themed_names",)),
    Bug("lotr_money", "LOTR: the currency is still Money", "rulesets/lotr.rules",
        "currency \"Power\"", "currency \"Money\"",
        _row("001", "Power replaces Money"),
        ("test_rules_lotr.py::test_themed_names",)),
    Bug("classic_boardwalk_at_350", "the classic board's Boardwalk (LOTR: Mount Doom) priced "
        "350", "rulesets/classic_board.rules",
        "\"Boardwalk\":             street in \"Dark Blue\", price $400,",
        "\"Boardwalk\":             street in \"Dark Blue\", price $350,",
        _row("001", "territories throughout Middle-earth; all the values are those of the "
             "classic deeds (D1 for the names)"),
        ("test_rules_lotr.py::test_territories_keep_the_classic_values",)),
    Bug("lotr_ring_gift_elsewhere", "LOTR: the free claim on every unclaimed territory but the "
        "Ring's", "rulesets/lotr.rules",
        "when a player lands on an unowned street if the space holds token \"The One Ring\"",
        "when a player lands on an unowned street unless the space holds token \"The One Ring\"",
        _row("001", "landing on the Ring's unclaimed territory: claim it free; declined, the "
             "usual purchase (D5)"),
        ("test_rules_lotr.py::test_the_ring_moves_before_the_pawn_and_gives_the_territory_free",
         "test_rules_lotr.py::test_no_free_claim_where_the_ring_is_not",
         "test_rules_lotr.py::test_declining_the_free_claim_leaves_the_usual_purchase")),
    Bug("lotr_double_rent_beside_a_mortgage", "LOTR: double rent on a whole group with a "
        "mortgaged lot", "rulesets/lotr.rules",
        "if the space has no building and no lot of the group is mortgaged and the owner holds",
        "if the space has no building and the owner holds",
        _row("001", "(lost) double rent on the bare lots of a whole group, not while a lot of "
             "it is mortgaged (D2)"),
        ("test_rules_lotr.py::test_no_double_rent_on_a_whole_group_with_a_mortgaged_lot",
         "test_rules_lotr.py::test_double_rent_doubles_the_whole_group_rent_too")),
    Bug("electric_company_x12", "the classic board's Electric Company (LOTR: Staff of "
        "Gandalf) rents 12 times the dice with both", "rulesets/classic_board.rules",
        "price $150, mortgage $75, rent dice x4 x10\n  \"States Avenue\"",
        "price $150, mortgage $75, rent dice x4 x12\n  \"States Avenue\"",
        _row("001", "(lost) the staffs rent 4 times the dice, 10 times with both"),
        ("test_rules_lotr.py::test_staffs_of_the_wizards_rent_four_or_ten_times_the_dice",)),
    Bug("reading_railroad_flat", "the classic board's Reading Railroad (LOTR: Bill the Pony) "
        "rents 25 whatever the number held", "rulesets/classic_board.rules",
        "\"Reading Railroad\":      railroad in \"Railroads\", price $200, mortgage $100, "
        "rent $25 $50 $100 $200",
        "\"Reading Railroad\":      railroad in \"Railroads\", price $200, mortgage $100, "
        "rent $25 $25 $25 $25",
        _row("001", "(lost) the steeds rent by the number held"),
        ("test_rules_lotr.py::test_steeds_rent_by_the_number_held",)),
    Bug("lotr_prisoner_collects_nothing", "LOTR: an owner in jail collects no rent",
        "rulesets/lotr.rules",
        "replace rule full_group:\n",
        "replace rule rent:\n  when a player lands on a property owned by another player unless "
        "the owner is in jail: pay rent\n  set rent_claim_window = 2\n\nreplace rule "
        "full_group:\n",
        _row("001", "(lost) in jail a player collects rent; just visiting: no penalty"),
        ("test_rules_lotr.py::test_a_jailed_owner_collects_rent_and_a_visitor_pays_nothing",)),
    Bug("lotr_build_on_any_lot", "LOTR: strongholds on a group the player does not hold "
        "whole", "rulesets/lotr.rules",
        "replace rule full_group:\n",
        "replace rule houses:\n  a player may not build unless the space has the fewest "
        "buildings of the group\n\nreplace rule full_group:\n",
        _row("001", "(lost) strongholds only on a complete color-group the player owns"),
        ("test_rules_lotr.py::test_strongholds_only_on_a_whole_group_and_sold_back_evenly",)),
    Bug("lotr_sell_unevenly", "LOTR: strongholds sold back unevenly", "rulesets/lotr.rules",
        "replace rule full_group:\n",
        "replace rule selling:\n  a player may not trade a property if a lot of the group has a "
        "building\n\nreplace rule full_group:\n",
        _row("001", "(STRONGHOLDS) strongholds sold back to the Bank evenly"),
        ("test_rules_lotr.py::test_strongholds_only_on_a_whole_group_and_sold_back_evenly",)),
    Bug("lotr_traded_mortgage_lifted_at_value", "LOTR: a mortgaged territory bought by trade "
        "and lifted at once costs the mortgage value alone", "rulesets/lotr.rules",
        "when a deed changes hands if the space is mortgaged: lift the mortgage or pay the "
        "interest",
        "when a deed changes hands if the space is mortgaged: lift the mortgage at its value or "
        "pay the interest",
        _row("001", "nobody else lifts it; sold at an agreed price, the new owner lifts at once "
             "(+10%) or pays 10% now and again when lifting later"),
        ("test_rules_lotr.py::test_new_owner_of_a_mortgaged_territory_pays_ten_percent_at_once_"
         "and_again_later",
         "test_rules_1961_mortgages.py::test_new_owner_by_trade_may_lift_at_once_for_mortgage_"
         "plus_ten_percent")),
    Bug("lotr_short_second_bankruptcy", "LOTR short game: the game ends at the second "
        "bankruptcy", "rulesets/lotr_short.rules",
        "when a player goes bankrupt: end the game",
        "when a player goes bankrupt if the number of bankruptcies is 2: end the game",
        _row("001", "5. the game ends at the first bankruptcy (settled as in the regular game, "
             "D7); the valuation (fortresses with three strongholds) decides; the most powerful "
             "wins"),
        ("test_rules_lotr_short.py::test_change_5_the_first_bankruptcy_ends_the_game_and_the_"
         "most_powerful_wins",)),
    # 000: Le Seigneur des Anneaux (LOTR parts)
    Bug("lotr_fr_eight_players", "LOTR (French): up to 8 players", "rulesets/lotr_fr.rules",
        "  set players = 2 to 6\n", "  set players = 2 to 8\n",
        _row("000", "6 pawns"),
        ("test_rules_lotr_fr.py::test_players_two_to_six",)),
    Bug("lotr_fr_money", "LOTR (French): the currency is the euro", "rulesets/lotr_fr.rules",
        "currency \"Pouvoir\"", "currency \"euro\"",
        _row("000", "Pouvoir replaces money"),
        ("test_rules_lotr_fr.py::test_themed_names",)),
    Bug("lotr_fr_one_eye", "LOTR (French): the second die carries no Eye",
        "rulesets/lotr_fr.rules",
        "die \"second dé\" faces 1..6, face 1 named \"Œil de Sauron\"",
        "die \"second dé\" faces 1..6",
        _row("000", "two special dice with the Eye of Sauron"),
        ("test_rules_lotr_fr.py::test_both_dice_carry_the_eye",)),
    Bug("one_face_rule_per_throw", "a throw fires the rules of its first matching face only: "
        "two Eyes move the Ring once", "rulelang/engine/game.py",
        "            if dice[die] == face:\n"
        "                hook(self, self._thrown(seat, dice, total, rule, streak))\n",
        "            if dice[die] == face:\n"
        "                hook(self, self._thrown(seat, dice, total, rule, streak))\n"
        "                break\n",
        _row("000", "1. Remarque: two Eyes move the Ring two territories"),
        ("test_rules_lotr_fr.py::test_two_eyes_move_the_ring_two_territories",)),
    Bug("valuation_mortgage_at_full_price", "the count values a mortgaged lot at its full "
        "price", "rulelang/engine/endings.py",
        "total += (price // 2 if st.mortgaged[pos] else price) + game.buildings_paid(pos)",
        "total += price + game.buildings_paid(pos)",
        _row("000", "the five-part count: Pouvoir, prices, mortgaged at half, Places-fortes, "
             "Forteresses with their 4 Places-fortes (D6)"),
        ("test_rules_lotr_fr.py::test_the_count_at_mount_doom_halves_mortgages_and_values_"
         "forteresses_with_four",)),
    Bug("lotr_fr_timed_no_end", "LOTR (French) time-limit game: the agreed hour ends nothing",
        "rulesets/lotr_fr_timed.rules",
        "  when the time limit is reached: end the game\n",
        "  when the time limit is reached: nothing\n",
        _row("000", "an hour agreed before the game; the richest then wins (D8)"),
        ("test_rules_lotr_fr.py::test_time_limit_game_ends_at_the_agreed_hour",)),
    # 002: Monopoly Star Wars Épisode II (edition parts)
    Bug("starwars_no_battle", "Star Wars: meeting a symbol of the other side starts no "
        "battle", "rulesets/starwars_ep2.rules",
        "when a player meets a token of another side: battle with \"Force\"",
        "when a player meets a token of another side: nothing",
        _row("002", "the Force obscure and Force claire symbols move on: meet the other side"),
        ("test_rules_starwars.py::test_a_light_player_landing_on_the_dark_symbol_fights_and_"
         "wins_on_white",)),
    Bug("starwars_maisons", "Star Wars: the houses keep their name", "rulesets/starwars_ep2.rules",
        "rename house to \"Appartement\"", "rename house to \"Maison\"",
        _row("002", "Appartements and Tours are the houses and hotels"),
        ("test_rules_starwars.py::test_themed_names",)),
    Bug("starwars_six_players", "Star Wars: up to 6 players, not 8",
        "rulesets/starwars_ep2.rules",
        "  set players = 2 to 8\n", "  set players = 2 to 6\n",
        _row("002", "8 pawns, 16 Jedi and 16 Sith cards, 32 Appartements, 12 Tours, 2 standard "
             "dice and the Force die, 2 Force symbols"),
        ("test_rules_starwars.py::test_contents",)),
    Bug("starwars_droid_on_the_light_side", "Star Wars: the Super Droïde de Combat on the "
        "light side", "rulesets/starwars_ep2.rules",
        "\"Soldat Clone\"\nside \"Le Mal\": \"Super Droïde de Combat\", ",
        "\"Soldat Clone\", \"Super Droïde de Combat\"\nside \"Le Mal\": ",
        _row("002", "each player chooses a light or a dark character (S5) and starts on GO"),
        ("test_rules_starwars.py::test_characters_give_sides",)),
    Bug("pawn_moves_by_the_first_die", "the pawn moves by the first die alone",
        "rulelang/engine/tables.py",
        "if any(isinstance(f, int) for f in faces)]",
        "if any(isinstance(f, int) for f in faces)][:1]",
        _row("002", "1. the three dice are thrown together"),
        ("test_rules_starwars.py::test_the_pawn_moves_by_the_white_and_black_dice_only",)),
    Bug("doubles_of_every_die", "doubles must match on every die, the Force die too",
        "rulelang/engine/tables.py",
        "pair = list(self.doubles_dice) if self.doubles_dice is not None else moving",
        "pair = list(self.doubles_dice) if self.doubles_dice is not None else list(range("
        "len(self.dice)))",
        _row("002", "2. the pawn moves by white + black, and the space is obeyed as in the "
             "classic game"),
        ("test_rules_starwars.py::test_the_pawn_moves_by_the_white_and_black_dice_only",
         "test_rules_starwars.py::test_doubles_are_the_white_and_black_dice")),
    Bug("starwars_white_square_moves", "Star Wars: a white square moves the light symbol",
        "rulesets/starwars_ep2.rules",
        "when a die shows \"carré blanc\" after moving: nothing",
        "when a die shows \"carré blanc\" after moving: move token \"Force claire\" by \"blanc\" "
        "onto a property",
        _row("002", "3. a square, black or white: no symbol moves"),
        ("test_rules_starwars.py::test_a_square_moves_no_symbol",)),
    Bug("battle_winner_may_not_move", "Star Wars: the winner of a battle may not move the "
        "symbol", "rulesets/starwars_ep2.rules",
        "when a player wins a battle: the player chooses one: move the token to a free "
        "property; nothing",
        "when a player wins a battle: nothing",
        _row("002", "« vous pouvez déplacer ce symbole »: the winner may move the symbol, or "
             "leave it where it stands (S6)"),
        ("test_rules_starwars.py::test_the_winner_may_move_the_symbol_or_leave_it",
         "test_rules_starwars.py::test_the_winner_is_not_asked_to_move_the_symbol_after_a_lost"
         "_battle")),
    Bug("starwars_timed_no_end", "Star Wars time-limit game: the agreed hour ends nothing",
        "rulesets/starwars_ep2_timed.rules",
        "  when the time limit is reached: end the game\n",
        "  when the time limit is reached: nothing\n",
        _row("002", "as the French standard time-limit game: the richest at the agreed hour "
             "wins"),
        ("test_rules_starwars.py::test_time_limit_game_ends_at_the_agreed_hour",)),
)


AUDIT_SEED = 13  # the seed of the audit's draw (docs/testing.md)
# docs/fidelity.md as the audit drew its rows from it
AUDIT_COMMIT = "d2203c6eeb2ae31a99eb71f999351e8f7ac51b86"
AUDIT_SIZE = 60
AUDIT_LEAST = 5  # rows drawn from each `## ` section of docs/fidelity.md at least


def fidelity_rows(text: str | None = None) -> list[tuple[str, tuple[str, str, str, str]]]:
    """The rows of docs/fidelity.md (or of `text`, a version of it), (section, (place,
    statement, rules, tests)), read as tests/test_fidelity.py reads them."""
    sys.path.insert(0, str(ROOT / "tests"))
    from test_fidelity import DOC, ROW
    rows, section = [], None
    for line in (DOC.read_text(encoding="utf-8") if text is None else text).splitlines():
        if line.startswith("## "):
            section = line[3:]
        m = ROW.match(line)
        if m:
            rows.append((section, m.groups()))
    return rows


def audit_document() -> str | None:
    """docs/fidelity.md at AUDIT_COMMIT (None without the git history): rows added since
    would change the draw, not the audit."""
    done = subprocess.run(["git", "show", f"{AUDIT_COMMIT}:docs/fidelity.md"], cwd=ROOT,
                          capture_output=True, text=True, encoding="utf-8")
    return done.stdout if done.returncode == 0 else None


def draw(seed: int, text: str | None = None, size: int = AUDIT_SIZE,
         least: int = AUDIT_LEAST) -> list[tuple[str, tuple]]:
    """`size` rows of docs/fidelity.md (or of `text`) drawn with random.Random(seed): `least`
    from each section, the rest from all the rows left, in the order of the document."""
    rows = fidelity_rows(text)
    rng = random.Random(seed)
    sections = list(dict.fromkeys(s for s, _ in rows))
    chosen: set[int] = set()
    for section in sections:
        chosen |= set(rng.sample([i for i, (s, _) in enumerate(rows) if s == section], least))
    rest = [i for i in range(len(rows)) if i not in chosen]
    chosen |= set(rng.sample(rest, size - len(chosen)))
    return [rows[i] for i in sorted(chosen)]


def row_key(section: str, row: tuple) -> str:
    """How a bug names its row: the seed number of the section, then the statement."""
    return f"{section[:3]} | {row[1]}"


def occurrences(bug: Bug, root: Path = ROOT) -> int:
    """How many times the bug's snippet appears in the source (it must be exactly once)."""
    return (root / bug.file).read_text(encoding="utf-8").count(bug.old)


def _copy(dest: Path) -> None:
    # not the compiled engine (rulelang native build): the bugs are planted in the sources
    ignore = shutil.ignore_patterns("__pycache__", ".hypothesis", ".pytest_cache", "*.egg-info",
                                    "*.so", "_native.json")
    for name in COPIED:
        src = ROOT / name
        if src.is_dir():
            # links stay links: rulelang/rulesets must still be the copy's own rulesets/
            shutil.copytree(src, dest / name, ignore=ignore, symlinks=True)
        elif src.exists():
            shutil.copy2(src, dest / name)


# The whole suite's files in the order a bug's run takes them: the quick tests that catch most
# bugs first (the scenario tests of each edition's rules and of the conditions, the engine's
# bounds, the golden transcripts, the documented Python examples), then the property tests,
# then the rest in their usual order. With `-x` a caught bug stops there instead of after
# every slower file.
FIRST = ("test_rules_*.py", "test_expressions.py", "test_bounds.py", "test_replay.py",
         "test_docs_python.py", "test_engine.py", "test_game_events.py", "test_invariants.py",
         "test_save.py", "test_machine.py")


def suite_order(tests_dir: Path = ROOT / "tests") -> list[str]:
    """Every test file of the suite (but test_mutate.py, which sees the bug too), likely
    catchers first."""
    order: list[str] = []
    for pattern in (*FIRST, "test_*.py"):
        for path in sorted(tests_dir.glob(pattern)):
            name = f"tests/{path.name}"
            if name not in order and path.name != "test_mutate.py":
                order.append(name)
    return order


def run_suite(root: Path, seed: int, tests: list[str], every: bool) -> subprocess.CompletedProcess:
    """The suite in `root` (by default every file, in `suite_order`), importing the rulelang
    of `root`; stops at the first failure unless `every`."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(root), str(root / "cli")]),
               HYPOTHESIS_PROFILE="mutate")
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-rfE", "-p", "no:cacheprovider",
         f"--hypothesis-seed={seed}", "--ignore=tests/test_mutate.py",  # it sees the bug too
         *([] if every else ["-x"]), *(tests or suite_order(root / "tests"))],
        cwd=root, env=env, capture_output=True, text=True)


def caught_by(output: str) -> list[str]:
    """The failing tests named in pytest's short summary."""
    return re.findall(r"^(?:FAILED|ERROR) (\S+)", output, re.M)


def try_bug(bug: Bug, seed: int, tests: list[str] = (), every: bool = False
            ) -> tuple[str, str, float]:
    """(verdict, detail, seconds): 'caught' and the test, 'MISSED', 'STALE', or 'BROKEN'
    (a test module fails to import in the copy: nothing was shown about the bug)."""
    start = time.monotonic()
    with tempfile.TemporaryDirectory(prefix=f"mutate-{bug.name}-") as tmp:
        root = Path(tmp)
        _copy(root)
        path = root / bug.file
        text = path.read_text(encoding="utf-8")
        if text.count(bug.old) != 1:
            return "STALE", f"the snippet appears {text.count(bug.old)} times in {bug.file}", 0.0
        path.write_text(text.replace(bug.old, bug.new), encoding="utf-8")
        done = run_suite(root, seed, list(tests), every)
    seconds = time.monotonic() - start
    if done.returncode == 0:
        return "MISSED", "the tests passed", seconds
    failing = caught_by(done.stdout)
    if failing and all("::" not in f for f in failing):  # a module that does not even import
        return "BROKEN", f"{failing[0]} fails to collect: the copy is broken, not the bug " \
            "caught", seconds
    if not failing:
        tail = (done.stdout + done.stderr).strip().splitlines()[-3:]
        return "caught", "the tests failed: " + " / ".join(tail), seconds
    more = f" (and {len(failing) - 1} more)" if len(failing) > 1 else ""
    return "caught", failing[0] + more, seconds


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.mutate", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("names", nargs="*", help="only these bugs (default: every one)")
    parser.add_argument("--list", action="store_true", help="list the bugs and stop")
    parser.add_argument("--seed", type=int, default=0, help="hypothesis seed (default 0)")
    parser.add_argument("--tests", nargs="+", default=[], metavar="PATH",
                        help="run only these test files or ids (default: the whole suite, or "
                        "a fidelity bug's own tests)")
    parser.add_argument("--every", action="store_true",
                        help="do not stop at the first failure: count every failing test")
    parser.add_argument("--jobs", "-j", type=int, default=1, metavar="N",
                        help="plant and try N bugs at a time, each in its own copy (default 1)")
    parser.add_argument("--fidelity", action="store_true",
                        help="the fidelity bugs, each against the tests its row cites")
    parser.add_argument("--draw", type=int, metavar="SEED",
                        help=f"print the {AUDIT_SIZE} rows of docs/fidelity.md (as of "
                        f"{AUDIT_COMMIT}) drawn with SEED and the bug that breaks each, then stop")
    args = parser.parse_args(argv)
    if args.draw is not None:
        return print_draw(args.draw)
    known = {b.name: b for b in (*BUGS, *FIDELITY_BUGS)}
    unknown = [n for n in args.names if n not in known]
    if unknown:
        parser.error(f"unknown bug {', '.join(unknown)}; --list shows them")
    every_bug = FIDELITY_BUGS if args.fidelity else BUGS
    if args.list:
        for b in every_bug:
            print(f"{b.name:<38} {b.file:<28} {b.what}")
        return 0
    bugs = [known[n] for n in args.names] if args.names else list(every_bug)
    failed = 0

    def attempt(bug: Bug) -> tuple[str, str, float]:
        tests = args.tests or [f"tests/{t}" for t in bug.tests]
        return try_bug(bug, args.seed, tests, args.every)

    with ThreadPoolExecutor(max(1, args.jobs)) as pool:  # each bug's suite is a child process
        for bug, (verdict, detail, seconds) in zip(bugs, pool.map(attempt, bugs)):
            failed += verdict != "caught"
            print(f"{verdict:<7} {bug.name:<38} {seconds:6.1f} s  {detail}", flush=True)
    kinds = {"fidelity" if b in FIDELITY_BUGS else "deliberate" for b in bugs}
    print(f"{len(bugs) - failed} of {len(bugs)} {' and '.join(sorted(kinds))} bugs caught")
    return 1 if failed else 0


def print_draw(seed: int) -> int:
    """The rows drawn from docs/fidelity.md as it was at AUDIT_COMMIT (else as it is), each
    with the fidelity bug that breaks it, or `-`."""
    by_row = {b.row: b.name for b in FIDELITY_BUGS}
    text = audit_document()
    drawn = draw(seed, text)
    for section, row in drawn:
        key = row_key(section, row)
        print(f"{by_row.get(key, '-'):<38} {key}  [{row[3]}]")
    where = f"docs/fidelity.md at {AUDIT_COMMIT}" if text is not None else "docs/fidelity.md"
    print(f"{len(drawn)} rows of {where}, {sum(row_key(*r) in by_row for r in drawn)} "
          "with a bug")
    return 0


if __name__ == "__main__":
    sys.exit(main())
