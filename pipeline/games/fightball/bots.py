"""Fightball's players (fightball.md §3.5). A bot is made per seat; choose(state, rng) reads the state's public
attributes (every stack is face up: the scorer's Play of each cell, the live quarter score) and draws its
randomness only from the rng it is given.

The heuristic values every place its card may go and takes the best, or discards when nothing is worth it:
open a play where attack + matching ball + its deck's mean Shot value reaches the threshold (green first),
else defend an opponent's play where its defence is highest; a matching ball for its own play, a wrong ball
on an opponent's matching one; a Shot card that makes its own play score or an opponent's fail, never before
a ball; a friendly effect on its own play, a hostile one (steal, foul against the attacker, total down) on an
opponent's. Ahead in the quarter it runs through its deck to the BUZZ (only strong cards are placed, no card
is taken back from the discard pile); otherwise, once only the BUZZ is left, it first plays the discard pile
while its top card is useful. With probability bot_error_pct / 100 it puts the card it holds on a random
cell instead (the BUZZ apart).

Its judgement (worth_holding): it HOLDs its card, watching the other side move, when playing it would hurt or
waste it and the other side's next move may give it a place worth points: a card taken back from the discard
pile that every cell would make a foul (it must land, so it waits for a target or for the BUZZ); a Shot card
that would only be a hurried shot now, while an opponent's play that would score once its ball lands would
fail under this card (it waits for that ball); a strong defender it would otherwise throw away (it waits for
their next play). Deck cards are held once in a row (patience), then thrown away; never when ahead in the
quarter (it runs to its BUZZ), nor when the other coach is down to the BUZZ. The racer is the same bot
without the judgement: it never holds, so `pnp simulate fightball --bots heuristic,racer` shows what judgement
is worth against speed alone (about nothing: README, "Simulating a game")."""

from __future__ import annotations

from pipeline.games.fightball.engine import ACT, DISCARD, DRAW_DECK, HOLD, PLACE_BUZZ, TAKE
from pipeline.games.fightball.engine.data import BALL, EFFECT, G, NOBODY, PLAYER, SHOT, legal_attack_cell
from pipeline.games.fightball.engine.scoring import DONE, EMPTY, OPEN, play_total

MARGIN = 1              # an opener needs attack + bonus + mean shot >= threshold + MARGIN
AHEAD_BAR = 1.0         # ahead in the quarter: place a card only when it is worth more than this
USEFUL = 0.3            # a discard-pile card is taken back when worth more than this
HURTS = -0.5            # a card that must land is held when its best cell is worth less than this (a foul)
STOPPER = 3             # a player card with this defence somewhere is held rather than thrown away


def hostile(card) -> bool:
    """An effect that hurts the play it is put on: it steals, fouls the attackers or lowers the total."""
    for op in card.ops:
        if op.op == "STEAL" or (op.op == "FOUL" and op.arg[1] == "attacking") or \
                (op.op in ("ADD_TOTAL", "ADD_POINTS") and op.arg < 0) or (op.op == "SET_POINTS" and op.arg < 2):
            return True
    return False


class HeuristicBot:
    holds = True            # uses its judgement to wait (worth_holding)
    patience = 1            # holds in a row for a Shot card waiting for a ball (a hold hands the other a move)

    def __init__(self, seat: int):
        self.seat, self.waited = seat, 0

    def choose(self, state, rng):
        me, data = self.seat, state.data
        card = state.hand[me]
        ahead = state.live[me] > state.live[1 - me]
        if card == NOBODY:
            pile = state.discard[me]
            if state.left[me] == 0 and pile and not ahead and best_place(state, pile[-1], me, True)[1] > USEFUL:
                return TAKE
            return DRAW_DECK
        if card == data.buzz[me]:
            return PLACE_BUZZ
        from_deck = state.from_deck[me]
        if rng.random() * 100 < data.params["bot_error_pct"]:
            return ("PLACE", rng.choice(data.cell_ids))
        cell, value = best_place(state, card, me, not from_deck)
        if (value <= 0 if from_deck else value < HURTS) and self.holds and not ahead and \
                (self.waited < self.patience or not from_deck) and state.waiting == NOBODY and state.phase == ACT \
                and worth_holding(state, data.cards[card], me, value, from_deck):
            self.waited += 1
            return HOLD
        self.waited = 0
        if from_deck and value <= (AHEAD_BAR if ahead else 0.0):
            return DISCARD
        return ("PLACE", cell)


class RacerBot(HeuristicBot):
    """The heuristic without its judgement: it never holds, speed is all it has."""
    holds = False


def worth_holding(state, c, me: int, value: float, from_deck: bool) -> bool:
    """Playing this card now would hurt or waste it (the caller has found its best place worth `value`: under
    HURTS for a card taken back, nothing for a deck card), and the other side's next move may give it a place
    worth points: waiting costs a move (the other coach plays meanwhile), so only a real threat is waited for."""
    if not from_deck:
        return True                             # it must land on a cell: wait rather than commit a foul
    if state.left[1 - me] == 0 and not state.discard[1 - me]:
        return False                            # the other coach is down to the BUZZ
    if c.kind == PLAYER:
        return max(c.defence) >= STOPPER        # a strong defender: their next play will need one
    if c.kind != SHOT:
        return False
    data = state.data
    rules, cards, cells = data.rules, data.cards, data.cell_at
    for index in data.cell_ids:
        play = state.plays[index]
        if play.status != OPEN or play.team == me or play.ball != NOBODY:
            continue
        cell = cells[index]
        with_ball = play_total(play, cell, rules, cards) + rules.bonus
        if play_total(play, cell, rules, cards, c.index) + rules.bonus < rules.threshold <= \
                with_ball + data.mean_shot[play.team][cell.colour]:
            return True                         # their ball comes next and the play would score: this card breaks it
    return False


class RandomBot:
    def __init__(self, seat: int):
        self.seat = seat

    def choose(self, state, rng):
        return rng.choice(state.legal_actions())


def best_place(state, card: int, me: int, anywhere: bool) -> tuple[int, float]:
    """(cell, value) of the best cell for `card`: empty cells and open plays, or every cell when `anywhere`
    (a card from the discard pile must land somewhere). Ties go to the first cell in row-major order."""
    data = state.data
    c = data.cards[card]
    is_player = c.kind == PLAYER
    openers = _openers(data, c, me) if is_player else None
    best_cell, best = NOBODY, -1e9
    plays, cells = state.plays, data.cell_at
    for index in data.cell_ids:
        play = plays[index]
        status = play.status
        if status == OPEN:
            value = (_on_own if play.team == me else _on_theirs)(state, c, play, cells[index])
        elif status == EMPTY:
            cell = cells[index]
            if is_player and legal_attack_cell(cell, me):
                value = openers[cell.colour]
            elif anywhere:
                value = -cell.points                                    # a false start
            else:
                continue
        elif not anywhere:
            continue
        else:
            value = -data.rules.late if status == DONE and not play.late else -0.01     # a free dump otherwise
        if value > best:
            best_cell, best = index, value
    return best_cell, best


def _openers(data, c, me: int) -> tuple:
    """The value of opening a play with player card c on an empty legal cell, per colour of cell."""
    rules, values = data.rules, []
    for colour in range(3):
        estimate = c.attack[colour] + rules.bonus + data.mean_shot[me][colour]
        points = data.params["zone_points_g"] if colour == G else data.params["zone_points_rb"]
        values.append(-0.5 if estimate < rules.threshold + MARGIN
                      else points * 0.5 + (estimate - rules.threshold) * 0.05)
    return tuple(values)


def _on_own(state, c, play, cell) -> float:
    data = state.data
    cards, rules, colour = data.cards, data.rules, cell.colour
    kind = c.kind
    if kind == SHOT:
        if play.ball == NOBODY:
            return -rules.hurried - 0.5
        return cell.points + 1.0 if play_total(play, cell, rules, cards, c.index) >= rules.threshold else -0.5
    if kind == BALL:
        matching = c.ball == colour
        if play.ball == NOBODY:
            return 1.0 if matching else 0.6
        return 0.9 if matching and cards[play.ball].ball != colour else -0.2
    if kind == EFFECT:
        return _effect_value(c, play, cell, data, mine=True)
    # a player of the attacking team: the same name is ignored, another one restarts the play
    if c.name == cards[play.attacker].name:
        return -0.1
    mean = data.mean_shot[play.team][colour]
    blocked = play_total(play, cell, rules, cards) + mean + (0 if play.ball != NOBODY else rules.bonus)
    fresh = c.attack[colour] + rules.bonus + mean
    return 0.8 if blocked < rules.threshold <= fresh - MARGIN else -0.5


def _on_theirs(state, c, play, cell) -> float:
    data = state.data
    cards, rules, colour = data.cards, data.rules, cell.colour
    kind = c.kind
    if kind == SHOT:
        if play.ball == NOBODY:
            return -rules.hurried - 0.5
        return cell.points + 0.5 if play_total(play, cell, rules, cards, c.index) < rules.threshold else -3.0
    if kind == BALL:
        if play.ball != NOBODY and cards[play.ball].ball == colour and c.ball != colour:
            return 0.7
        return -0.5
    if kind == EFFECT:
        return _effect_value(c, play, cell, data, mine=False)
    defence = c.defence[colour]
    if defence <= 0 or any(cards[d].name == c.name for _, d in play.defenders):
        return -0.1
    return 0.3 + 0.1 * defence


def _effect_value(c, play, cell, data, mine: bool) -> float:
    """An effect card on an open play: a friendly one on one's own play, a hostile one on the opponent's.
    A cancel is worth it where the other side's effects lie below; a colour change where the attacker
    (and its ball) read better in that colour; ignoring defenders where there are some."""
    ops = {op.op: op.arg for op in c.ops}
    if "CANCEL_EFFECTS_BELOW" in ops:
        theirs = any(seat != play.team for _, _, seat in play.effects)
        return 0.6 if (theirs if mine else any(seat == play.team for _, _, seat in play.effects)) else -0.5
    if hostile(c) == mine:
        return -1.0
    value = 0.5 if mine else 0.6
    if "USE_COLOUR" in ops:
        attacker, new, old = data.cards[play.attacker], ops["USE_COLOUR"], cell.colour
        ball = data.cards[play.ball].ball if play.ball != NOBODY else NOBODY
        gain = attacker.attack[new] - attacker.attack[old] + data.rules.bonus * ((ball == new) - (ball == old))
        if (gain < 0) == mine:
            return -1.0
    if "IGNORE_DEFENDERS" in ops and not play.defenders:
        value = 0.1
    return value


BOTS = {"heuristic": HeuristicBot, "racer": RacerBot, "random": RandomBot}
