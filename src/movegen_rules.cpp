#include "movegen_rules.h"

#include "rebirth/bitboard.h"
#include "rebirth/rules.h"
#include "rebirth_square.h"
#include "walk_attacks.h"

namespace rebirth {

namespace {

// Targets of a non-pawn unit of walk w on `from` with occupancy `occ` (colour not filtered).
Bitboard walk_targets(Walk w, Square from, Bitboard occ) {
    switch (w) {
        case KING: return king_attacks(from);
        case KNIGHT: return knight_attacks(from);
        case BISHOP: return bishop_attacks(from, occ);
        case ROOK: return rook_attacks(from, occ);
        case QUEEN: return queen_attacks(from, occ);
        default: {
            Bitboard t = 0;
            for_each_walk_target(w, from, occ, [&](Square s) { t |= square_bb(s); });
            return t;
        }
    }
}

class RuleGen {
public:
    RuleGen(const Position& pos, Color side, MoveList& list)
        : pos_(pos), R_(*pos.rules()), side_(side), list_(list), occ_(pos.pieces()) {}

    // Every pseudo-legal move of side_ (see generate_rule_moves).
    void run(Bitboard targets, bool quiet) {
        for (Bitboard b = pos_.pieces(side_); b;) {
            const Square q = pop_lsb(b);
            const Piece p = pos_.piece_on(q);
            const Square home = mars_square(p, q);
            if (R_.mars) {
                if (quiet) unit_moves(p, q, q, occ_, 0, true);
                if (home == q)
                    unit_moves(p, q, q, occ_, targets, false);
                else if (home != SQ_NONE && pos_.empty(home))
                    unit_moves(p, q, home, (occ_ ^ square_bb(q)) | square_bb(home), targets, false);
            } else if (R_.antimars) {
                unit_moves(p, q, q, occ_, targets, false);
                if (quiet) {
                    if (home == q)
                        unit_moves(p, q, q, occ_, 0, true);
                    else if (home != SQ_NONE && pos_.empty(home))
                        unit_moves(p, q, home, (occ_ ^ square_bb(q)) | square_bb(home), 0, true);
                }
            } else {
                unit_moves(p, q, q, occ_, targets, quiet);
            }
        }
        if (quiet && side_ == pos_.side_to_move()) {
            castling();
            en_passant(targets);
        }
    }

private:
    // Mars / Anti-Mars departure square of unit p standing on q (its classic rebirth
    // square computed from q).
    Square mars_square(Piece p, Square q) const {
        if (!R_.mars && !R_.antimars) return q;
        return classic_rebirth_square(p.walk, R_.mirror ? ~p.color : p.color, q,
                                      R_.frischauf && (p.flags & PF_PROMOTED));
    }

    // Moves of unit p (standing on q) as if it stood on d with occupancy occ: captures of
    // units on `targets`, non-captures when `quiet`.
    void unit_moves(Piece p, Square q, Square d, Bitboard occ, Bitboard targets, bool quiet) {
        const Bitboard enemies = pos_.pieces(~side_) & targets;
        const Square via = d == q ? SQ_NONE : d;
        if (p.walk == PAWN) {
            const int rr = relative_rank(side_, rank_of(d));
            if (rr == 0 || rr == 7) return;
            const int up = side_ == WHITE ? 8 : -8;
            const bool promo = rr == 6;
            if (quiet) {
                const Square one = Square(d + up);
                if (!(occ & square_bb(one))) {
                    push(q, one, via, promo);
                    const Square two = Square(one + up);
                    if (rr == 1 && !(occ & square_bb(two))) push(q, two, via, false);
                }
            }
            for (Bitboard t = pawn_attacks(side_, d) & enemies; t;) push(q, pop_lsb(t), via, promo);
            return;
        }
        const Bitboard t = walk_targets(p.walk, d, occ);
        for (Bitboard c = t & enemies; c;) push(q, pop_lsb(c), via, false);
        if (quiet)
            for (Bitboard n = t & ~occ; n;) push(q, pop_lsb(n), via, false);
    }

    // One base move (all promotions), expanded into its rule choices.
    void push(Square from, Square to, Square via, bool promo) {
        Move m;
        m.from = from;
        m.to = to;
        m.extra = via;
        if (!promo) {
            expand(m);
            return;
        }
        m.kind = MoveKind::Promotion;
        for (int i = 0; i < pos_.promotion_walk_count(); ++i) {
            m.promotion = pos_.promotion_walks()[i];
            expand(m);
        }
    }

    // Whether square s is empty after the capture from `from` to `to` (capturing on cap).
    bool empty_after(Square s, Square from, Square to, Square cap) const {
        if (s == to) return R_.kamikaze;
        if (s == from || s == cap) return true;
        return pos_.empty(s);
    }

    void expand(Move m) {
        const Square cap = m.kind == MoveKind::EnPassant ? Square(side_ == WHITE ? m.to - 8 : m.to + 8) : m.to;
        const Piece captured = pos_.piece_on(cap);
        if (captured.empty() || R_.mars || parrain_like(R_)) {
            if (!captured.empty() || !parrain_like(R_) || pos_.parrain_square() == SQ_NONE) {
                list_.push(m);
                return;
            }
            parrain_choices(m);
            return;
        }
        const Piece mover = pos_.piece_on(m.from);
        Piece capturer = mover;
        if (m.kind == MoveKind::Promotion) {
            capturer.walk = m.promotion;
            capturer.flags |= PF_PROMOTED;
        }
        if (R_.reborn == Reborn::Capturer) {
            anti_circe(m, capturer);
            return;
        }
        if (captured.walk == KING && R_.rex == Rex::Exclusive) {
            list_.push(m);  // kings are never reborn
            return;
        }
        CaptureFacts f;
        f.unit = captured;
        f.capture = cap;
        f.from = m.from;
        f.to = m.to;
        f.capturer = capturer;
        f.origin = pos_.origin(cap);
        const Walk walk = reborn_walk(R_, f);
        if (R_.square == SquareRule::Super) {
            m.rebirth = SQ_NONE;
            list_.push(m);
            for (int s = 0; s < SQUARE_NB; ++s)
                if (empty_after(Square(s), m.from, m.to, cap)) rebirth_on(m, Square(s), walk, captured.color);
            return;
        }
        const Square r = rebirth_square(R_, f, walk);
        if (r == SQ_NONE) {
            list_.push(m);
            return;
        }
        if (!empty_after(r, m.from, m.to, cap)) {
            switch (R_.occupied) {
                case Occupied::Relaxed: list_.push(m); return;
                case Occupied::Strict: return;
                default: break;
            }
        }
        rebirth_on(m, r, walk, captured.color);
    }

    // The capture m with the captured unit reborn on r (one move per promotion choice when
    // a pawn is reborn on its last rank).
    void rebirth_on(Move m, Square r, Walk walk, Color c) {
        m.rebirth = r;
        if (walk == PAWN && last_rank(c, r)) {
            for (int i = 0; i < pos_.promotion_walk_count(); ++i) {
                m.rebirth_walk = pos_.promotion_walks()[i];
                list_.push(m);
            }
            return;
        }
        m.rebirth_walk = walk;
        list_.push(m);
    }

    // Anti-Circe: the capturer (as promoted) goes to its rebirth square, which must be
    // empty (its departure counts as empty); on its own rebirth square it stays (Calvet) or
    // may not capture (Cheylan).
    void anti_circe(Move m, Piece capturer) {
        CaptureFacts f;
        f.unit = capturer;
        f.capture = m.to;
        f.from = m.from;
        f.to = m.to;
        f.capturer = capturer;
        f.origin = pos_.origin(m.from);
        const Square r = rebirth_square(R_, f, capturer.walk);
        if (r == SQ_NONE) return;
        if (r == m.to) {
            if (R_.cheylan) return;
        } else if (r != m.from && !pos_.empty(r) && R_.occupied != Occupied::Volcanic) {
            return;
        }
        m.extra = r;
        list_.push(m);
    }

    // Parrain: a non-capture that also places the unit captured by the previous move; a
    // pawn placed on its last rank promotes (one move per walk).
    void parrain_choices(Move m) {
        const Piece unit = pos_.parrain_piece();
        int df = file_of(m.to) - file_of(m.from), dr = rank_of(m.to) - rank_of(m.from);
        if (m.kind == MoveKind::Castling) df += (m.to > m.from) ? -2 : 3;
        if (R_.square == SquareRule::ContraParrain) {
            df = -df;
            dr = -dr;
        }
        const int f = file_of(pos_.parrain_square()) + df, r = rank_of(pos_.parrain_square()) + dr;
        if (unit.walk == PAWN && on_board(f, r) && last_rank(unit.color, make_square(f, r))) {
            for (int i = 0; i < pos_.promotion_walk_count(); ++i) {
                m.rebirth_walk = pos_.promotion_walks()[i];
                list_.push(m);
            }
            return;
        }
        list_.push(m);
    }

    void castling() {
        const Color us = side_;
        const Square k = us == WHITE ? SQ_E1 : SQ_E8;
        if (pos_.king_square(us) != k || !(pos_.castling_rights() & square_bb(k))) return;
        if (pos_.in_check(us)) return;
        const int r = rank_of(k);
        for (bool king_side : {true, false}) {
            const Square rook = make_square(king_side ? 7 : 0, r);
            if (!(pos_.castling_rights() & square_bb(rook))) continue;
            if (between_bb(k, rook) & occ_) continue;
            const Square pass = make_square(king_side ? 5 : 3, r);
            const Square dest = make_square(king_side ? 6 : 2, r);
            // The king may not pass through check: play the one-step king move and test.
            Move step;
            step.from = k;
            step.to = pass;
            Position scratch = pos_;
            UndoInfo u;
            if (!scratch.do_rules_move(step, u)) continue;
            const bool attacked = scratch.in_check(us);
            scratch.undo_move(step, u);
            if (attacked) continue;
            Move m;
            m.from = k;
            m.to = dest;
            m.kind = MoveKind::Castling;
            expand(m);
        }
    }

    void en_passant(Bitboard targets) {
        const Square ep = pos_.ep_square();
        if (ep == SQ_NONE || R_.mars) return;
        const Square cap = Square(side_ == WHITE ? ep - 8 : ep + 8);
        if (!(targets & square_bb(cap))) return;
        for (Bitboard b = pawn_attacks(~side_, ep) & pos_.pieces(side_, PAWN); b;) {
            Move m;
            m.from = pop_lsb(b);
            m.to = ep;
            m.kind = MoveKind::EnPassant;
            expand(m);
        }
    }

    const Position& pos_;
    const RuleSet& R_;
    const Color side_;
    MoveList& list_;
    const Bitboard occ_;
};

}  // namespace

void generate_rule_moves(const Position& pos, Color side, Bitboard targets, bool quiet, MoveList& list) {
    RuleGen(pos, side, list).run(targets, quiet);
}

bool king_capturable(const Position& pos, Color c) {
    const Square k = pos.king_square(c);
    if (k == SQ_NONE) return false;
    const RuleSet& R = *pos.rules();
    MoveList caps;
    generate_rule_moves(pos, ~c, square_bb(k), false, caps);
    for (const Move& m : caps) {
        if (m.to != k) continue;
        if (R.rex == Rex::Inclusive && R.reborn == Reborn::Captured && m.rebirth != SQ_NONE) continue;
        return true;
    }
    if (R.occupied == Occupied::Assassin || R.occupied == Occupied::Ultra) {
        caps.clear();
        generate_rule_moves(pos, ~c, pos.pieces(c) & ~square_bb(k), false, caps);
        for (const Move& m : caps)
            if (m.rebirth == k) return true;
    }
    return false;
}

void generate_rules_legal(const Position& pos, MoveList& list) {
    MoveList pseudo;
    const Color us = pos.side_to_move();
    generate_rule_moves(pos, us, pos.pieces(~us), true, pseudo);
    Position scratch = pos;
    list.clear();
    for (const Move& m : pseudo) {
        UndoInfo u;
        if (!scratch.do_rules_move(m, u)) continue;
        const bool ok = !scratch.in_check(us);
        scratch.undo_move(m, u);
        if (ok) list.push(m);
    }
}

}  // namespace rebirth
