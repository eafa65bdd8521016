#include "rebirth/unmove.h"

#include <stdexcept>

#include "rebirth/bitboard.h"
#include "rebirth/movegen.h"
#include "rebirth/position.h"

namespace rebirth {

namespace {

constexpr Walk kUncapturable[] = {QUEEN, ROOK, BISHOP, KNIGHT, PAWN};

// The squares from which a unit of walk w (no pawn) reaches t on `occ` (t's own unit aside).
Bitboard sources(Walk w, Square t, Bitboard occ) {
    switch (w) {
        case KING:
            return king_attacks(t);
        case KNIGHT:
            return knight_attacks(t);
        case BISHOP:
            return bishop_attacks(t, occ);
        case ROOK:
            return rook_attacks(t, occ);
        case QUEEN:
            return queen_attacks(t, occ);
        default:
            throw std::invalid_argument("generate_unmoves: orthodox units only");
    }
}

// Whether the position before u is possible: it loads (the opponent of the mover is not in
// check there, kings and pawns are where they may stand) and u's move is legal in it.
bool possible(const Setup& before, const Move& m) {
    Position pos;
    try {
        pos.set(before);
    } catch (const std::exception&) {
        return false;
    }
    MoveList list;
    generate_legal(pos, list);
    for (const Move& x : list)
        if (x.from == m.from && x.to == m.to && x.kind == m.kind && x.promotion == m.promotion) return true;
    return false;
}

}  // namespace

Setup retract(const Setup& position, const UnMove& u) {
    Setup s;
    s.board = position.board;
    const Color mover = ~position.side_to_move;
    const Move& m = u.move;
    Piece unit = s.board[m.to];
    s.board[m.to] = Piece{};
    if (m.kind == MoveKind::Promotion) unit = make_piece(mover, PAWN);
    s.board[m.from] = unit;
    if (m.kind == MoveKind::Castling) {
        const int r = rank_of(m.to);
        const bool king_side = file_of(m.to) == 6;
        const Square rook_now = make_square(king_side ? 5 : 3, r), corner = make_square(king_side ? 7 : 0, r);
        s.board[corner] = s.board[rook_now];
        s.board[rook_now] = Piece{};
        s.castling = square_bb(m.from) | square_bb(corner);
    }
    if (u.uncaptured != NO_WALK) {
        const Square c = m.kind == MoveKind::EnPassant ? Square(mover == WHITE ? m.to - 8 : m.to + 8) : m.to;
        s.board[c] = make_piece(~mover, u.uncaptured);
    }
    if (m.kind == MoveKind::EnPassant) s.ep_square = m.to;
    s.side_to_move = mover;
    return s;
}

void generate_unmoves(const Setup& position, std::vector<UnMove>& out) {
    out.clear();
    const Color mover = ~position.side_to_move;
    Bitboard occ = 0;
    for (int s = 0; s < SQUARE_NB; ++s)
        if (!position.board[s].empty()) {
            if (position.board[s].walk > PAWN) throw std::invalid_argument("generate_unmoves: orthodox units only");
            occ |= square_bb(Square(s));
        }
    const int up = mover == WHITE ? 8 : -8;
    auto add = [&](Move m, Walk uncaptured) {
        const UnMove u{m, uncaptured};
        if (possible(retract(position, u), m)) out.push_back(u);
    };
    // The move m, taking nothing or any unit the opponent may have had on t.
    auto add_captures = [&](Move m, Square t, bool quiet_too) {
        if (quiet_too) add(m, NO_WALK);
        const int rr = relative_rank(~mover, rank_of(t));
        for (Walk w : kUncapturable)
            if (w != PAWN || (rr != 0 && rr != 7)) add(m, w);
    };
    for (int ti = 0; ti < SQUARE_NB; ++ti) {
        const Square t = Square(ti);
        const Piece p = position.board[t];
        if (p.empty() || p.color != mover) continue;
        const int rr = relative_rank(mover, rank_of(t));
        if (p.walk == PAWN) {
            if (rr < 2) continue;
            const Square back = Square(t - up);
            if (!(occ & square_bb(back))) {
                add(Move{back, t}, NO_WALK);
                const Square start = Square(t - 2 * up);
                if (rr == 3 && !(occ & square_bb(start))) add(Move{start, t}, NO_WALK);
            }
            for (int df : {-1, 1}) {
                const int f = file_of(t) + df;
                if (f < 0 || f > 7) continue;
                const Square from = make_square(f, rank_of(back));
                if (occ & square_bb(from)) continue;
                add_captures(Move{from, t}, t, false);
                // En passant: the opponent's pawn stood behind t after its double step.
                if (rr == 5 && !(occ & square_bb(back)) && !(occ & square_bb(Square(t + up))))
                    add(Move{from, t, MoveKind::EnPassant}, PAWN);
            }
            continue;
        }
        // Promotion: a pawn of the seventh rank stepped or took onto t.
        if (rr == 7 && p.walk != KING) {
            const Square back = Square(t - up);
            if (!(occ & square_bb(back))) add(Move{back, t, MoveKind::Promotion, p.walk}, NO_WALK);
            for (int df : {-1, 1}) {
                const int f = file_of(t) + df;
                if (f < 0 || f > 7) continue;
                const Square from = make_square(f, rank_of(back));
                if (occ & square_bb(from)) continue;
                for (Walk w : {QUEEN, ROOK, BISHOP, KNIGHT}) add(Move{from, t, MoveKind::Promotion, p.walk}, w);
            }
        }
        for (Bitboard b = sources(p.walk, t, occ) & ~occ; b;) add_captures(Move{pop_lsb(b), t}, t, true);
        // Castling: king on g1/c1 with the rook beside it, its game-array squares empty.
        if (p.walk == KING && rr == 0 && (file_of(t) == 6 || file_of(t) == 2)) {
            const int r = rank_of(t);
            const bool king_side = file_of(t) == 6;
            const Square home = make_square(4, r), corner = make_square(king_side ? 7 : 0, r);
            const Square rook = make_square(king_side ? 5 : 3, r);
            const Piece rk = position.board[rook];
            const Bitboard empty_needed =
                square_bb(home) | square_bb(corner) | (king_side ? 0 : square_bb(make_square(1, r)));
            if (rk.walk == ROOK && rk.color == mover && !(occ & empty_needed))
                add(Move{home, t, MoveKind::Castling}, NO_WALK);
        }
    }
}

}  // namespace rebirth
