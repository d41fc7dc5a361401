"""What `rulelang explain` prints: a diagnostic code's section of docs/errors.md, or a word of
the language (an event, condition, effect ... or a setting) from its declaration in
`rulelang.vocab`.

The package carries the page as `rulelang/errors.md` (a link to docs/errors.md in the
source tree), so `rulelang explain` and the documentation can never disagree.
"""

from __future__ import annotations

import re
from pathlib import Path

__all__ = ["explanation", "sections", "find", "describe"]

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
    found = [p for p in vocab.PRIMITIVES
             if any(s.split(" [")[0] == words for s in vocab.shown_forms(p))]
    return found or _parsed(words)


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
        if nodes and isinstance(nodes[0], (ast.Lands, ast.Passes, ast.TokenReaches,
                                           ast.RentDue)) and words.startswith('"'):
            continue
        return [p for p in (vocab.primitive_of(n) for n in nodes) if p is not None][:1]
    return []


def describe(item) -> str:
    """What `rulelang explain` prints of a primitive or a setting, from its declaration."""
    from rulelang import vocab

    if isinstance(item, vocab.SettingSpec):
        lines = [f"setting '{item.name}': {item.type}, default {item.default!r}",
                 f"  {item.doc}"]
        if item.choices:
            lines.append(f"  one of: {', '.join(item.choices)}")
        if item.low is not None or item.high is not None:
            lines.append(f"  from {item.low} to {item.high if item.high is not None else 'any'}")
        lines.append(f"  set {item.name} = ...   (see docs/language.md, Settings)")
        return "\n".join(lines)
    p = item
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
