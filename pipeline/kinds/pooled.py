"""Pooled home sheets: a game's card families and tokens sharing paper, written beside the per-component
files (which stay, to reprint one lost deck) and counted instead of them in the paper bill.

- Cards with backs of one trim size (and bleed) share duplex sheets: `cartes-<w>x<h>.pdf`. Each card keeps
  its own back, mirrored behind it exactly as on its own deck's sheets.
- Decks a game declares printed together (CardDeck.group: a team, a set, a level) share sheets with each
  other and never with another group's: `cartes-<w>x<h>-<group>.pdf`, so one group prints alone (two
  Fightball teams that meet, without the other two).
- Tokens share single-sided sheets: `jetons.pdf`. A token is a single-sided piece of any size, or a
  two-sided piece under FOLD_UNDER_MM, whose back prints beside it to fold over (duplex drift shows most
  on a small piece); see pipeline/render/sheets/tokens.py.

A pool is written only when it has two members or more and saves a sheet on some paper: a family that
fills its sheets already keeps its own file only. A group's pool is written when it costs no more sheets
than its members' files on any paper: the group then prints as one file. The step that writes the pools
also writes the fold-over twin of each duplex card file of a full print: every duplex pool, and the own file
of every deck no pool takes (pipeline/kinds/cards.py write_foldover).

The titles list their members after their count ("Cartes 63,5 × 88,9 mm : 8 paquets (Cartes Ville, …)"): a
sheet header too long for its band drops the list in parentheses first (render/sheets/decor.py).
"""

from __future__ import annotations

import io
import math
from dataclasses import dataclass
from types import SimpleNamespace

from pipeline.core.config import BuildConfig
from pipeline.core.printing import PrintOptions
from pipeline.core.units import MM
from pipeline.data.specs import CardDeck
from pipeline.kinds.cards import deck_foldover, write_foldover
from pipeline.kinds.files import entry, suffix

FOLD_UNDER_MM = 20.0        # a two-sided token smaller than this prints fold-over on the token sheet
TOKENS = "jetons"
TOKEN_KIND = "cards-tokens"   # a report entry's kind: written by the cards kind, pieces of several sizes


@dataclass
class Pool:
    name: str                        # file stem
    title: str                       # French, in the sheet header
    members: list                    # Laid, in the game's order
    tokens: bool                     # token sheet (single-sided, fold-over pairs) or duplex card sheet
    group: str = ""                  # the members' "printed together" group (CardDeck.group), if any
    group_title: str = ""

    @property
    def ids(self) -> list[str]:
        return [laid.component.id for laid in self.members]


def is_token(deck: CardDeck) -> bool:
    return deck.backs is None or max(deck.size_mm) < FOLD_UNDER_MM


def pools(pool: list) -> list[Pool]:
    """The game's pools (before checking that they save paper): tokens first, then card families, a family
    per trim size, bleed and group."""
    decks = [laid for laid in pool if isinstance(laid.component, CardDeck)]
    tokens = [laid for laid in decks if is_token(laid.component)]
    families: dict[tuple, list] = {}
    for laid in decks:
        if not is_token(laid.component):
            fronts = laid.faces[0]
            key = (round(fronts[0].width / MM, 2), round(fronts[0].height / MM, 2), round(fronts[0].bleed / MM, 2),
                   laid.component.keep_bleed, laid.component.group)
            families.setdefault(key, []).append(laid)
    found = []
    if len(tokens) > 1:
        found.append(Pool(TOKENS, f"Jetons : {len(tokens)} sortes ({_listed(tokens)})", tokens, True))
    for (w, h, _, _, group), members in families.items():
        if len(members) > 1:
            size = f"{w:g} × {h:g} mm".replace(".", ",")
            title = members[0].component.group_title or group
            head = f"Cartes {size}" + (f", {title}" if group else "")
            found.append(Pool(f"cartes-{w:g}x{h:g}" + (f"-{group}" if group else ""),
                              f"{head} : {len(members)} paquets ({_listed(members)})", members, False,
                              group, title if group else ""))
    return found


def _listed(members: list) -> str:
    return ", ".join(laid.component.title for laid in members)


def worth_writing(pool: Pool, sheets: dict[str, tuple[int, int]]) -> bool:
    """A pool saves a sheet on some paper; a group's pool costs no more than its members' files on any."""
    if pool.group:
        return all(pooled <= alone for pooled, alone in sheets.values())
    return any(pooled < alone for pooled, alone in sheets.values())


def is_writer(laid) -> bool:
    """The first card deck of a game writes the game's pooled sheets (once per ink variant)."""
    return next((l for l in laid.pool if isinstance(l.component, CardDeck)), None) is laid


def write(game, laid, config: BuildConfig, progress) -> list[dict]:
    if "pnp" not in config.formats:
        return []
    written, pooled = [], set()
    for pool in pools(laid.pool):
        sheets = {paper: _sheets(pool, config, paper) for paper in config.papers}
        if not worth_writing(pool, sheets):
            continue
        pooled.update(pool.ids)
        for paper in config.papers:
            progress.start(f"{game.id}: {pool.name} {paper}{suffix(laid)}", 1)
            buffer = io.BytesIO()
            options = _options(pool, config, paper, game, laid.ink)
            info = (_write_tokens if pool.tokens else _write_cards)(buffer, pool, options, config)
            path = config.output / game.id / f"pnp-{paper}" / f"{pool.name}{suffix(laid)}.pdf"
            component = SimpleNamespace(id=pool.name, title=pool.title, copies=1)
            shape = {"kind": TOKEN_KIND} if pool.tokens else \
                {"kind": "cards", "size_mm": list(pool.members[0].component.size_mm)}
            group = {"group": pool.group, "group_title": pool.group_title} if pool.group else {}
            fields = dict(members=pool.ids, cards=sum(len(l.faces[0]) for l in pool.members), **group)
            written.append(entry(config, path, buffer.getvalue(), component, info, **shape, format="pnp",
                                 paper=paper, ink_saver=laid.ink, pooled=True, sheets_alone=sheets[paper][1],
                                 **fields))
            if not pool.tokens:       # its twin replaces it, not its members: not `pooled`
                written += write_foldover(config, path, *_faces(pool), options, component, **shape, **fields)
            progress.advance()
    for alone in [one for one in laid.pool if isinstance(one.component, CardDeck) and one.component.id not in pooled]:
        for paper in config.papers:       # a deck no pool takes: its own file is the one a full print prints
            written += deck_foldover(game, alone, config, paper)
    return written


def _options(pool: Pool, config: BuildConfig, paper: str, game=None, ink: bool = False) -> PrintOptions:
    backs = "none" if pool.tokens else config.backs
    return PrintOptions(paper=paper, backs=backs, back_offset_mm=config.back_offset_mm,
                        game_title=game.title if game else "", component_title=pool.title, ink_saver=ink,
                        keep_bleed=pool.members[0].component.keep_bleed)


def _pieces(pool: Pool, config: BuildConfig):
    from pipeline.render.sheets.tokens import Piece

    pieces = []
    for laid in pool.members:
        fronts, backs = laid.faces
        with_backs = backs is not None and config.backs != "none"
        pieces += [Piece(front, backs[i] if with_backs else None) for i, front in enumerate(fronts)]
    return pieces


def _faces(pool: Pool):
    fronts = [face for laid in pool.members for face in laid.faces[0]]
    backs = [face for laid in pool.members for face in laid.faces[1]]
    return fronts, backs


def _sheets(pool: Pool, config: BuildConfig, paper: str) -> tuple[int, int]:
    """(sheets of the pooled file, sheets of its members' own files) on this paper."""
    alone = 0
    for laid in pool.members:
        plan = laid.plans.get(paper)
        if plan is None:
            return (0, 0)
        alone += math.ceil(len(laid.faces[0]) / plan.per_page)
    if pool.tokens:
        from pipeline.render.sheets.tokens import plan_tokens
        return len(plan_tokens(_pieces(pool, config), paper)), alone
    from pipeline.render.sheets.imposition import plan_pnp
    fronts, backs = _faces(pool)
    plan = plan_pnp(fronts, backs, _options(pool, config, paper), pool.name)
    return math.ceil(len(fronts) / plan.per_page), alone


def _write_tokens(buffer, pool: Pool, options: PrintOptions, config: BuildConfig) -> dict:
    from pipeline.render.sheets.tokens import write_tokens
    return write_tokens(buffer, _pieces(pool, config), options)


def _write_cards(buffer, pool: Pool, options: PrintOptions, config: BuildConfig) -> dict:
    from pipeline.render.sheets.imposition import write_pnp
    fronts, backs = _faces(pool)
    return write_pnp(buffer, fronts, backs, options)
