"""The stack scorer of §3.2, pure: `evaluate_stack(cell, stack, params, data)` -> awards [(coach, points, kind)].

A stack is read bottom to top by `step`, one card at a time, into a `Play` (an immutable summary: attacker,
ball, defenders, effects, Shot card, fouls so far); `finish` turns a Play into awards. The engine keeps each
cell's Play up to date as cards land (so bots read plays without re-reading stacks), and the scoring round is
`finish` of every cell: the same result as evaluate_stack on the finished stack.

Awards come in the pseudocode's order: the fouls met while reading (hurried shots, the too-late card), then
the play, then the fouls its effects create. Awards worth 0 points are left out.
Rules read: FB-A8 (a same-name player is ignored, compared with the current or the first attacker), FB-A9
(a hurried shot below a new attacker stands), FB-A10 (cards above a false start or above the first too-late
card create no foul)."""

from __future__ import annotations

from typing import NamedTuple

from pipeline.games.fightball.engine.data import BALL, EFFECT, NOBODY, PLAYER, SHOT, legal_attack_cell
from pipeline.games.fightball.engine.effects import EFFECT_FOUL, points_pass, total_pass

PLAY, FALSE_START, TOO_LATE, HURRIED_SHOT = "play", "false_start", "too_late", "hurried_shot"
KINDS = (PLAY, FALSE_START, TOO_LATE, HURRIED_SHOT, EFFECT_FOUL)
EMPTY, FOULED, OPEN, DONE = range(4)        # a Play's status: FOULED = false start (everything above ignored)


class Rules(NamedTuple):
    threshold: int
    bonus: int                  # ball_match_bonus
    late: int                   # too_late_points
    hurried: int                # hurried_shot_points
    compare_first: bool         # new_attacker_same_name_compares == "first"


def rules_of(params: dict) -> Rules:
    return Rules(params["threshold"], params["ball_match_bonus"], params["too_late_points"],
                 params["hurried_shot_points"], params["new_attacker_same_name_compares"] == "first")


class Play(NamedTuple):
    """What a stack says so far. Cards are engine integers, seats 0 (north) and 1 (south)."""
    status: int
    team: int                   # the seat that placed the first attacker (the play's beneficiary)
    attacker: int               # the current attacker
    first: int                  # the play's first attacker (FB-A8 `first`)
    ball: int                   # the current ball, or NOBODY
    defenders: tuple            # ((position in the stack, card), …) since the current attacker
    effects: tuple              # ((position, card, placed_by), …) since the current attacker
    shot: int                   # the closing Shot card, or NOBODY
    fouls: tuple                # ((coach, points, kind), …) in stack order
    late: bool                  # a too-late card was met: everything above is ignored
    size: int                   # cards read


EMPTY_PLAY = Play(EMPTY, NOBODY, NOBODY, NOBODY, NOBODY, (), (), NOBODY, (), False, 0)


def step(play: Play, card: int, seat: int, cell, rules: Rules, cards: tuple) -> Play:
    """The Play after `seat` puts `card` on top of this cell's stack."""
    pos, status = play.size, play.status
    if status == EMPTY:
        c = cards[card]
        if c.kind == PLAYER and legal_attack_cell(cell, seat):
            return Play(OPEN, seat, card, card, NOBODY, (), (), NOBODY, (), False, 1)
        return EMPTY_PLAY._replace(status=FOULED, fouls=((1 - seat, cell.points, FALSE_START),), size=1)
    if status == FOULED or play.late:
        return play._replace(size=pos + 1)
    if status == DONE:
        return play._replace(late=True, fouls=play.fouls + ((1 - seat, rules.late, TOO_LATE),), size=pos + 1)
    c = cards[card]
    kind = c.kind
    if kind == PLAYER:
        if seat != play.team:
            return play._replace(defenders=play.defenders + ((pos, card),), size=pos + 1)
        if c.name == cards[play.first if rules.compare_first else play.attacker].name:
            return play._replace(size=pos + 1)                  # the same player again: ignored
        return play._replace(attacker=card, ball=NOBODY, defenders=(), effects=(), size=pos + 1)
    if kind == BALL:
        return play._replace(ball=card, size=pos + 1)
    if kind == EFFECT:
        return play._replace(effects=play.effects + ((pos, card, seat),), size=pos + 1)
    if kind == SHOT:
        if play.ball == NOBODY:
            return play._replace(fouls=play.fouls + ((1 - seat, rules.hurried, HURRIED_SHOT),), size=pos + 1)
        return play._replace(status=DONE, shot=card, size=pos + 1)
    return play._replace(size=pos + 1)                          # a BUZZ is never on a cell


def read_stack(stack, cell, rules: Rules, cards: tuple) -> Play:
    play = EMPTY_PLAY
    for card, seat in stack:
        play = step(play, card, seat, cell, rules, cards)
    return play


def play_total(play: Play, cell, rules: Rules, cards: tuple, shot: int = NOBODY) -> int:
    """The shot total of §2.5 after the TOTAL effects; `shot` (a bot's question) closes an open play with
    that Shot card instead of its own. The play needs an attacker; without a ball the bonus is 0."""
    shot = play.shot if shot == NOBODY else shot
    colour, total, ignore_below = (total_pass(play.effects, cell.colour, cards) if play.effects
                                   else (cell.colour, 0, NOBODY))
    total += cards[play.attacker].attack[colour]
    if shot != NOBODY:
        total += cards[shot].shot[colour]
    if play.ball != NOBODY and cards[play.ball].ball == colour:
        total += rules.bonus
    names = set()
    for pos, card in play.defenders:
        defender = cards[card]
        if pos < ignore_below or defender.name in names:
            continue
        names.add(defender.name)
        total -= defender.defence[colour]
    return total


def finish(play: Play, cell, rules: Rules, cards: tuple, move_points) -> list:
    """The awards of a read stack (move_points: GameData.move_points, per seat)."""
    awards = [award for award in play.fouls if award[1] > 0]
    if play.status != DONE or play_total(play, cell, rules, cards) < rules.threshold:
        return awards                       # incomplete, or failed: its effects do nothing
    points, beneficiary, fouls = points_pass(play.effects, play.team, cell.points, cards, move_points[play.team])
    if points > 0:
        awards.append((beneficiary, points, PLAY))
    awards.extend(award for award in fouls if award[1] > 0)
    return awards


def evaluate_stack(cell, stack, params: dict, data) -> list:
    """§3.2: the awards of one cell's stack [(card, placed_by), …] bottom first (cards as engine integers)."""
    rules = rules_of(params)
    return finish(read_stack(stack, cell, rules, data.cards), cell, rules, data.cards, data.move_points)


def effect_gains(play: Play, cell, rules: Rules, cards: tuple, move_points) -> list:
    """[(effect card, its coach, margin)] for every effect card of a complete play: how much the card moved
    this stack's awards in its coach's favour (their points minus the opponent's, with the card minus
    without it), what `effect_points:<id>` counts. Human pyramid on one's own play: +5; an interception of
    a 2-point play: +4 (2 won, 2 denied); a total-lowering card that breaks a 2-point play: +2."""
    if play.status != DONE or not play.effects:
        return []
    with_all = finish(play, cell, rules, cards, move_points)
    gains = []
    for i, (_, card, seat) in enumerate(play.effects):
        without = finish(play._replace(effects=play.effects[:i] + play.effects[i + 1:]), cell, rules, cards,
                         move_points)
        gains.append((card, seat, _margin(with_all, seat) - _margin(without, seat)))
    return gains


def _margin(awards: list, seat: int) -> int:
    return sum(points if coach == seat else -points for coach, points, _ in awards)
