#include "rebirth/movegen.h"

#include "core/rule_hooks.h"
#include "core/walk_attacks.h"
#include "rebirth/bitboard.h"
#include "rebirth/rules.h"

namespace rebirth {

namespace {

inline void add(MoveList& list, Square from, Square to, MoveKind kind = MoveKind::Normal, Walk promo = NO_WALK) {
    Move m;
    m.from = from;
    m.to = to;
    m.kind = kind;
    m.promotion = promo;
    list.push(m);
}

inline void add_promotions(const Position& pos, MoveList& list, Square from, Square to) {
    const auto& walks = pos.promotion_walks();
    for (int i = 0; i < pos.promotion_walk_count(); ++i) add(list, from, to, MoveKind::Promotion, walks[i]);
}

template <Color Us>
constexpr Bitboard shift_up(Bitboard b) {
    return Us == WHITE ? b << 8 : b >> 8;
}
// Captures towards the a-file (file - 1) and towards the h-file (file + 1).
template <Color Us>
constexpr Bitboard shift_west(Bitboard b) {
    b &= ~file_bb(0);
    return Us == WHITE ? b << 7 : b >> 9;
}
template <Color Us>
constexpr Bitboard shift_east(Bitboard b) {
    b &= ~file_bb(7);
    return Us == WHITE ? b << 9 : b >> 7;
}

// Castling for the side to move, when its king is not in check, to the king's destinations on
// `destinations`. `attacked(s)` tells whether the opponent attacks s with the king still on
// its square.
template <typename Attacked>
void gen_castling(const Position& pos, MoveList& list, Color us, Attacked&& attacked,
                  Bitboard destinations = ~Bitboard(0)) {
    Square k = us == WHITE ? SQ_E1 : SQ_E8;
    if (pos.king_square(us) != k) return;
    Bitboard rights = pos.castling_rights();
    if (!(rights & square_bb(k))) return;
    Bitboard occ = pos.pieces();
    int r = rank_of(k);
    Square rook_h = make_square(7, r), rook_a = make_square(0, r);
    if ((destinations & square_bb(make_square(6, r))) && (rights & square_bb(rook_h)) &&
        !(between_bb(k, rook_h) & occ) && !attacked(make_square(5, r)) && !attacked(make_square(6, r)))
        add(list, k, make_square(6, r), MoveKind::Castling);
    if ((destinations & square_bb(make_square(2, r))) && (rights & square_bb(rook_a)) &&
        !(between_bb(k, rook_a) & occ) && !attacked(make_square(3, r)) && !attacked(make_square(2, r)))
        add(list, k, make_square(2, r), MoveKind::Castling);
}

// Fully legal generation for orthodox units only, using check and pin masks. With
// QuietOnly, only non-captures (Circe rules add the captures themselves); the check state it
// computes is left in *safety when given. With `to`, only moves to to[from] (castling: when the
// king's destination is there).
template <Color Us, bool QuietOnly = false>
void gen_orthodox(const Position& pos, MoveList& list, KingSafety* safety = nullptr, const Bitboard* to = nullptr) {
    const auto allowed_to = [to](Square from) { return to ? to[from] : ~Bitboard(0); };
    constexpr Color Them = Color(Us ^ 1);
    const Bitboard occ = pos.pieces();
    const Bitboard ours = pos.pieces(Us);
    const Bitboard theirs = QuietOnly ? 0 : pos.pieces(Them);
    const Square ksq = pos.king_square(Us);

    Bitboard checkers = 0, pinned = 0;
    Bitboard mask = QuietOnly ? ~pos.pieces() : ~ours;
    if (ksq != SQ_NONE) {
        checkers = pos.attackers_to(ksq, Them);
        pinned = pos.pinned(Us);
        if (safety) *safety = KingSafety{checkers, pinned};
        // King steps.
        const Bitboard occ_no_king = occ ^ square_bb(ksq);
        for (Bitboard t = king_attacks(ksq) & mask & allowed_to(ksq); t;) {
            Square to = pop_lsb(t);
            if (!pos.attackers_to(to, Them, occ_no_king)) add(list, ksq, to);
        }
        if (more_than_one(checkers)) return;
        if (checkers) {
            Square c = lsb(checkers);
            mask &= between_bb(ksq, c) | checkers;
        } else {
            gen_castling(
                pos, list, Us, [&](Square s) { return pos.attackers_to(s, Them) != 0; }, allowed_to(ksq));
        }
    }

    // Knights (a pinned knight never moves).
    for (Bitboard b = pos.pieces(Us, KNIGHT) & ~pinned; b;) {
        Square from = pop_lsb(b);
        for (Bitboard t = knight_attacks(from) & mask & allowed_to(from); t;) add(list, from, pop_lsb(t));
    }
    // Sliders.
    for (Bitboard b = (pos.pieces(Us, BISHOP) | pos.pieces(Us, QUEEN)); b;) {
        Square from = pop_lsb(b);
        Bitboard t = bishop_attacks(from, occ) & mask & allowed_to(from);
        if (pinned & square_bb(from)) t &= line_bb(ksq, from);
        while (t) add(list, from, pop_lsb(t));
    }
    for (Bitboard b = (pos.pieces(Us, ROOK) | pos.pieces(Us, QUEEN)); b;) {
        Square from = pop_lsb(b);
        Bitboard t = rook_attacks(from, occ) & mask & allowed_to(from);
        if (pinned & square_bb(from)) t &= line_bb(ksq, from);
        while (t) add(list, from, pop_lsb(t));
    }

    // Pawns (none moves from its own first rank).
    constexpr int up = Us == WHITE ? 8 : -8;
    constexpr Bitboard first = Us == WHITE ? rank_bb(0) : rank_bb(7);
    constexpr Bitboard seventh = Us == WHITE ? rank_bb(6) : rank_bb(1);
    constexpr Bitboard third = Us == WHITE ? rank_bb(2) : rank_bb(5);
    const Bitboard pawns = pos.pieces(Us, PAWN) & ~first;
    const Bitboard empty = ~occ;
    auto legal_for_pin = [&](Square from, Square t) {
        return (allowed_to(from) & square_bb(t)) && (!(pinned & square_bb(from)) || aligned(ksq, from, t));
    };
    {
        const Bitboard normal = pawns & ~seventh;
        Bitboard push1 = shift_up<Us>(normal) & empty;
        Bitboard push2 = shift_up<Us>(push1 & third) & empty & mask;
        push1 &= mask;
        while (push1) {
            Square to = pop_lsb(push1);
            Square from = Square(to - up);
            if (legal_for_pin(from, to)) add(list, from, to);
        }
        while (push2) {
            Square to = pop_lsb(push2);
            Square from = Square(to - 2 * up);
            if (legal_for_pin(from, to)) add(list, from, to);
        }
        constexpr int west = Us == WHITE ? 7 : -9;
        constexpr int east = Us == WHITE ? 9 : -7;
        for (Bitboard t = shift_west<Us>(normal) & theirs & mask; t;) {
            Square to = pop_lsb(t);
            Square from = Square(to - west);
            if (legal_for_pin(from, to)) add(list, from, to);
        }
        for (Bitboard t = shift_east<Us>(normal) & theirs & mask; t;) {
            Square to = pop_lsb(t);
            Square from = Square(to - east);
            if (legal_for_pin(from, to)) add(list, from, to);
        }
    }
    if (const Bitboard promoting = pawns & seventh) {
        constexpr int west = Us == WHITE ? 7 : -9;
        constexpr int east = Us == WHITE ? 9 : -7;
        for (Bitboard t = shift_up<Us>(promoting) & empty & mask; t;) {
            Square to = pop_lsb(t);
            Square from = Square(to - up);
            if (legal_for_pin(from, to)) add_promotions(pos, list, from, to);
        }
        for (Bitboard t = shift_west<Us>(promoting) & theirs & mask; t;) {
            Square to = pop_lsb(t);
            Square from = Square(to - west);
            if (legal_for_pin(from, to)) add_promotions(pos, list, from, to);
        }
        for (Bitboard t = shift_east<Us>(promoting) & theirs & mask; t;) {
            Square to = pop_lsb(t);
            Square from = Square(to - east);
            if (legal_for_pin(from, to)) add_promotions(pos, list, from, to);
        }
    }
    if (const Square ep = pos.ep_square(); !QuietOnly && ep != SQ_NONE) {
        const Square cap = Square(ep - up);
        for (Bitboard b = pawn_attacks(Them, ep) & pawns; b;) {
            Square from = pop_lsb(b);
            if (!(allowed_to(from) & square_bb(ep))) continue;
            if (ksq != SQ_NONE) {
                Bitboard occ2 = (occ ^ square_bb(from) ^ square_bb(cap)) | square_bb(ep);
                if (pos.attackers_to(ksq, Them, occ2) & ~square_bb(cap)) continue;
            }
            add(list, from, ep, MoveKind::EnPassant);
        }
    }
}

// Pseudo-legal moves of every unit of the side to move, any walk.
void gen_pseudo(const Position& pos, MoveList& list) {
    const Color us = pos.side_to_move();
    const Color them = ~us;
    const Bitboard occ = pos.pieces();
    const Bitboard ours = pos.pieces(us);
    const Bitboard theirs = pos.pieces(them);
    for (Bitboard b = ours; b;) {
        Square from = pop_lsb(b);
        Walk w = pos.piece_on(from).walk;
        if (w == PAWN) {
            int r = relative_rank(us, rank_of(from));
            if (r == 0 || r == 7) continue;
            int up = us == WHITE ? 8 : -8;
            bool promo = r == 6;
            Square one = Square(from + up);
            if (pos.empty(one)) {
                if (promo)
                    add_promotions(pos, list, from, one);
                else {
                    add(list, from, one);
                    Square two = Square(one + up);
                    if (r == 1 && pos.empty(two)) add(list, from, two);
                }
            }
            for (Bitboard t = pawn_attacks(us, from) & theirs; t;) {
                Square to = pop_lsb(t);
                if (promo)
                    add_promotions(pos, list, from, to);
                else
                    add(list, from, to);
            }
            if (pos.ep_square() != SQ_NONE && (pawn_attacks(us, from) & square_bb(pos.ep_square())))
                add(list, from, pos.ep_square(), MoveKind::EnPassant);
            continue;
        }
        for (Bitboard targets = walk_targets(w, from, occ) & ~ours; targets;) add(list, from, pop_lsb(targets));
    }
    if (pos.king_square(us) != SQ_NONE && !pos.in_check(us))
        gen_castling(pos, list, us, [&](Square s) { return pos.attacked(s, them); });
}

// Generic legal generation: pseudo-legal moves filtered by playing them on a scratch copy.
void gen_generic(const Position& pos, MoveList& list) {
    MoveList pseudo;
    gen_pseudo(pos, pseudo);
    Position scratch = pos;
    const Color us = pos.side_to_move();
    list.clear();
    for (const Move& m : pseudo) {
        UndoInfo u;
        scratch.do_move(m, u);
        bool ok = !scratch.in_check(us);
        scratch.undo_move(m, u);
        if (ok) list.push(m);
    }
}

// The legal non-captures of the side to move as orthodox chess has them (under rules whose
// non-captures are orthodox), with the king-safety facts for the captures that follow.
void orthodox_quiet_moves(const Position& pos, MoveList& list, KingSafety& safety) {
    if (pos.side_to_move() == WHITE)
        gen_orthodox<WHITE, true>(pos, list, &safety);
    else
        gen_orthodox<BLACK, true>(pos, list, &safety);
}

}  // namespace

void generate_pseudo_legal(const Position& pos, MoveList& list) {
    list.clear();
    gen_pseudo(pos, list);
}

void generate_legal(const Position& pos, MoveList& list) {
    list.clear();
    if (pos.has_rules() && quiet_moves_orthodox(pos)) {
        // Non-captures are orthodox here: legal ones from the fast generator, then the
        // captures with their rebirths.
        KingSafety safety;
        orthodox_quiet_moves(pos, list, safety);
        append_rules_captures(pos, list, safety);
    } else if (pos.has_rules() && assassin_plain(pos)) {
        // Circe Assassin: the orthodox-legal non-captures narrowed, then the captures.
        KingSafety safety;
        orthodox_quiet_moves(pos, list, safety);
        filter_assassin_quiet(pos, list, 0);
        append_assassin_captures(pos, list, safety);
    } else if (pos.has_rules())
        generate_rules_legal(pos, list);
    else if (pos.has_fairy())
        gen_generic(pos, list);
    else if (pos.side_to_move() == WHITE)
        gen_orthodox<WHITE>(pos, list);
    else
        gen_orthodox<BLACK>(pos, list);
}

void generate_legal_by_make(const Position& pos, MoveList& list) {
    if (pos.has_rules())
        generate_rules_legal_by_make(pos, list);
    else
        generate_legal(pos, list);
}

void generate_legal_to(const Position& pos, const Bitboard* to, MoveList& list) {
    if (pos.has_rules() || pos.has_fairy()) {
        MoveList all;
        generate_legal(pos, all);
        list.clear();
        for (const Move& m : all)
            if (to[m.from] & square_bb(m.to)) list.push(m);
        return;
    }
    list.clear();
    if (pos.side_to_move() == WHITE)
        gen_orthodox<WHITE>(pos, list, nullptr, to);
    else
        gen_orthodox<BLACK>(pos, list, nullptr, to);
}

int count_legal(const Position& pos) {
    MoveList list;
    generate_legal(pos, list);
    return list.size();
}

bool has_any_legal_move(const Position& pos) {
    if (pos.has_rules() && quiet_moves_orthodox(pos)) {
        // generate_legal's two parts, the captures with their rebirths only when no
        // non-capture is legal.
        MoveList list;
        KingSafety safety;
        orthodox_quiet_moves(pos, list, safety);
        if (!list.empty()) return true;
        append_rules_captures(pos, list, safety);
        return !list.empty();
    }
    if (pos.has_rules()) return rules_has_legal_move(pos);
    // A safe king step: the usual answer, found without generating (and, with fairy walks,
    // playing) every move.
    if (has_safe_king_step(pos, false)) return true;
    MoveList list;
    generate_legal(pos, list);
    return !list.empty();
}

bool has_safe_king_step(const Position& pos, bool quiet) {
    const Color us = pos.side_to_move();
    Move m;
    m.from = pos.king_square(us);
    if (m.from == SQ_NONE) return false;
    const Bitboard occupied = pos.pieces() & ~square_bb(m.from);
    const Bitboard targets = king_attacks(m.from) & ~(quiet && pos.has_rules() ? pos.pieces() : pos.pieces(us));
    for (Bitboard b = targets; b;) {
        m.to = pop_lsb(b);
        if (!pos.attackers_to(m.to, ~us, occupied) && !(quiet && gives_check(pos, m))) return true;
    }
    return false;
}

bool checks_foreseeable(const Position& pos) {
    if (!pos.has_rules()) return true;
    // Effects that take units off the board (Atom, Kamikaze, Hydra, Alsatian, a Parachute
    // lifting the occupant) may open a line: not foreseen.
    const RuleSet& R = *pos.rules();
    return quiet_moves_orthodox(pos) && !R.atom && !R.kamikaze && !R.hydra && !R.alsatian &&
           R.occupied != Occupied::Parachute;
}

bool gives_check(const Position& pos, const Move& m) {
    const Color us = pos.side_to_move();
    const Square k = pos.king_square(~us);
    if (k == SQ_NONE) return false;
    Bitboard occ = (pos.pieces() & ~square_bb(m.from)) | square_bb(m.to);
    Bitboard ours = pos.pieces(us) & ~square_bb(m.from);
    if (m.kind == MoveKind::EnPassant) occ &= ~square_bb(capture_square(m, us));
    if (m.kind == MoveKind::Castling) {
        const bool king_side = m.to > m.from;
        const Square rook_from = make_square(king_side ? 7 : 0, rank_of(m.from));
        const Square rook_to = make_square(king_side ? 5 : 3, rank_of(m.from));
        occ = (occ & ~square_bb(rook_from)) | square_bb(rook_to);
        ours &= ~square_bb(rook_from);
        if (rook_attacks(rook_to, occ) & square_bb(k)) return true;
    } else {
        // The mover from its arrival square (a king never stands next to the other king).
        const Walk w = m.kind == MoveKind::Promotion ? m.promotion : pos.piece_on(m.from).walk;
        if (unit_attack_set(w, us, m.to, occ) & square_bb(k)) return true;
    }
    // With fairy walks (riders, hoppers whose hurdle may be the mover) every other unit of
    // the mover is asked on the board after the move.
    if (pos.has_fairy()) return (pos.attackers_to(k, us, occ) & ours) != 0;
    // Discovered checks by the mover's other line pieces.
    const Bitboard rq = ours & (pos.pieces(ROOK) | pos.pieces(QUEEN));
    const Bitboard bq = ours & (pos.pieces(BISHOP) | pos.pieces(QUEEN));
    return (rook_attacks(k, occ) & rq) || (bishop_attacks(k, occ) & bq);
}

bool is_legal(const Position& pos, const Move& m) {
    MoveList list;
    generate_legal(pos, list);
    for (const Move& x : list)
        if (x == m) return true;
    return false;
}

}  // namespace rebirth
