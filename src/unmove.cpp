#include "rebirth/unmove.h"

#include <array>
#include <optional>
#include <stdexcept>

#include "rebirth/bitboard.h"
#include "rebirth/movegen.h"
#include "rebirth/position.h"
#include "rebirth_square.h"
#include "walk_attacks.h"

namespace rebirth {

namespace {

constexpr Walk kUncapturable[] = {QUEEN, ROOK, BISHOP, KNIGHT, PAWN};

// The forward move, in the position before (which must load), with u's from, to, kind and
// promotion that gives `after` again; nullopt when there is none.
std::optional<Move> replayed(const Setup& before, const UnMove& u, const RuleSet* rules,
                             const std::array<Piece, SQUARE_NB>& after) {
    Position pos;
    SetupRules setup_rules;
    setup_rules.rules = rules;
    try {
        pos.set(before, setup_rules);
    } catch (const std::exception&) {
        return std::nullopt;
    }
    MoveList list;
    generate_legal(pos, list);
    for (const Move& x : list) {
        if (x.from != u.move.from || x.to != u.move.to || x.kind != u.move.kind || x.promotion != u.move.promotion)
            continue;
        UndoInfo undo;
        pos.do_move(x, undo);
        const bool same = same_units(pos.to_setup().board, after);
        pos.undo_move(x, undo);
        if (same) return x;
    }
    return std::nullopt;
}

}  // namespace

Setup retract(const Setup& position, const UnMove& u) {
    Setup s;
    s.board = position.board;
    const Color mover = ~position.side_to_move;
    const Move& m = u.move;
    // The reborn unit leaves first: it may stand on the departure square (PWC Circe).
    if (u.uncaptured != NO_WALK && u.unreborn != SQ_NONE) s.board[u.unreborn] = Piece{};
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
        s.board[c] = make_piece(~mover, u.uncaptured);  // a pawn again if it promoted when reborn
    }
    if (m.kind == MoveKind::EnPassant) s.ep_square = m.to;
    s.side_to_move = mover;
    return s;
}

bool unmoves_supported(const RuleSet* rules) {
    if (!rules || rules->orthodox()) return true;
    const RuleSet& r = *rules;
    return r.reborn == Reborn::Captured && !parrain_like(r) && !r.mars && !r.antimars &&
           (r.occupied == Occupied::Relaxed || r.occupied == Occupied::Strict) && !r.atom && !r.kamikaze &&
           !r.alsatian && !r.hydra && r.square != SquareRule::TakeMake && r.square != SquareRule::Diagram && !r.clone &&
           !r.chameleon && !r.frischauf;
}

// One way the unit now on t may have arrived: the move, the square of the unit it took if
// it took one (t, or behind t for en passant), whether it may have taken nothing, and
// whether what it took can only be a pawn.
namespace {

struct Arrival {
    Move move;
    Square capture = SQ_NONE;
    bool quiet = false;
    bool taking = false;
    bool pawn_only = false;
};

// The arrivals of unit p (of colour `mover`) on t when the squares `occ` were occupied
// before the move (t aside; departure squares must be empty there). Castling is not here.
void arrivals(Piece p, Color mover, Square t, Bitboard occ, bool circe, std::vector<Arrival>& out) {
    out.clear();
    const int up = mover == WHITE ? 8 : -8;
    const int rr = relative_rank(mover, rank_of(t));
    auto empty = [&](Square s) { return !(occ & square_bb(s)); };
    if (p.walk == PAWN) {
        // Under rebirth rules a pawn may stand, and for some of them move, on its first rank.
        if (rr < (circe ? 1 : 2)) return;
        const Square back = Square(t - up);
        if (empty(back)) {
            out.push_back({Move{back, t}, SQ_NONE, true, false, false});
            const Square start = Square(t - 2 * up);
            if (rr == 3 && empty(start)) out.push_back({Move{start, t}, SQ_NONE, true, false, false});
        }
        for (int df : {-1, 1}) {
            const int f = file_of(t) + df;
            if (f < 0 || f > 7) continue;
            const Square from = make_square(f, rank_of(back));
            if (!empty(from)) continue;
            out.push_back({Move{from, t}, t, false, true, false});
            // En passant: the opponent's pawn stood behind t after its double step.
            if (rr == 5 && empty(back) && empty(Square(t + up)))
                out.push_back({Move{from, t, MoveKind::EnPassant}, back, false, true, true});
        }
        return;
    }
    // Promotion: a pawn of the seventh rank stepped or took onto t.
    if (rr == 7 && p.walk != KING) {
        const Square back = Square(t - up);
        if (empty(back)) out.push_back({Move{back, t, MoveKind::Promotion, p.walk}, SQ_NONE, true, false, false});
        for (int df : {-1, 1}) {
            const int f = file_of(t) + df;
            if (f < 0 || f > 7) continue;
            const Square from = make_square(f, rank_of(back));
            if (empty(from)) out.push_back({Move{from, t, MoveKind::Promotion, p.walk}, t, false, true, false});
        }
    }
    for (Bitboard b = walk_targets(p.walk, t, occ) & ~occ; b;)
        out.push_back({Move{pop_lsb(b), t}, t, true, true, false});
}

}  // namespace

void generate_unmoves(const Setup& position, std::vector<UnMove>& out, const RuleSet* rules) {
    out.clear();
    init_bitboards();  // the attack tables, before any Position is made
    if (!unmoves_supported(rules)) throw std::invalid_argument("generate_unmoves: rules not supported");
    const bool circe = rules && !rules->orthodox();
    const Color mover = ~position.side_to_move;
    Bitboard occ = 0;
    for (int s = 0; s < SQUARE_NB; ++s)
        if (!position.board[s].empty()) {
            if (position.board[s].walk > PAWN) throw std::invalid_argument("generate_unmoves: orthodox units only");
            occ |= square_bb(Square(s));
        }
    auto add = [&](Move m, Walk uncaptured, Square unreborn = SQ_NONE) {
        UnMove u{m, uncaptured, unreborn};
        if (const auto x = replayed(retract(position, u), u, rules, position.board)) {
            u.move = *x;
            out.push_back(u);
        }
    };
    // Whether a unit of walk w of the opponent may have stood on c (orthodox: no pawn on its
    // first or last rank).
    auto may_stand = [&](Walk w, Square c) {
        const int rr = relative_rank(~mover, rank_of(c));
        return w != PAWN || circe || (rr != 0 && rr != 7);  // rebirths may put pawns anywhere
    };
    std::vector<Arrival> ways;
    for (int ti = 0; ti < SQUARE_NB; ++ti) {
        const Square t = Square(ti);
        const Piece p = position.board[t];
        if (p.empty() || p.color != mover) continue;
        // Taking nothing, or a unit that was not reborn (orthodox, or an occupied square).
        arrivals(p, mover, t, occ, circe, ways);
        for (const Arrival& a : ways) {
            if (a.quiet) add(a.move, NO_WALK);
            if (!a.taking) continue;
            for (Walk w : kUncapturable)
                if ((!a.pawn_only || w == PAWN) && may_stand(w, a.capture)) add(a.move, w);
        }
        // Circe: the taken unit is the opponent's unit now on r, reborn there (r was empty
        // before the move, or the mover's departure square).
        for (int r = 0; circe && r < SQUARE_NB; ++r) {
            const Piece q = position.board[r];
            if (q.empty() || q.color == mover) continue;
            // A pawn reborn on its last rank promotes there.
            const bool promoted = q.walk != PAWN && q.walk != KING && relative_rank(~mover, rank_of(Square(r))) == 7;
            arrivals(p, mover, t, occ & ~square_bb(Square(r)), circe, ways);
            for (const Arrival& a : ways) {
                if (!a.taking || a.capture == Square(r)) continue;
                for (Walk w : {q.walk, promoted ? PAWN : NO_WALK})
                    if (w != NO_WALK && (!a.pawn_only || w == PAWN) && may_stand(w, a.capture))
                        add(a.move, w, Square(r));
            }
        }
        // Castling: king on g1/c1 with the rook beside it, its game-array squares empty.
        const int rr = relative_rank(mover, rank_of(t));
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
