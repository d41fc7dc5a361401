"""A rulebook's board drawn as a board, each space shaded by a figure: a heatmap with matplotlib.

The spaces go round the edge as on the printed board: the first space (GO) in the bottom
right corner, then leftwards along the bottom, up the left side, rightwards along the top and
down the right side; the corners are the spaces a quarter of the way round. Each space shows
its colour group, its name and its figure; the jail's corner shows In Jail apart from Just
Visiting when the figure has one. Used by `rulelang analyze --plot` (and meant for every
picture of landings on a board).
"""

from __future__ import annotations

import textwrap
from typing import Sequence

from ..engine.tables import Rulebook

CORNER = 2.0  # a corner is CORNER x CORNER, a side space 1 x CORNER
BAND = 0.38  # the depth of a street's colour band
# the group names of the rulebooks, as colours (others get a palette colour by group)
_GROUP_COLOURS = {"purple": "#7b3f8c", "brown": "#8b5a2b", "light blue": "#a8d8f0",
                  "violet": "#d53c96", "pink": "#d53c96", "orange": "#f39c12", "red": "#e03030",
                  "yellow": "#f7e04a", "green": "#2e9e4f", "dark blue": "#1f4e9c"}


def _layout(n: int):
    """Per space: (x, y, width, height, side) with side 0 bottom, 1 left, 2 top, 3 right (a
    corner takes the side it starts), and the board's width and height."""
    inner = n - 4
    per_side = [inner // 4 + (1 if i < inner % 4 else 0) for i in range(4)]
    width = 2 * CORNER + max(per_side[0], per_side[2])
    height = 2 * CORNER + max(per_side[1], per_side[3])
    cells = []
    # bottom: the corner at the bottom right, then leftwards
    cells.append((width - CORNER, 0.0, CORNER, CORNER, 0))
    step = (width - 2 * CORNER) / per_side[0] if per_side[0] else 1
    for i in range(per_side[0]):
        cells.append((width - CORNER - (i + 1) * step, 0.0, step, CORNER, 0))
    cells.append((0.0, 0.0, CORNER, CORNER, 1))
    step = (height - 2 * CORNER) / per_side[1] if per_side[1] else 1
    for i in range(per_side[1]):
        cells.append((0.0, CORNER + i * step, CORNER, step, 1))
    cells.append((0.0, height - CORNER, CORNER, CORNER, 2))
    step = (width - 2 * CORNER) / per_side[2] if per_side[2] else 1
    for i in range(per_side[2]):
        cells.append((CORNER + i * step, height - CORNER, step, CORNER, 2))
    cells.append((width - CORNER, height - CORNER, CORNER, CORNER, 3))
    step = (height - 2 * CORNER) / per_side[3] if per_side[3] else 1
    for i in range(per_side[3]):
        cells.append((width - CORNER, height - CORNER - (i + 1) * step, CORNER, step, 3))
    return cells, width, height


def _group_colour(rulebook: Rulebook, pos: int):
    from matplotlib import colormaps

    sp = rulebook.spaces[pos]
    if sp.kind != "street" or sp.group < 0:
        return None
    name = rulebook.group_names[sp.group].lower()
    if name in _GROUP_COLOURS:
        return _GROUP_COLOURS[name]
    return colormaps["tab10"](sp.group % 10)


def board_figure(rulebook: Rulebook, values: Sequence[float], *, in_jail: float | None = None,
                 title: str = "", caption: str = "", legend: str = "",
                 fmt: str = "{:.2%}", cmap: str = "YlOrRd"):
    """A matplotlib Figure of the board, space i shaded by values[i] (and the jail's In Jail
    part by in_jail), each labelled with its name and fmt.format(value)."""
    from matplotlib.colors import Normalize
    from matplotlib.figure import Figure
    from matplotlib.patches import Rectangle
    from matplotlib import colormaps

    n = rulebook.size
    cells, width, height = _layout(n)
    # the scale spans the spaces' figures above zero: a space nobody ends on (Go To Jail)
    # shows in the palest colour, In Jail above the scale (--jail stay) in the darkest,
    # without flattening the others
    positive = [v for v in values if v > 0] or [0.0]
    norm = Normalize(vmin=min(positive), vmax=max(max(values), min(positive) + 1e-12),
                     clip=True)
    above = in_jail is not None and in_jail > norm.vmax
    colours = colormaps[cmap]
    fig = Figure(figsize=(13, 13 * height / width), dpi=110)
    ax = fig.add_axes((0.01, 0.01, 0.98, 0.98))
    ax.set_xlim(-0.05, width + 0.05)
    ax.set_ylim(-0.05, height + 0.05)
    ax.set_aspect("equal")
    ax.axis("off")
    ax.add_patch(Rectangle((0, 0), width, height, facecolor="#f4f1e8", edgecolor="black",
                           linewidth=1.2))
    jail = rulebook.jail if in_jail is not None else -1
    for pos, (x, y, w, h, side) in enumerate(cells):
        corner = w == h == CORNER
        shade = colours(norm(values[pos]))
        ax.add_patch(Rectangle((x, y), w, h, facecolor=shade, edgecolor="black",
                               linewidth=0.8))
        band = _group_colour(rulebook, pos)
        if band is not None and not corner:
            # the colour band on the edge towards the middle of the board
            bx, by, bw, bh = {0: (x, y + h - BAND, w, BAND), 1: (x + w - BAND, y, BAND, h),
                              2: (x, y, w, BAND), 3: (x, y, BAND, h)}[side]
            ax.add_patch(Rectangle((bx, by), bw, bh, facecolor=band, edgecolor="black",
                                   linewidth=0.6))
        name = rulebook.spaces[pos].name
        value = fmt.format(values[pos])
        if pos == jail:
            _jail_corner(ax, (x, y, w, h), (width / 2, height / 2), name, value, shade,
                         colours(norm(in_jail)), fmt.format(in_jail))
            continue
        if corner:
            _label(ax, x + w / 2, y + h / 2, name, value, 0, 14, 9, shade)
            continue
        # the text runs along the long side of the space, read from outside the board
        rotation = {0: 90, 1: 0, 2: 90, 3: 0}[side]
        cx, cy = x + w / 2, y + h / 2
        if band is not None:
            cx, cy = {0: (cx, cy - BAND / 2), 1: (cx - BAND / 2, cy),
                      2: (cx, cy + BAND / 2), 3: (cx + BAND / 2, cy)}[side]
        _label(ax, cx, cy, name, value, rotation, 16 if band is None else 14, 7.5, shade)
    # the middle: the title, the caption and the scale
    ax.text(width / 2, height * 0.66, title, ha="center", va="center", fontsize=17,
            fontweight="bold", wrap=True)
    if caption:
        ax.text(width / 2, height * 0.58, caption, ha="center", va="center", fontsize=11,
                color="#333333")
    bar = fig.add_axes((0.3, 0.36, 0.4, 0.025))
    from matplotlib.cm import ScalarMappable

    mappable = ScalarMappable(norm=norm, cmap=colours)
    cb = fig.colorbar(mappable, cax=bar, orientation="horizontal",
                      extend="max" if above else "neither")
    from matplotlib.ticker import FuncFormatter

    cb.ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: fmt.format(v)))
    cb.ax.tick_params(labelsize=9)
    if legend:
        cb.set_label(legend, fontsize=10)
    return fig


def _ink(colour) -> str:
    """Black on a light shade, white on a dark one."""
    r, g, b = colour[:3]
    return "black" if 0.299 * r + 0.587 * g + 0.114 * b > 0.5 else "white"


def _label(ax, x, y, name, value, rotation, width, size, colour):
    text = "\n".join(textwrap.wrap(name, width)) + "\n" + value
    ax.text(x, y, text, ha="center", va="center", rotation=rotation, fontsize=size,
            linespacing=1.15, color=_ink(colour))


def _jail_corner(ax, cell, centre, name, value, shade, colour, jail_value):
    """The jail's space: In Jail a square in its part towards the middle of the board, Just
    Visiting the rest."""
    from matplotlib.patches import Rectangle

    x, y, w, h = cell
    inner = min(w, h) * 0.62
    right = x + w / 2 < centre[0]  # the inner square on the side of the middle
    up = y + h / 2 < centre[1]
    ix = x + w - inner if right else x
    iy = y + h - inner if up else y
    ax.add_patch(Rectangle((ix, iy), inner, inner, facecolor=colour, edgecolor="black",
                           linewidth=1.0))
    ax.text(ix + inner / 2, iy + inner / 2, f"In Jail\n{jail_value}", ha="center",
            va="center", fontsize=9, fontweight="bold", color=_ink(colour))
    # Just Visiting: the L round the inner square, its two arms along the board's edges
    vx = x + (w - inner) / 2 if right else x + inner + (w - inner) / 2
    vy = y + (h - inner) / 2 if up else y + inner + (h - inner) / 2
    ax.text(vx, y + h / 2 + (0 if up else inner / 2), f"Just Visiting {value}", ha="center",
            va="center", fontsize=7.5, rotation=90, color=_ink(shade))
    ax.text(x + w / 2, vy, name, ha="center", va="center", fontsize=8, color=_ink(shade))


def save_board(path: str, rulebook: Rulebook, values: Sequence[float], **kwargs) -> None:
    """Draw the board (board_figure's arguments) into an image file (PNG, SVG, PDF ...)."""
    fig = board_figure(rulebook, values, **kwargs)
    fig.savefig(path)
