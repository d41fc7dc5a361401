"""What `rulelang explain` prints: a diagnostic code's section of docs/errors.md, a word of
the language (an event, condition, effect ... or a setting) from its declaration in
`rulelang.vocab`, or a built-in agent from its class (the sections of the language reference
are rulelang.reference's).

The package carries the page as `rulelang/errors.md` (a link to docs/errors.md in the
source tree), so `rulelang explain` and the documentation can never disagree.
"""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

from rulelang.reference import see

__all__ = ["explanation", "sections", "find", "describe", "agent", "action_words"]

_PAGE = Path(__file__).with_name("errors.md")
_HEADING = re.compile(r"^## ([EW]\d{3})\b.*$", re.M)
# Any second-level heading ends a section: the next code's, or a category's (`## Names`).
_ANY_HEADING = re.compile(r"^## ", re.M)


def sections(text: str | None = None) -> dict[str, str]:
    """Code -> its section (heading included) of the error index."""
    if text is None:
        text = _PAGE.read_text(encoding="utf-8")
    out = {}
    for m in _HEADING.finditer(text):
        end = _ANY_HEADING.search(text, m.end())
        out[m.group(1)] = text[m.start():end.start() if end else len(text)].strip()
    return out


def explanation(code: str) -> str:
    """The section of `code`, as printed by `rulelang explain`."""
    return sections().get(code, f"{code}: no explanation is written yet")


# ---------------------------------------------------------------- the vocabulary

_ROLE_NAMES = {"event": "an event", "condition": "a condition", "effect": "an effect",
               "amount": "an amount", "target": "a target (a space an event happens on)",
               "token": "a token reference", "factor": "a value of an expression",
               "action": "an action (of a permission: a player may not ACTION)"}
_FACTS = {
    "moves": "moves the player's pawn, which lands (a chain of rules may follow)",
    "draws": "draws a card (a chain of rules may follow)",
    "ends_turn": "ends the turn: the effects after it never happen",
    "needs_property": "needs an event on a property",
    "card_only": "only a card may say it",
    "alone": "says there is no effect: it stands alone",
    "purchase": "the money buys a deed",
}
# How a few words of a primitive are tried as a whole line, to find which one they are.
_TRIES = ("rule r:\n  when {}: nothing\n", "rule r:\n  when a turn starts: {}\n",
          "rule r:\n  when a turn starts if {} is 0: nothing\n",
          "rule r:\n  when a turn starts if {}: nothing\n",
          "rule r:\n  when a turn starts unless {}: nothing\n",
          "rule r:\n  a player may not {}\n", "rule r:\n  {}\n")


def find(text: str) -> list:
    """The primitives or settings that `text` names: a name (`pay_rent`, `pay rent`,
    `jail_fine`) or a use (`pay rent x2`, `a player lands on "GO"`)."""
    from rulelang import vocab  # the vocabulary only when explaining one of its words

    words = " ".join(text.split())  # one line, whatever the input
    name = words.replace(" ", "_").lower()
    if name in vocab.BY_NAME:
        return [vocab.BY_NAME[name]]
    if name in vocab.SETTINGS:
        return [vocab.SETTINGS[name]]
    low = words.lower()
    if low in STRUCTURE:
        return [STRUCTURE[low]]
    permission = False
    for prefix in ("a player may not ", "may not "):
        if low.startswith(prefix) and len(low) > len(prefix):
            words, permission = words[len(prefix):], True
            break
    found = [p for p in vocab.PRIMITIVES
             if any(s.split(" [")[0] == words for s in vocab.shown_forms(p))]
    found = found or _containing(words) or _parsed(words)
    actions = [p for p in found if p.role == "action"]
    return actions if permission and actions else found  # `may not buy`: the action alone


class Structure(str):
    """The explanation of a word of the language's structure (no primitive of its own)."""


_CHOICE = Structure(
    "the player chooses one: EFFECTS; EFFECTS[; EFFECTS ...]\n\n"
    "An effect that offers the player its options, separated by ';' (the effects of one\n"
    "option by ','); the agent picks one, the engine checks it and logs a `choice` event. A\n"
    "choice ends its line and holds no choice. Targets may be the player's choice too:\n"
    "`advance to a KIND of the player's choice` (rulelang explain advance_choice).\n"
    f"More: {see('Choices')}.")
_PERMISSION = Structure(
    "a player may not ACTION [if CONDITION | unless CONDITION] ...\n\n"
    "A permission: the engine refuses the action when the conditions hold (`if`) or fail\n"
    "(`unless`), after its own checks, and names the rule that refused it. The actions:\n"
    "{actions} (rulelang explain build, ...).\n"
    f"More: {see('Permissions')}.")
_CONDITION = Structure(
    "when EVENT if CONDITION: ...   when EVENT unless CONDITION: ...\n\n"
    "A condition is a test (rulelang explain compare, in_jail, holds_group, ...) or tests\n"
    "joined: `not` binds tightest, then `and`, then `or`; parentheses group. `unless C` is\n"
    "`if not (C)`; several guards must all hold. `where CONDITION` narrows the spaces a move\n"
    f"may pick, its tests read on each candidate space. More: {see('Conditions')}.")
_ELSE = Structure(
    "advance to the next KIND [where CONDITION], else EFFECT\n\n"
    "The one effect after `, else` runs when no space qualifies; the effects after it on\n"
    "the line run either way.\n"
    f"More: {see('Moves by die and to the next space that qualifies')}.")
STRUCTURE = {
    **dict.fromkeys(("choose", "chooses", "choice", "the player chooses one"), _CHOICE),
    **dict.fromkeys(("permission", "permissions", "may", "may not", "a player may not"),
                    _PERMISSION),
    **dict.fromkeys(("condition", "conditions", "if", "unless", "and", "or", "not",
                     "where"), _CONDITION),
    "else": _ELSE,
}


# At most this many primitives are explained for words that only appear in their forms.
MAX_FOUND = 6


def _containing(words: str) -> list:
    """The primitives whose forms hold every word of `words`, whole, in order (`explain
    choice`, `explain "advance to the next"`), if there are a few."""
    from rulelang import vocab

    wanted = words.lower().split()
    if not wanted:
        return []
    found = []
    for p in vocab.PRIMITIVES:
        for form in vocab.shown_forms(p):
            have = [w.strip("[]\"',") for w in form.lower().split()]
            have += [w.rstrip("s") for w in have if w.endswith("'s")]  # `player's` -> `player'`
            if _in_order(wanted, have):
                found.append(p)
                break
    return found if len(found) <= MAX_FOUND else []


def _in_order(wanted: list[str], have: list[str]) -> bool:
    """Whether the words of `wanted` are all in `have`, in that order (each word whole, or
    the start of a word: `choice` in `choice`, `choose` in `chooses`)."""
    i = 0
    for w in have:
        if i < len(wanted) and (w == wanted[i] or (len(wanted[i]) > 3 and w.startswith(wanted[i]))):
            i += 1
    return i == len(wanted)


def suggestion(text: str) -> str | None:
    """The closest word of the language to `text`, written as it is used (`advance to the next
    KIND`, not its internal name), or None."""
    from rulelang import vocab
    from rulelang.resolve import closest

    names = list(vocab.BY_NAME) + list(vocab.SETTINGS)
    name = closest(text.replace(" ", "_"), names)
    if name is None:
        return None
    if name in vocab.SETTINGS:
        return f"did you mean the setting '{name}'?"
    p = vocab.BY_NAME[name]
    if p.role == "action":
        return f"did you mean 'a player may not {action_words(p)}'?"
    return f"did you mean '{action_words(p)}' (rulelang explain {name})?"


def action_words(p) -> str:
    """The words of a primitive's first form without its optional parts, as a rule writes
    them (an action: `build`, `lift a mortgage`), which `rulelang explain` finds."""
    from rulelang import vocab

    return vocab.shown_forms(p)[0].split(" [")[0]


def agent(name: str) -> str | None:
    """What `rulelang explain` prints of a built-in agent (`default`, `own-turn`, `random`):
    what its class says it does (`Agent.about`), or None if `name` is none of them."""
    from rulelang.engine.agents import AGENTS

    key = name.strip().lower()
    cls = AGENTS.get(key)
    if cls is None:
        return None
    doc = textwrap.fill(cls.about or "A player the engine provides.", 90)
    return (f"agent '{key}': a built-in player (rulelang run --agents {key})\n\n"
            f"{doc}\n\nThe built-in agents: {', '.join(AGENTS)} "
            "(--agents a,b,c: one for each seat; --agents a: a at every seat).")


def _parsed(words: str) -> list:
    from rulelang import ast, vocab
    from rulelang.diagnostics import RuleError, RuleErrors
    from rulelang.parse import parse_text

    for template in _TRIES:
        try:
            file = parse_text('rulebook "explain"\n' + template.format(words), "<explain>")
        except (RuleError, RuleErrors):
            continue
        rule = file.items[0] if len(file.items) == 1 else None
        when = rule.body[0] if isinstance(rule, ast.Rule) and len(rule.body) == 1 else None
        if isinstance(when, ast.Permission):
            return [p for p in (vocab.primitive_of(when.action),) if p is not None]
        if not isinstance(when, ast.When):
            continue  # the words were more than one primitive
        nodes = [when.event] if template.startswith("rule r:\n  when {}") else \
            list(when.effects) if ": {}" in template else list(when.conditions)
        if " is 0" in template and nodes and hasattr(nodes[0], "left"):
            nodes = [nodes[0].left]  # the words were a value: `the number of … is 0`
        if nodes and isinstance(nodes[0], (ast.Lands, ast.Passes, ast.TokenReaches,
                                           ast.RentDue)) and words.startswith('"'):
            continue
        return [p for p in (vocab.primitive_of(n) for n in nodes) if p is not None][:1]
    return []


def describe(item) -> str:
    """What `rulelang explain` prints of a primitive or a setting, from its declaration."""
    from rulelang import vocab

    if isinstance(item, Structure):
        if item is _PERMISSION:  # the actions as the vocabulary declares them
            words = ", ".join(action_words(p) for p in vocab.PRIMITIVES if p.role == "action")
            return str(item).replace("{actions}", textwrap.fill(words, 90))
        return str(item)

    if isinstance(item, vocab.SettingSpec):
        def value(v) -> str:
            if item.type == "money":
                return f"${v}"
            if item.type == "percent":
                return f"{v}%"
            if isinstance(v, bool):
                return "yes" if v else "no"
            if isinstance(v, tuple) and len(v) == 2:
                return f"{v[0]} to {v[1]}"
            return "none" if v == "" else str(v)

        lines = [f"setting '{item.name}': {item.type}, default {value(item.default)}",
                 f"  {item.doc}"]
        if item.choices:
            lines.append(f"  one of: {', '.join(item.choices)}")
        if item.low is not None and item.high is not None:
            lines.append(f"  from {value(item.low)} to {value(item.high)}")
        elif item.low is not None:
            lines.append(f"  at least {value(item.low)}")
        elif item.high is not None:
            lines.append(f"  at most {value(item.high)}")
        lines.append(f"  set {item.name} = ...   (more: {see('Settings')})")
        return "\n".join(lines)
    p = item
    if p.role == "action":  # written only after `a player may not`: shown so, by its words
        lines = [f"{action_words(p)}: {_ROLE_NAMES[p.role]}"]
        lines += [f"  a player may not {form}" for form in vocab.shown_forms(p)]
    else:
        lines = [f"{p.name}: {_ROLE_NAMES[p.role]}"]
        lines += [f"  {form}" for form in vocab.shown_forms(p)]
    lines += ["", f"{p.doc[0].upper()}{p.doc[1:]}."]
    if p.params:
        lines += ["", "Parameters:"]
        for param in p.params:
            t = vocab.TYPES[param.type]
            bounds = []
            if param.low is not None:
                bounds.append(f"at least {param.low}")
            if param.high is not None:
                bounds.append(f"at most {param.high}")
            if param.nonzero:
                bounds.append("never 0")
            extra = f" ({', '.join(bounds)})" if bounds else ""
            lines.append(f"  {param.name}: {t.shown}, {t.doc}{extra}")
    facts = [text for name, text in _FACTS.items() if getattr(p.facts, name)]
    flows = {p.money_of_form(f) for f in p.forms} - {None}
    facts[:0] = [f"money: from {a} to {b}" for a, b in sorted(flows)]
    if p.facts.clash:
        facts.append(f"{p.facts.clash} (two unordered rules doing so on one event are W103)")
    if p.modifies is not None:
        facts.append(f"modifies the '{p.modifies[1]}' of the effect before it")
    if facts:
        lines += ["", "What the checker knows of it:"] + [f"  {f}" for f in facts]
    if p.example:
        lines += ["", "Example:", f"  {p.example}"]
    return "\n".join(lines)
