#!/usr/bin/env python3
"""Independent Anti-Mars Circe move generator and perft, for differential tests only.

Written from ../shared/RULES.md (section 3 rebirth squares, section 5 "Anti-Martian Circe":
captures are orthodox, non-captures start from the rebirth square) and from the castling
moves Popeye 4.104 lists at depth 1 in ../shared/reference/movelists.jsonl. It shares no
code or data structure with the C++ engine: a plain 64-square mailbox, no bitboards, no
incremental state, legality by testing the mover's king after every move.

Castling model (what Popeye's depth-1 lists show):
- the king castles from its rebirth square e1/e8 (it may stand elsewhere if that square is
  empty); its own right is not needed;
- round 1 uses the corner rights the position holds;
- then each own rook whose rebirth square is an empty corner (or the king's, which goes to
  e1/e8 first) is put there, that corner's
  right is added, and a further round castles to every side the rights allow; the round's
  first castling (king side first) takes the moved rook along (towards that corner it castles
  with it; to the other side the rook stays on its corner, "[wRa3->a1]0-0" with the rook
  then on a1, as Popeye's deeper lists show), a later one only when it castles with it;
- a king really on e1/e8 with its right castles once more (Popeye's capture path);
- e1/e8 and the passed square must not be attacked, the squares between must be empty.
Rights are lost by every square a move touches (departure, rebirth square, arrival, a
castling rook's squares) and kept only while the right unit stands on the square.
"""
import random
import sys

KNIGHT = [(1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)]
KING = [(a, b) for a in (-1, 0, 1) for b in (-1, 0, 1) if a or b]
ROOK = [(1, 0), (-1, 0), (0, 1), (0, -1)]
BISHOP = [(1, 1), (1, -1), (-1, 1), (-1, -1)]


def sq(f, r):
    return r * 8 + f


def light(s):
    return (s % 8 + s // 8) % 2 == 1


def rebirth(unit, s):
    """Classic Circe rebirth square of `unit` (colour, walk) standing on s."""
    c, w = unit
    back = 0 if c == 'w' else 7
    if w == 'P':
        return sq(s % 8, 1 if c == 'w' else 6)
    if w == 'K':
        return sq(4, back)
    if w == 'Q':
        return sq(3, back)
    # the home square of this walk with the colour of s
    homes = {'R': (0, 7), 'B': (2, 5), 'N': (1, 6)}[w]
    return next(sq(f, back) for f in homes if light(sq(f, back)) == light(s))


def parse_fen(fen):
    fields = fen.split()
    board = [None] * 64
    for i, row in enumerate(fields[0].split('/')):
        f = 0
        for ch in row:
            if ch.isdigit():
                f += int(ch)
            else:
                board[sq(f, 7 - i)] = ('w' if ch.isupper() else 'b', ch.upper())
                f += 1
    rights = set()
    for ch in fields[2]:
        rank = 0 if ch.isupper() else 7
        if ch in 'Kk':
            rights |= {sq(4, rank), sq(7, rank)}
        if ch in 'Qq':
            rights |= {sq(4, rank), sq(0, rank)}
    ep = None if fields[3] == '-' else sq('abcdefgh'.index(fields[3][0]), int(fields[3][1]) - 1)
    return board, fields[1], frozenset(rights), ep


def to_fen(pos):
    board, side, rights, ep = pos
    rows = []
    for r in range(7, -1, -1):
        row, empty = '', 0
        for f in range(8):
            u = board[sq(f, r)]
            if u is None:
                empty += 1
                continue
            if empty:
                row += str(empty)
                empty = 0
            row += u[1] if u[0] == 'w' else u[1].lower()
        rows.append(row + (str(empty) if empty else ''))
    castle = ''
    for letter, king, rook in (('K', 4, 7), ('Q', 4, 0), ('k', 60, 63), ('q', 60, 56)):
        if king in rights and rook in rights:
            castle += letter
    eps = '-' if ep is None else 'abcdefgh'[ep % 8] + str(ep // 8 + 1)
    return '%s %s %s %s 0 1' % ('/'.join(rows), side, castle or '-', eps)


def attacked(board, s, by):
    f, r = s % 8, s // 8
    for steps, walk in ((KNIGHT, 'N'), (KING, 'K')):
        for df, dr in steps:
            if 0 <= f + df < 8 and 0 <= r + dr < 8 and board[sq(f + df, r + dr)] == (by, walk):
                return True
    pr = r - 1 if by == 'w' else r + 1
    for df in (-1, 1):
        if 0 <= f + df < 8 and 0 <= pr < 8 and board[sq(f + df, pr)] == (by, 'P'):
            return True
    for dirs, walks in ((ROOK, 'RQ'), (BISHOP, 'BQ')):
        for df, dr in dirs:
            F, R = f + df, r + dr
            while 0 <= F < 8 and 0 <= R < 8:
                u = board[sq(F, R)]
                if u is not None:
                    if u[0] == by and u[1] in walks:
                        return True
                    break
                F, R = F + df, R + dr
    return False


def piece_targets(board, unit, s):
    """(arrival, is_capture) of a non-pawn unit standing on s."""
    c, w = unit
    f, r = s % 8, s // 8
    out = []
    if w in 'NK':
        for df, dr in KNIGHT if w == 'N' else KING:
            if 0 <= f + df < 8 and 0 <= r + dr < 8:
                u = board[sq(f + df, r + dr)]
                if u is None or u[0] != c:
                    out.append((sq(f + df, r + dr), u is not None))
        return out
    for df, dr in ROOK if w == 'R' else BISHOP if w == 'B' else ROOK + BISHOP:
        F, R = f + df, r + dr
        while 0 <= F < 8 and 0 <= R < 8:
            u = board[sq(F, R)]
            if u is not None:
                if u[0] != c:
                    out.append((sq(F, R), True))
                break
            out.append((sq(F, R), False))
            F, R = F + df, R + dr
    return out


def king_square(board, c):
    return next((s for s in range(64) if board[s] == (c, 'K')), None)


# A move: (kind, departure, start, arrival, promotion or castling rook, extra)
#   kind 'n' normal, 'ep' en passant, 'c' castling; start = square the unit moves from
#   (its rebirth square for a non-capture); for castling `promotion` is the rook moved to
#   the corner first (or None) and extra the corner.
def pseudo_moves(pos):
    board, side, rights, ep = pos
    them = 'b' if side == 'w' else 'w'
    up, last = (1, 7) if side == 'w' else (-1, 0)
    moves = []
    for s in range(64):
        unit = board[s]
        if unit is None or unit[0] != side:
            continue
        f = s % 8
        if unit[1] == 'P':
            for df in (-1, 1):
                F, R = f + df, s // 8 + up
                if 0 <= F < 8 and 0 <= R < 8:
                    t = sq(F, R)
                    if board[t] is not None and board[t][0] == them:
                        for promo in ('QRBN' if R == last else [None]):
                            moves.append(('n', s, s, t, promo, None))
                    elif t == ep:
                        moves.append(('ep', s, s, t, None, None))
        else:
            moves += [('n', s, s, t, None, None) for t, cap in piece_targets(board, unit, s) if cap]
        home = rebirth(unit, s)
        if home != s and board[home] is not None:
            continue
        lifted = list(board)
        lifted[s] = None
        lifted[home] = unit
        if unit[1] == 'P':
            hr = home // 8
            one = sq(home % 8, hr + up)
            if lifted[one] is None:
                if one != s:
                    for promo in ('QRBN' if hr + up == last else [None]):
                        moves.append(('n', s, home, one, promo, None))
                two = sq(home % 8, hr + 2 * up)
                if lifted[two] is None:  # a double step back onto s exists
                    moves.append(('n', s, home, two, None, 'double'))
        else:
            moves += [('n', s, home, t, None, None) for t, cap in piece_targets(lifted, unit, home)
                      if not cap and t != s]
    moves += castlings(pos)
    return moves


def castlings(pos):
    board, side, rights, ep = pos
    them = 'b' if side == 'w' else 'w'
    k = king_square(board, side)
    if k is None:
        return []
    rank = 0 if side == 'w' else 7
    e = sq(4, rank)
    corners = {sq(0, rank), sq(7, rank)}
    out = []

    def path(c):
        """Squares between king and corner c, the square the king passes, its arrival."""
        king_side = c % 8 == 7
        between = range(min(e, c) + 1, max(e, c))
        return between, sq(5 if king_side else 3, rank), sq(6 if king_side else 2, rank)

    def round_(allowed, rook_from, corner):
        b = list(board)
        b[k] = None
        b[e] = (side, 'K')
        if rook_from is not None:
            b[rook_from] = None
            b[corner] = (side, 'R')
        first = True
        for c in sorted(allowed, reverse=True):  # king side first
            between, passed, arrival = path(c)
            if any(b[x] is not None for x in between) or attacked(b, e, them) or attacked(b, passed, them):
                continue
            out.append(('c', k, e, arrival, rook_from if first or c == corner else None, c))
            first = False

    if k == e or board[e] is None:
        held = rights & corners
        round_(held, None, None)
        for r in range(64):
            if board[r] == (side, 'R'):
                corner = rebirth((side, 'R'), r)
                if corner != r and (board[corner] is None or corner == k):
                    round_(held | {corner}, r, corner)
    if k == e and e in rights and not attacked(board, e, them):
        for c in sorted(rights & corners, reverse=True):
            between, passed, arrival = path(c)
            if any(board[x] is not None for x in between):
                continue
            b = list(board)
            b[e] = None
            b[passed] = (side, 'K')
            if not attacked(b, passed, them):
                out.append(('c', k, e, arrival, None, c))
    return out


def play(pos, move):
    board, side, rights, ep = pos
    board = list(board)
    kind, s, start, t, x, extra = move
    touched = {s, start, t}
    new_ep = None
    if kind == 'c':
        king = board[s]
        board[s] = None
        if x is not None:
            # the lifted rook goes to its rebirth corner: the castling corner (it castles from
            # there) or the other one (it stays there)
            lifted_to = rebirth((side, 'R'), x)
            board[x] = None
            board[lifted_to] = (side, 'R')
            touched.add(x)
            touched.add(lifted_to)
        rook = board[extra]
        board[extra] = None
        board[t] = king
        board[sq(5 if t % 8 == 6 else 3, t // 8)] = rook
        touched.add(extra)
    elif kind == 'ep':
        board[t] = board[s]
        board[s] = None
        board[sq(t % 8, s // 8)] = None
    else:
        unit = board[s]
        board[s] = None
        board[t] = (side, x) if x else unit
        if extra == 'double':
            new_ep = sq(t % 8, (start // 8 + t // 8) // 2)
    kept = set()
    for q in rights - touched:
        want = ('w' if q // 8 == 0 else 'b', 'K' if q % 8 == 4 else 'R')
        if board[q] == want:
            kept.add(q)
    return board, 'b' if side == 'w' else 'w', frozenset(kept), new_ep


def legal_moves(pos):
    out = []
    for m in pseudo_moves(pos):
        after = play(pos, m)
        k = king_square(after[0], pos[1])
        if k is None or not attacked(after[0], k, after[1]):
            out.append((m, after))
    return out


def perft(pos, depth):
    if depth == 0:
        return 1
    moves = legal_moves(pos)
    if depth == 1:
        return len(moves)
    return sum(perft(after, depth - 1) for m, after in moves)


def random_walk(fen, plies, rng):
    """FEN after up to `plies` random legal moves from `fen` (stops at mate or stalemate)."""
    pos = parse_fen(fen)
    for _ in range(plies):
        moves = legal_moves(pos)
        if not moves:
            break
        pos = rng.choice(moves)[1]
    return to_fen(pos)


if __name__ == '__main__':
    if len(sys.argv) != 3:
        sys.exit('usage: antimars.py FEN DEPTH')
    print(perft(parse_fen(sys.argv[1]), int(sys.argv[2])))
