"""Chips and XP: a ledger where every movement is a row, each game's settlement, levels and badges.

A balance is the sum of a holder's rows. Holders are players (their ids), the
bank (``"bank"``), and each running game's pot (``"pot:GAME"``): a bet moves
chips from a player to the pot, a settlement empties the pot to players and
the bank, so the chips of every holder together are always the chips ever
granted (new accounts and daily claims). Every row has a ``ref`` naming what it
is for, unique in the table, so nothing is ever written twice; a game's
settlement is one ``settlements`` row (its game id is the key) written in the
same transaction as the game's own row (docs/server.md, "Chips, XP, levels and badges").
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError

from ...engine.cards import PETIT
from ...engine.record import RecordError, replay
from ..kinds import Outcome
from ..results import Bets, GameEnd, SeatResult, registered

__all__ = [
    "balance",
    "balances",
    "claim",
    "grant_new_account",
    "registered",
    "settle",
    "standing",
    "take_bets",
    "totals",
    "xp_of",
]
from ..store.db import badges as badges_table
from ..store.db import ledger, settlements

NEW_ACCOUNT_CHIPS = 1000
CLAIM_CHIPS = 200
CLAIM_BELOW = 200
BANK = "bank"
BANK_CUT_PERCENT = 25
"""What the bank keeps of a pot at the end of a game of two or more deals."""

BADGES: dict[str, str] = {
    "first_win": "won a competitive game",
    "ten_wins": "won ten competitive games",
    "hundred_games": "played 100 competitive games to their end",
    "garde_sans": "made a Garde sans as taker",
    "garde_contre": "made a Garde contre as taker",
    "chelem": "made a chelem (every trick), on the taker's side",
    "petit_au_bout": "played the Petit in the last trick, and that trick went to their side",
    "triple_poignee": "showed a triple poignée",
}
"""Every badge, with what earns it: once per player, in a competitive game that counts (ranked)."""


class LedgerError(ValueError):
    """A refused movement: ``code`` for programs, the message (naming the numbers) for people."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def pot_of(game_id: str) -> str:
    return f"pot:{game_id}"


# ---------------------------------------------------------------- levels
def level_threshold(level: int) -> int:
    """The XP that reaches ``level``: 0, 100, 250, 450, 700, ... each step 50 more than the last."""
    if level < 1:
        raise ValueError(f"levels start at 1, not {level}")
    n = level - 1
    return 100 * n + 25 * n * (n - 1)


def level_for(xp: int) -> int:
    level = 1
    while level_threshold(level + 1) <= xp:
        level += 1
    return level


def progress(xp: int) -> dict[str, int]:
    """XP, the level it gives, and the XP where this level starts and the next one does."""
    level = level_for(xp)
    return {"xp": xp, "level": level, "level_xp": level_threshold(level), "next_level_xp": level_threshold(level + 1)}


# ---------------------------------------------------------------- balances
def balance(conn: sa.Connection, holder: str, kind: str = "chips") -> int:
    return int(
        conn.execute(
            sa.select(sa.func.coalesce(sa.func.sum(ledger.c.amount), 0)).where(
                ledger.c.holder == holder, ledger.c.kind == kind
            )
        ).scalar_one()
    )


def balances(conn: sa.Connection, holders: list[str], kind: str = "chips") -> dict[str, int]:
    """Each holder's balance (0 for one without rows), in one grouped query."""
    if not holders:
        return {}
    rows = conn.execute(
        sa.select(ledger.c.holder, sa.func.sum(ledger.c.amount))
        .where(ledger.c.holder.in_(holders), ledger.c.kind == kind)
        .group_by(ledger.c.holder)
    )
    found = {holder: int(total) for holder, total in rows}
    return {h: found.get(h, 0) for h in holders}


def _row(holder: str, kind: str, amount: int, reason: str, game_id: str | None, at: float, ref: str) -> dict[str, Any]:
    return {
        "holder": holder,
        "kind": kind,
        "amount": amount,
        "reason": reason,
        "game_id": game_id,
        "at": at,
        "ref": ref,
    }


def grant_new_account(conn: sa.Connection, player_id: str, at: float) -> None:
    """The new account's chips, in the transaction that creates the account."""
    conn.execute(
        ledger.insert().values(**_row(player_id, "chips", NEW_ACCOUNT_CHIPS, "grant", None, at, f"grant:{player_id}"))
    )


def claim(engine: sa.Engine, player_id: str, now: float) -> int:
    """The daily chips for an account below CLAIM_BELOW, once per UTC day; returns the new balance.
    LedgerError (nothing written) when it is not below, or has claimed today."""
    day = dt.datetime.fromtimestamp(now, dt.UTC).date()
    ref = f"claim:{player_id}:{day.isoformat()}"
    tomorrow = "00:00 UTC"
    try:
        with engine.begin() as conn:
            if conn.execute(sa.select(ledger.c.id).where(ledger.c.ref == ref)).first() is not None:
                raise LedgerError(
                    "claimed_today",
                    f"you have claimed your {CLAIM_CHIPS} chips today already; the next claim opens at {tomorrow}",
                )
            held = balance(conn, player_id)
            if held >= CLAIM_BELOW:
                raise LedgerError(
                    "not_below",
                    f"you hold {held} chips: the daily {CLAIM_CHIPS} chips are for accounts below {CLAIM_BELOW}",
                )
            conn.execute(ledger.insert().values(**_row(player_id, "chips", CLAIM_CHIPS, "claim", None, now, ref)))
    except IntegrityError:  # a second claim in the same instant: the unique ref refused it
        raise LedgerError(
            "claimed_today",
            f"you have claimed your {CLAIM_CHIPS} chips today already; the next claim opens at {tomorrow}",
        ) from None
    return held + CLAIM_CHIPS


# ---------------------------------------------------------------- bets
def take_bets(conn: sa.Connection, bets: Bets) -> None:
    """Move each bet into the game's pot; LedgerError ``not_enough_chips`` (the caller rolls back) if a
    player's balance is below the bet at the moment of writing."""
    held = balances(conn, [p for p, _ in bets.stakes])
    for player, amount in bets.stakes:
        if held[player] < amount:
            raise LedgerError(
                "not_enough_chips", f"player {player} holds {held[player]} chips, less than the bet of {amount}"
            )
    rows = []
    for player, amount in bets.stakes:
        rows.append(_row(player, "chips", -amount, "bet", bets.game_id, bets.at, f"{bets.game_id}:bet:{player}"))
        rows.append(
            _row(pot_of(bets.game_id), "chips", amount, "bet", bets.game_id, bets.at, f"{bets.game_id}:pot:{player}")
        )
    if rows:
        conn.execute(ledger.insert(), rows)


# ---------------------------------------------------------------- settlement
@dataclass
class Plan:
    """What a settlement writes: chip movements (the pot's outflow included), XP, and why."""

    chips: dict[tuple[str, str], int] = field(default_factory=dict)  # (holder, reason) -> chips, pot excluded
    xp: dict[tuple[str, str], int] = field(default_factory=dict)  # (player, reason) -> XP
    pot: int = 0
    winners: list[int] = field(default_factory=list)

    def pay(self, holder: str, reason: str, amount: int) -> None:
        if amount:
            self.chips[(holder, reason)] = self.chips.get((holder, reason), 0) + amount


def winners(end: GameEnd) -> list[int]:
    """The seats that won: the best total among those who did not abandon (an abandoner is ranked last)."""
    stayed = [s for s in end.seats if not s.abandoned]
    if not stayed:
        return []
    best = max(s.total for s in stayed)
    return [s.seat for s in stayed if s.total == best]


def plan(end: GameEnd) -> Plan:
    """The rules of docs/server.md's chips and XP as numbers; the pot is shared out exactly (whole chips,
    what does not divide to the bank), and nobody is paid who did not stake (robots, guests)."""
    out = Plan(pot=sum(s.stake for s in end.seats))
    by_seat = {s.seat: s for s in end.seats}

    def to_seat(seat: int, reason: str, amount: int) -> None:
        """A share for a seat: its player's if a registered person who stayed; else the bank's."""
        s = by_seat[seat]
        if registered(s.player) and not s.abandoned:
            out.pay(s.player, reason, amount)
        else:
            out.pay(BANK, "unclaimed", amount)

    for s in end.seats:  # an abandoner's bet is forfeited to the bank, whatever happens to the game
        if s.stake and s.abandoned:
            out.pay(BANK, "forfeit", s.stake)
    kept = [(s.seat, s.player, s.stake) for s in end.seats if s.stake and not s.abandoned and s.player is not None]
    rest = sum(stake for _, _, stake in kept)
    out.winners = winners(end) if end.outcome == Outcome.FINISHED else []
    if end.outcome != Outcome.FINISHED or not end.ranked:  # cancelled, deserted or unranked: bets go back
        for _, player, stake in kept:
            out.pay(player, "refund", stake)
    elif end.deals == 1 and end.single is not None and end.single.get("taker") is not None:
        taker, partner, made = end.single["taker"], end.single.get("partner"), end.single.get("made")
        side = {taker} | ({partner} if partner is not None else set())
        if made and partner is not None and partner != taker:  # at five: two to one
            to_seat(taker, "prize", rest * 2 // 3)
            to_seat(partner, "prize", rest // 3)
            out.pay(BANK, "rounding", rest - rest * 2 // 3 - rest // 3)
        elif made:
            to_seat(taker, "prize", rest)
        else:
            for seat, player, stake in kept:
                if seat in side:
                    out.pay(BANK, "lost", stake)
                else:
                    out.pay(player, "refund", stake)
    elif rest:
        prize = rest * (100 - BANK_CUT_PERCENT) // 100
        share = prize // len(out.winners) if out.winners else 0
        for seat in out.winners:
            to_seat(seat, "prize", share)
        out.pay(BANK, "cut", rest - share * len(out.winners))
    paid = sum(out.chips.values())
    if paid != out.pot:
        raise AssertionError(f"settlement of {end.game_id} shares out {paid} chips of a pot of {out.pot}")
    if end.outcome == Outcome.FINISHED and end.ranked:
        for s in end.seats:
            if not registered(s.player) or s.abandoned:
                continue  # XP for those who played to the end
            won = s.seat in out.winners
            out.xp[(s.player, "win" if won else "played")] = 10 * end.players if won else 5
            if end.deals > 1:
                out.xp[(s.player, "deals")] = 10 * (end.deals - 1)
    return out


def _deal_badges(record: dict[str, Any]) -> list[tuple[int, str]]:
    """(seat, badge) for the moments of one deal."""
    try:
        deal = replay(record).deal
    except RecordError:
        return []
    if not deal.is_over or deal.void:
        return []
    result = deal.result
    assert result is not None and result.taker is not None  # a deal over and not void has its taker
    taker, partner = result.taker, result.partner
    side = [taker] + ([partner] if partner is not None and partner != taker else [])
    out: list[tuple[int, str]] = []
    if result.made and result.contract in ("garde_sans", "garde_contre"):
        out.append((taker, result.contract))
    if result.chelem in ("made", "announced_made"):
        out.extend((seat, "chelem") for seat in side)
    if result.petit_au_bout is not None:
        for trick in deal.tricks:
            for seat, card in trick.plays:
                if card == PETIT and deal.side[seat] == deal.side[trick.winner]:
                    out.append((seat, "petit_au_bout"))
    out.extend((p["seat"], "triple_poignee") for p in result.poignees if p["size"] == "triple")
    return out


def _count(conn: sa.Connection, player: str, reasons: tuple[str, ...]) -> int:
    return int(
        conn.execute(
            sa.select(sa.func.count())
            .select_from(ledger)
            .where(ledger.c.holder == player, ledger.c.kind == "xp", ledger.c.reason.in_(reasons))
        ).scalar_one()
    )


def settle(conn: sa.Connection, end: GameEnd) -> dict[str, Any]:
    """Write the game's settlement: its row (once: the game id is its key), the pot's outflow, every
    share, XP and new badges. Returns the summary stored with it."""
    out = plan(end)
    gid = end.game_id
    rows = []
    if out.pot:
        rows.append(_row(pot_of(gid), "chips", -out.pot, "settle", gid, end.at, f"{gid}:settle"))
    for (holder, reason), amount in sorted(out.chips.items()):
        rows.append(_row(holder, "chips", amount, reason, gid, end.at, f"{gid}:{reason}:{holder}"))
    for (player, reason), amount in sorted(out.xp.items()):
        rows.append(_row(player, "xp", amount, reason, gid, end.at, f"{gid}:xp:{reason}:{player}"))
    earned: list[tuple[str, str]] = []
    if end.outcome == Outcome.FINISHED and end.ranked:
        people = {s.seat: s.player for s in end.seats if registered(s.player) and not s.abandoned}
        for record in end.records:
            earned.extend((people[seat], badge) for seat, badge in _deal_badges(record) if seat in people)
        for seat in out.winners:
            if seat in people:
                earned.append((people[seat], "first_win"))
    summary = {
        "outcome": end.outcome,
        "ranked": end.ranked,
        "unranked": end.unranked,
        "pot": out.pot,
        "winners": out.winners,
        "chips": [{"holder": h, "reason": r, "amount": a} for (h, r), a in sorted(out.chips.items())],
        "xp": [{"player": p, "reason": r, "amount": a} for (p, r), a in sorted(out.xp.items())],
    }
    conn.execute(
        settlements.insert().values(
            game_id=gid, outcome=end.outcome, ranked=end.ranked, pot=out.pot, at=end.at, data=summary
        )
    )
    if rows:
        conn.execute(ledger.insert(), rows)
    if end.outcome == Outcome.FINISHED and end.ranked:  # milestones counted on the ledger, this game included
        for player in {p for p, _ in out.xp}:
            if _count(conn, player, ("win",)) >= 10:
                earned.append((player, "ten_wins"))
            if _count(conn, player, ("win", "played")) >= 100:
                earned.append((player, "hundred_games"))
    new = _award(conn, earned, gid, end.at)
    summary["badges"] = [{"player": p, "badge": b} for p, b in new]
    return summary


def _award(conn: sa.Connection, earned: list[tuple[str, str]], game_id: str, at: float) -> list[tuple[str, str]]:
    """Store the badges not held yet (once per player per badge: the key says so)."""
    wanted = sorted(set(earned))
    if not wanted:
        return []
    held = {
        (r.player_id, r.badge)
        for r in conn.execute(
            sa.select(badges_table.c.player_id, badges_table.c.badge).where(
                badges_table.c.player_id.in_({p for p, _ in wanted})
            )
        )
    }
    new = [(p, b) for p, b in wanted if (p, b) not in held]
    if new:
        conn.execute(
            badges_table.insert(), [{"player_id": p, "badge": b, "game_id": game_id, "at": at} for p, b in new]
        )
    return new


# ---------------------------------------------------------------- what profiles show
def standing(conn: sa.Connection, player_id: str) -> dict[str, Any]:
    """A player's chips, XP, level and badges."""
    chips = balance(conn, player_id, "chips")
    xp = balance(conn, player_id, "xp")
    held = conn.execute(
        sa.select(badges_table)
        .where(badges_table.c.player_id == player_id)
        .order_by(badges_table.c.at, badges_table.c.badge)
    ).all()
    return {
        "chips": chips,
        **progress(xp),
        "badges": [
            {"badge": r.badge, "what": BADGES.get(r.badge, r.badge), "game": r.game_id, "at": r.at} for r in held
        ],
    }


def xp_of(conn: sa.Connection, player_ids: list[str]) -> dict[str, int]:
    return balances(conn, player_ids, "xp")


def totals(conn: sa.Connection) -> dict[str, int]:
    """Chips by kind of holder, and all chips ever granted: for checking that none appear or vanish."""
    rows = conn.execute(sa.select(ledger.c.holder, ledger.c.reason, ledger.c.amount).where(ledger.c.kind == "chips"))
    out: dict[str, int] = defaultdict(int)
    for holder, reason, amount in rows:
        group = "bank" if holder == BANK else "pots" if holder.startswith("pot:") else "players"
        out[group] += amount
        if reason in ("grant", "claim"):
            out["granted"] += amount
    return {k: out.get(k, 0) for k in ("players", "bank", "pots", "granted")}


__all__ = [
    "BADGES",
    "BANK",
    "Bets",
    "GameEnd",
    "LedgerError",
    "Plan",
    "SeatResult",
    "balance",
    "balances",
    "claim",
    "grant_new_account",
    "level_for",
    "level_threshold",
    "plan",
    "pot_of",
    "progress",
    "settle",
    "standing",
    "take_bets",
    "totals",
    "winners",
]
