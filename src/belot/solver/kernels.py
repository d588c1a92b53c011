"""Compiled (numba) kernels of the open-card solver: the play rules on masks and the search.

The rules here are a transcription of `belot.play.legal_cards` and `belot.play.beats` onto numba
ints; tests/test_solver.py checks them equal to the engine on over a million random
positions, so the engine stays the one definition of the rules.  The tables (points, strength,
cards above) come from `belot.contracts.TABLES`, never written out here.

The search is alpha-beta on ``team 0 points - team 1 points`` from the node to the end of the
deal (the cards already on the current trick included), so it is zero-sum even when belote and
valat bonuses are counted.  A transposition table holds bounds at trick starts, keyed by the
remaining cards (which, with the dealt hands fixed, say who holds what), the leader and the valat
state.  Moves are ordered (table hint, cheapest winner, points to a winning partner, cheapest
discard) and equivalent cards are merged: cards of one suit and equal points with no card of
another hand or of the current trick between them in the suit's order lead to the same result.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from numba import njit

from ..cards import BELOTE_PAIR_XOR, KING, NUM_CARDS, QUEEN
from ..contracts import AT, NT, S

# numba freezes these module-level ints (and the core's imported above) into the compiled kernels
# as constants, so naming them costs nothing.
INF = 10000
LAST_TRICK = 7  # tricks closed before the last of the deal's eight

if TYPE_CHECKING:
    # For mypy the kernels' ints are ints; compiled, _i64 is numba's int64 widening of a table entry.
    def _i64(x: object) -> int: ...
else:
    _i64 = np.int64
# Valat state: whether one team has won every closed trick so far.
V_NONE, V_TEAM0, V_TEAM1, V_MIXED = 0, 1, 2, 3
MAX_DEPTH = 36


@njit(cache=True, nogil=True)
def legal_nb(hand: int, contract: int, above: np.ndarray, trump_mask: int, led: int, win_card: int,
             partner_winning: bool) -> int:
    """`belot.play.legal_cards` on numba ints (R5.2-R5.5)."""
    if led < 0:
        return hand
    follow = hand & (0xFF << (8 * led))
    if contract == NT:
        return follow if follow != 0 else hand
    if contract == AT:
        if follow != 0:
            x = follow & above[win_card]
            return x if x != 0 else follow
        return hand
    if follow != 0:
        if led == contract:
            x = follow & above[win_card]
            return x if x != 0 else follow
        return follow
    if partner_winning:
        return hand
    trumps = hand & trump_mask
    if trumps == 0:
        return hand
    if (trump_mask >> win_card) & 1:
        x = trumps & above[win_card]
        return x if x != 0 else hand
    return trumps


@njit(cache=True, nogil=True)
def beats_nb(strength: np.ndarray, trump_mask: int, card: int, winning: int) -> bool:
    """`belot.play.beats` on numba ints (R5.6)."""
    if (card ^ winning) < 8:
        return strength[card] > strength[winning]
    return ((trump_mask >> card) & 1) == 1


@njit(cache=True, nogil=True)
def check_rules_bulk(hands: np.ndarray, contracts: np.ndarray, leds: np.ndarray, wins: np.ndarray,
                     partners: np.ndarray, cards: np.ndarray, above_t: np.ndarray, strength_t: np.ndarray,
                     trump_t: np.ndarray, out_legal: np.ndarray, out_beats: np.ndarray) -> None:
    """Evaluate both kernels on many positions at once (for the equality test with the engine)."""
    for i in range(hands.shape[0]):
        c = contracts[i]
        out_legal[i] = legal_nb(hands[i], c, above_t[c], trump_t[c], leds[i], wins[i], partners[i] != 0)
        out_beats[i] = 1 if beats_nb(strength_t[c], trump_t[c], cards[i], wins[i]) else 0


@njit(cache=True, nogil=True)
def _gen_moves(legal: int, sep: int, n: int, seat: int, ws: int, wc: int, hint: int, pts: np.ndarray,
               strength: np.ndarray, trump_mask: int, order: np.ndarray, mv: np.ndarray,
               sc: np.ndarray, d: int) -> int:
    """Fill mv[d] with one card per class of equivalent legal cards, best first; return the count."""
    cnt = 0
    partner_w = ws >= 0 and ((ws ^ seat) & 1) == 0
    for s in range(4):
        if (legal >> (8 * s)) & 0xFF == 0:
            continue
        prev = -1
        for k in range(8):
            c = order[8 * s + k]
            if (sep >> c) & 1:
                prev = -1
            elif (legal >> c) & 1:
                if prev >= 0 and pts[c] == pts[prev]:
                    prev = c
                    continue
                prev = c
                if c == hint:
                    score = 100000
                elif n == 0:
                    score = strength[c] * 16 + pts[c]
                elif partner_w:
                    if beats_nb(strength, trump_mask, c, wc):
                        score = 100 - strength[c]
                    else:
                        score = 2000 + pts[c]
                elif beats_nb(strength, trump_mask, c, wc):
                    score = 3000 + (16 - strength[c] if n == 3 else strength[c]) * 64 + pts[c]
                else:
                    score = 1000 - pts[c] * 16 - strength[c]
                # insertion sort, best first
                j = cnt
                while j > 0 and sc[d, j - 1] < score:
                    sc[d, j] = sc[d, j - 1]
                    mv[d, j] = mv[d, j - 1]
                    j -= 1
                sc[d, j] = score
                mv[d, j] = c
                cnt += 1
    return cnt


@njit(cache=True, nogil=True)
def _tt_index(key: int, bits: int) -> int:
    k = np.uint64(key) * np.uint64(0x9E3779B97F4A7C15)
    return _i64(k >> np.uint64(64 - bits))


# Fields of a search frame (one per ply), in the int64 array ``fr[ply, field]``.
F_SEAT, F_N, F_LED, F_WC, F_WS, F_TPTS, F_TABLE, F_DONE, F_VST = 0, 1, 2, 3, 4, 5, 6, 7, 8
F_ALPHA, F_BETA, F_A0, F_B0, F_BEST, F_BESTC, F_I, F_CNT, F_KEY, F_IDX, F_OFF, F_HAND = (
    9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20)
N_FIELDS = 21
_ENTER, _NEXT, _RETURN = 0, 1, 2


@njit(cache=True, nogil=True)
def _search(h: np.ndarray, seat: int, n: int, led: int, wc: int, ws: int, tpts: int, table: int,
            done: int, vst: int, alpha: int, beta: int, contract: int, pts: np.ndarray,
            strength: np.ndarray, above: np.ndarray, trump_mask: int, order: np.ndarray, lastb: int,
            valb: int, belb: int, tk: np.ndarray, tlo: np.ndarray, thi: np.ndarray, tmv: np.ndarray,
            tgen: np.ndarray, gen: int, bits: int, mv: np.ndarray, sc: np.ndarray, fr: np.ndarray,
            stats: np.ndarray) -> int:
    """Team 0 minus team 1 points from this node to the end, under perfect play (alpha-beta).

    Iterative, with an explicit stack of frames: numba's cache does not handle a recursive
    function reliably (a reloaded recursive kernel can crash), and the loop is no slower.
    """
    p = 0
    fr[0, F_SEAT] = seat
    fr[0, F_N] = n
    fr[0, F_LED] = led
    fr[0, F_WC] = wc
    fr[0, F_WS] = ws
    fr[0, F_TPTS] = tpts
    fr[0, F_TABLE] = table
    fr[0, F_DONE] = done
    fr[0, F_VST] = vst
    fr[0, F_ALPHA] = alpha
    fr[0, F_BETA] = beta
    mode = _ENTER
    ret = 0
    while True:
        if mode == _ENTER:
            stats[0] += 1
            if stats[1] > 0 and stats[0] >= stats[1]:
                stats[2] = 1  # over the caller's node limit: give up (the result is meaningless)
                return 0
            seat = fr[p, F_SEAT]
            n = fr[p, F_N]
            done = fr[p, F_DONE]
            vst = fr[p, F_VST]
            alpha = fr[p, F_ALPHA]
            beta = fr[p, F_BETA]
            hint = -1
            if n == 0 and done == LAST_TRICK:
                # Last trick: every hand has one card left, nothing to choose.
                s = seat
                l2 = -1
                w2 = -1
                ws2 = -1
                p2 = 0
                for _ in range(4):
                    c = 0
                    while not (h[s] >> c) & 1:
                        c += 1
                    p2 += pts[c]
                    if l2 < 0:
                        l2 = c >> 3
                        w2 = c
                        ws2 = s
                    elif beats_nb(strength, trump_mask, c, w2):
                        w2 = c
                        ws2 = s
                    s = (s + 1) & 3
                w = ws2 & 1
                g = p2 + lastb
                if vst == V_NONE or vst == 1 + w:
                    g += valb
                ret = g if w == 0 else -g
                mode = _RETURN
                continue
            if n == 0:
                # the valat state matters only when valat counts
                key = (h[0] | h[1] | h[2] | h[3]) | (seat << 32) | ((vst if valb != 0 else 0) << 34)
                idx = _tt_index(key, bits)
                fr[p, F_KEY] = key
                fr[p, F_IDX] = idx
                if tgen[idx] == gen and tk[idx] == key:
                    lo = _i64(tlo[idx])
                    hi = _i64(thi[idx])
                    if lo >= beta:
                        ret = lo
                        mode = _RETURN
                        continue
                    if hi <= alpha:
                        ret = hi
                        mode = _RETURN
                        continue
                    alpha = max(alpha, lo)
                    beta = min(beta, hi)
                    if alpha >= beta:  # exact value known (lo == hi)
                        ret = lo
                        mode = _RETURN
                        continue
                    hint = tmv[idx]
                fr[p, F_ALPHA] = alpha
                fr[p, F_BETA] = beta
            fr[p, F_A0] = alpha
            fr[p, F_B0] = beta
            hand = h[seat]
            ws = fr[p, F_WS]
            partner_w = ws >= 0 and ((ws ^ seat) & 1) == 0
            legal = legal_nb(hand, contract, above, trump_mask, fr[p, F_LED], fr[p, F_WC], partner_w)
            others = (h[0] | h[1] | h[2] | h[3]) & ~hand
            fr[p, F_CNT] = _gen_moves(legal, others | fr[p, F_TABLE], n, seat, ws, fr[p, F_WC], hint, pts,
                                      strength, trump_mask, order, mv, sc, p)
            fr[p, F_BEST] = -INF if (seat & 1) == 0 else INF
            fr[p, F_BESTC] = -1
            fr[p, F_I] = 0
            mode = _NEXT
        elif mode == _NEXT:
            i = fr[p, F_I]
            alpha = fr[p, F_ALPHA]
            beta = fr[p, F_BETA]
            n = fr[p, F_N]
            if i >= fr[p, F_CNT] or alpha >= beta:
                best = fr[p, F_BEST]
                if n == 0:
                    idx = fr[p, F_IDX]
                    key = fr[p, F_KEY]
                    if not (tgen[idx] == gen and tk[idx] == key):
                        tgen[idx] = gen
                        tk[idx] = key
                        tlo[idx] = -INF
                        thi[idx] = INF
                    if best <= fr[p, F_A0]:
                        thi[idx] = best
                    elif best >= fr[p, F_B0]:
                        tlo[idx] = best
                    else:
                        tlo[idx] = best
                        thi[idx] = best
                    tmv[idx] = fr[p, F_BESTC]
                ret = best
                mode = _RETURN
                continue
            seat = fr[p, F_SEAT]
            c = mv[p, i]
            hand = h[seat]
            fr[p, F_HAND] = hand
            h[seat] = hand ^ (1 << c)
            led = fr[p, F_LED]
            wc = fr[p, F_WC]
            ws = fr[p, F_WS]
            done = fr[p, F_DONE]
            vst = fr[p, F_VST]
            off = 0
            r = c & 7
            if belb != 0 and (r == QUEEN or r == KING) and (hand >> (c ^ BELOTE_PAIR_XOR)) & 1:
                s = c >> 3
                if (contract <= S and s == contract) or (contract == AT and (n == 0 or led == s)):
                    off = belb if (seat & 1) == 0 else -belb  # R7.7
            if n == 0:
                led = c >> 3
                wc = c
                ws = seat
            elif beats_nb(strength, trump_mask, c, wc):
                wc = c
                ws = seat
            tp = fr[p, F_TPTS] + pts[c]
            q = p + 1
            if n == 3:
                w = ws & 1
                g = tp
                if done == LAST_TRICK:
                    g += lastb
                if vst == V_NONE:
                    nv = 1 + w
                elif vst == V_MIXED or vst == 1 + w:
                    nv = vst
                else:
                    nv = V_MIXED
                if done == LAST_TRICK and (nv == V_TEAM0 or nv == V_TEAM1):
                    g += valb
                off += g if w == 0 else -g
                fr[p, F_OFF] = off
                if done == LAST_TRICK:
                    p = q
                    ret = 0
                    mode = _RETURN
                    continue
                fr[q, F_SEAT] = ws
                fr[q, F_N] = 0
                fr[q, F_LED] = -1
                fr[q, F_WC] = -1
                fr[q, F_WS] = -1
                fr[q, F_TPTS] = 0
                fr[q, F_TABLE] = 0
                fr[q, F_DONE] = done + 1
                fr[q, F_VST] = nv
            else:
                fr[p, F_OFF] = off
                fr[q, F_SEAT] = (seat + 1) & 3
                fr[q, F_N] = n + 1
                fr[q, F_LED] = led
                fr[q, F_WC] = wc
                fr[q, F_WS] = ws
                fr[q, F_TPTS] = tp
                fr[q, F_TABLE] = fr[p, F_TABLE] | (1 << c)
                fr[q, F_DONE] = done
                fr[q, F_VST] = vst
            fr[q, F_ALPHA] = alpha - off
            fr[q, F_BETA] = beta - off
            p = q
            mode = _ENTER
        else:
            if p == 0:
                return ret
            p -= 1
            seat = fr[p, F_SEAT]
            h[seat] = fr[p, F_HAND]
            v = fr[p, F_OFF] + ret
            i = fr[p, F_I]
            if (seat & 1) == 0:
                if v > fr[p, F_BEST]:
                    fr[p, F_BEST] = v
                    fr[p, F_BESTC] = mv[p, i]
                    fr[p, F_ALPHA] = max(fr[p, F_ALPHA], v)
            else:
                if v < fr[p, F_BEST]:
                    fr[p, F_BEST] = v
                    fr[p, F_BESTC] = mv[p, i]
                    fr[p, F_BETA] = min(fr[p, F_BETA], v)
            fr[p, F_I] = i + 1
            mode = _NEXT


@njit(cache=True, nogil=True)
def _mtd(h: np.ndarray, seat: int, n: int, led: int, wc: int, ws: int, tpts: int, table: int,
         done: int, vst: int, guess: int, contract: int, pts: np.ndarray, strength: np.ndarray,
         above: np.ndarray, trump_mask: int, order: np.ndarray, lastb: int, valb: int, belb: int,
         tk: np.ndarray, tlo: np.ndarray, thi: np.ndarray, tmv: np.ndarray, tgen: np.ndarray, gen: int,
         bits: int, mv: np.ndarray, sc: np.ndarray, fr: np.ndarray, stats: np.ndarray, tol: int) -> int:
    """The value by null-window probes that bisect its known range, sharing the table.

    Each probe asks "is the value at least t?"; its fail-soft answer tightens the lower or the
    upper bound.  The first probe is at ``guess``, the later ones halve the range (plain MTD(f)
    creeps by small steps on a points scale).  Exact for ``tol`` 0; otherwise stops once the
    range is at most ``tol`` wide and returns its middle.
    """
    bound = tpts + lastb + valb + 4 * belb
    rem = h[0] | h[1] | h[2] | h[3]
    for c in range(NUM_CARDS):
        if (rem >> c) & 1:
            bound += pts[c]
    lower = -bound
    upper = bound
    t = guess
    if t <= lower:
        t = lower + 1
    t = min(t, upper)
    while upper - lower > tol:
        stats[3] += 1
        g = _search(h, seat, n, led, wc, ws, tpts, table, done, vst, t - 1, t, contract, pts, strength,
                    above, trump_mask, order, lastb, valb, belb, tk, tlo, thi, tmv, tgen, gen, bits, mv, sc,
                    fr, stats)
        if stats[2] != 0:
            return 0
        if g >= t:
            lower = g
        else:
            upper = g
        if lower >= upper:
            return lower
        t = (lower + upper + 1) // 2
    return (lower + upper) // 2


@njit(cache=True, nogil=True)
def card_classes(h: np.ndarray, seat: int, n: int, led: int, wc: int, ws: int, table: int, contract: int,
                 pts: np.ndarray, above: np.ndarray, trump_mask: int, order: np.ndarray,
                 out: np.ndarray) -> int:
    """Legal cards of the seat to move, each with its class representative: out[i] = (card, rep)."""
    hand = h[seat]
    partner_w = ws >= 0 and ((ws ^ seat) & 1) == 0
    legal = legal_nb(hand, contract, above, trump_mask, led, wc, partner_w)
    sep = ((h[0] | h[1] | h[2] | h[3]) & ~hand) | table
    cnt = 0
    for s in range(4):
        prev = -1
        for k in range(8):
            c = order[8 * s + k]
            if (sep >> c) & 1:
                prev = -1
            elif (legal >> c) & 1:
                if prev >= 0 and pts[c] == pts[prev]:
                    rep = out[cnt - 1, 1]
                else:
                    rep = c
                out[cnt, 0] = c
                out[cnt, 1] = rep
                cnt += 1
                prev = c
    return cnt


@njit(cache=True, nogil=True)
def solve_cards(h: np.ndarray, seat: int, n: int, led: int, wc: int, ws: int, tpts: int, table: int,
                done: int, vst: int, contract: int, pts: np.ndarray, strength: np.ndarray,
                above: np.ndarray, trump_mask: int, order: np.ndarray, lastb: int, valb: int, belb: int,
                tk: np.ndarray, tlo: np.ndarray, thi: np.ndarray, tmv: np.ndarray, tgen: np.ndarray,
                gen: int, bits: int, mv: np.ndarray, sc: np.ndarray, fr: np.ndarray, stats: np.ndarray,
                out_cards: np.ndarray, out_vals: np.ndarray) -> int:
    """The exact value (team 0 minus team 1, from here) of each legal card of the seat to move."""
    classes = np.empty((8, 2), dtype=np.int64)
    cnt = card_classes(h, seat, n, led, wc, ws, table, contract, pts, above, trump_mask, order, classes)
    hand = h[seat]
    maximizing = (seat & 1) == 0
    best = -INF if maximizing else INF
    for i in range(cnt):
        c = classes[i, 0]
        if classes[i, 1] != c:
            for j in range(i):
                if out_cards[j] == classes[i, 1]:
                    out_vals[i] = out_vals[j]
            out_cards[i] = c
            continue
        h[seat] = hand ^ (1 << c)
        off = 0
        r = c & 7
        if belb != 0 and (r == QUEEN or r == KING) and (hand >> (c ^ BELOTE_PAIR_XOR)) & 1:
            s = c >> 3
            if (contract <= S and s == contract) or (contract == AT and (n == 0 or led == s)):
                off = belb if (seat & 1) == 0 else -belb
        nl = led
        nwc = wc
        nws = ws
        if n == 0:
            nl = c >> 3
            nwc = c
            nws = seat
        elif beats_nb(strength, trump_mask, c, wc):
            nwc = c
            nws = seat
        tp = tpts + pts[c]
        # the child: the next seat in this trick, or the next trick's leader, or the end
        cs, cn, ctp, ctable, cdone, cvst = (seat + 1) & 3, n + 1, tp, table | (1 << c), done, vst
        terminal = False
        if n == 3:
            w = nws & 1
            g = tp + (lastb if done == LAST_TRICK else 0)
            if vst == V_NONE:
                cvst = 1 + w
            elif vst != V_MIXED and vst != 1 + w:
                cvst = V_MIXED
            if done == LAST_TRICK:
                terminal = True
                if cvst != V_MIXED:
                    g += valb
            off += g if w == 0 else -g
            cs, cn, nl, nwc, nws, ctp, ctable, cdone = nws, 0, -1, -1, -1, 0, 0, done + 1
        if terminal:
            v = off
        else:
            guess = best - off if i > 0 else 0
            v = off + _mtd(h, cs, cn, nl, nwc, nws, ctp, ctable, cdone, cvst, guess,
                           contract, pts, strength, above, trump_mask, order, lastb, valb, belb, tk, tlo, thi,
                           tmv, tgen, gen, bits, mv, sc, fr, stats, 0)
        h[seat] = hand
        if stats[2] != 0:
            return -1
        out_cards[i] = c
        out_vals[i] = v
        if (maximizing and v > best) or (not maximizing and v < best):
            best = v
    return cnt


@njit(cache=True, nogil=True)
def solve_value(h: np.ndarray, seat: int, n: int, led: int, wc: int, ws: int, tpts: int, table: int,
                done: int, vst: int, alpha: int, beta: int, guess: int, tol: int, contract: int, pts: np.ndarray,
                strength: np.ndarray, above: np.ndarray, trump_mask: int, order: np.ndarray, lastb: int,
                valb: int, belb: int, tk: np.ndarray, tlo: np.ndarray, thi: np.ndarray, tmv: np.ndarray,
                tgen: np.ndarray, gen: int, bits: int, mv: np.ndarray, sc: np.ndarray, fr: np.ndarray,
                stats: np.ndarray) -> int:
    """The value of the position in the window; for the full window by MTD(f) (within ``tol``)."""
    if alpha <= -INF and beta >= INF:
        return _mtd(h, seat, n, led, wc, ws, tpts, table, done, vst, guess, contract, pts, strength, above,
                    trump_mask, order, lastb, valb, belb, tk, tlo, thi, tmv, tgen, gen, bits, mv, sc, fr, stats,
                    tol)
    return _search(h, seat, n, led, wc, ws, tpts, table, done, vst, alpha, beta, contract, pts, strength,
                   above, trump_mask, order, lastb, valb, belb, tk, tlo, thi, tmv, tgen, gen, bits, mv, sc, fr,
                   stats)
